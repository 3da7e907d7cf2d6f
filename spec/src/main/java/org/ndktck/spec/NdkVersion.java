package org.ndktck.spec;

/**
 * NDK_VERSION {USHORT Major; USHORT Minor}. Each USHORT is carried in a Java int in 0..65535.
 *
 * @param major the major version (1 for every NDKPI so far)
 * @param minor the minor version (1 for NDKPI 1.1, 2 for NDKPI 1.2)
 */
public record NdkVersion(int major, int minor) implements Comparable<NdkVersion> {
    /** NDKPI 1.1 (Windows Server 2012). */
    public static final NdkVersion V1_1 = new NdkVersion(1, 1);
    /** NDKPI 1.2 (Windows Server 2012 R2): adds NDK_OP_FLAG_DEFER and RDMA_READ_LOCAL_INVALIDATE. */
    public static final NdkVersion V1_2 = new NdkVersion(1, 2);

    /**
     * @throws IllegalArgumentException when a part is outside 0..65535
     */
    public NdkVersion {
        if (major < 0 || major > 0xFFFF || minor < 0 || minor > 0xFFFF) {
            throw new IllegalArgumentException("NDK_VERSION parts are USHORT: " + major + "." + minor);
        }
    }

    /**
     * Parses "1.2".
     *
     * @param text "MAJOR.MINOR"
     * @return the version
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static NdkVersion parse(String text) {
        String[] parts = text.trim().split("\\.");
        if (parts.length != 2) {
            throw new IllegalArgumentException("expected MAJOR.MINOR, got '" + text + "'");
        }
        try {
            return new NdkVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected MAJOR.MINOR, got '" + text + "'");
        }
    }

    /** @return true when this version is at least {@code other} */
    public boolean atLeast(NdkVersion other) {
        return compareTo(other) >= 0;
    }

    @Override
    public int compareTo(NdkVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
