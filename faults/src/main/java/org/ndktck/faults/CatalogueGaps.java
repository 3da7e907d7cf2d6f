package org.ndktck.faults;

import java.util.List;

import org.ndktck.spec.NdkProvider;

/**
 * Faults that complete the catalogue (issue 6): one for each provider-checked MUST / MUST NOT rule that no
 * other fault source covers. Each replaces one piece of the reference model or wraps its objects.
 */
public final class CatalogueGaps {
    private CatalogueGaps() {
    }

    /** @return the providers */
    public static List<NdkProvider> providers() {
        return List.of();
    }
}
