package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * The faults that only a sequence judged by the kit's model of the adapter catches (the adapter-model chain): a
 * request meeting a flush ({@link FlushFaults}), LAMs released out of order ({@link LamReleaseFaults}), an ordering flag
 * behind DEFER ({@link FenceFaults}), a PD closed before its children ({@link PdCloseFaults}). The kit before that chain passed each of them (BENCHMARKS.md says how that was
 * checked).
 */
public final class ModelFaults implements NdkProviderSource {
    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> all = new ArrayList<>();
        all.addAll(FlushFaults.providers());
        all.addAll(LamReleaseFaults.providers());
        all.addAll(FenceFaults.providers());
        all.addAll(PdCloseFaults.providers());
        return all;
    }
}
