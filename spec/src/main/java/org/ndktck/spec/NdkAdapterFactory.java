package org.ndktck.spec;

import java.util.Map;

/**
 * A provider configured with validated settings: it tells the kit its PAGE_SIZE, so the kit can build
 * {@link HostMemory} to match, and opens adapters over that memory. The kit opens a fresh adapter
 * whenever it needs isolation (typically once per try), so opening must be cheap.
 */
public interface NdkAdapterFactory {
    /** @return PAGE_SIZE of the adapters this factory opens, in bytes (power of two, ≥ 4096) */
    int pageSize();

    /**
     * @return every setting with the value in effect, defaults included, for the report
     */
    Map<String, String> effectiveSettings();

    /**
     * Opens an adapter (NdkOpenAdapter) over the given host memory.
     *
     * @param memory host memory whose page size is {@link #pageSize()}
     * @return a new adapter; the caller closes it
     */
    NdkAdapter openAdapter(HostMemory memory);
}
