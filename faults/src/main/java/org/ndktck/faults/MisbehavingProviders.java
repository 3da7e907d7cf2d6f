package org.ndktck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.ndktck.spec.NdkProvider;
import org.ndktck.spec.NdkProviderSource;

/**
 * The providers of this part of the fault catalogue, registered through {@link java.util.ServiceLoader}:
 * the misbehaving providers ({@link Misbehaviours}), the legal but unusual behaviours the kit
 * must pass ({@link LegalBehaviours}), and the faults that complete the catalogue so that every
 * provider-checked MUST rule has one ({@link CatalogueGaps}), and the faults of the rules the page audit added
 * ({@link AuditFaults}), and the races of the concurrent calls ({@link ConcurrencyFaults}).
 */
public final class MisbehavingProviders implements NdkProviderSource {
    @Override
    public Collection<NdkProvider> providers() {
        List<NdkProvider> all = new ArrayList<>();
        all.addAll(Misbehaviours.providers());
        all.addAll(LegalBehaviours.providers());
        all.addAll(CatalogueGaps.providers());
        all.addAll(AuditFaults.providers());
        all.addAll(TransportFaults.providers());
        all.addAll(MisuseFaults.providers());
        all.addAll(DeferFaults.providers());
        all.addAll(LimitFaults.providers());
        all.addAll(SlowProviders.faults());
        all.addAll(ConcurrencyFaults.providers());
        all.addAll(ModelRaceFaults.providers());
        return all;
    }
}
