package org.ndktck.reference;

/**
 * Data-path piece {@code bounds}: whether an access of {@code length} bytes at {@code address} stays inside a
 * registration. Used for the target of NdkRead/NdkWrite (check {@code MR-REG-4}) and for local SGEs (check
 * {@code SGE-2/bounds}). The reference is byte-exact with unsigned arithmetic ({@link Pieces#BOUNDS}); faulty
 * variants grant whole pages, or treat Length 0 as "no bounds".
 */
@FunctionalInterface
public interface RegionBounds {
    /**
     * @param region  the registration
     * @param address first byte accessed (unsigned, absolute)
     * @param length  bytes accessed (unsigned)
     * @return true when the access is allowed by the region's bounds
     */
    boolean permits(RegionView region, long address, long length);
}
