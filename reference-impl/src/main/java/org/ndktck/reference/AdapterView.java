package org.ndktck.reference;

import org.ndktck.spec.NdkVersion;

/**
 * What a {@link RuleCheck} may know about the adapter a request was made on. Read-only; the model
 * implements it.
 */
public interface AdapterView {
    /** @return the adapter's validated settings */
    ReferenceSettings settings();

    /** @return PAGE_SIZE in bytes (a power of two, 4096 by default: the {@code pageSize} setting) */
    int pageSize();

    /** @return the NDKPI version the adapter implements */
    default NdkVersion ndkVersion() {
        return settings().ndkVersion();
    }

    /** @return NDK_ADAPTER_INFO.AdapterFlags */
    int adapterFlags();

    /** @return true when every bit of {@code flag} is set in AdapterFlags */
    default boolean hasAdapterFlag(int flag) {
        return (adapterFlags() & flag) == flag;
    }
}
