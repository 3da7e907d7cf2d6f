package org.ndktck.reference;

/**
 * Data-path piece {@code addressing}: which byte of a registration an address names. The reference uses
 * absolute addresses: byte {@code address - base} (MR-REG-4, MR-FR-10; zero-based addressing is not
 * supported). A faulty variant also accepts offsets (zero-based addressing); it must then widen
 * {@link RegionBounds} as well, since bounds are checked on the address.
 */
@FunctionalInterface
public interface RegionAddressing {
    /**
     * @param region  the registration
     * @param address the address a request names (unsigned)
     * @return the byte offset into the region (unsigned; an offset no frame backs makes the access fail)
     */
    long offsetOf(RegionView region, long address);
}
