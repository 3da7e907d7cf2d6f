package org.ndktck.spec;

import java.util.Collection;

/**
 * A family of providers registered at once through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.ndktck.spec.NdkProviderSource}), such as the catalogue of faulty providers
 * named {@code fault:RULE-ID}.
 */
public interface NdkProviderSource {
    /** @return the providers of this family, each with a unique {@link NdkProvider#name()} */
    Collection<NdkProvider> providers();
}
