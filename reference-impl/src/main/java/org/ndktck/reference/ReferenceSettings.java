package org.ndktck.reference;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.ndktck.spec.InvalidSettingException;
import org.ndktck.spec.NdkVersion;

/**
 * The validated settings of the reference provider ({@code --set KEY=VALUE}). Every key has a default;
 * an unknown key or a value outside what the key allows is an {@link InvalidSettingException} whose one-line
 * message names the key, the value and what is allowed. A setting is never silently replaced by a default.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>values</th><th>default</th></tr>
 * <tr><td>{@code completion}</td><td>{@code inline} (every call finishes before it returns), {@code pending}
 *     (every call that may pend returns STATUS_PENDING and completes on another thread; work requests are
 *     processed on a worker thread), {@code mixed} (chosen per call from a PRNG seeded with {@code seed})</td>
 *     <td>{@code inline}</td></tr>
 * <tr><td>{@code readSinkNotRequired}</td><td>{@code true}/{@code false}: sets
 *     NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED</td><td>{@code true}</td></tr>
 * <tr><td>{@code ndkVersion}</td><td>{@code 1.1} or {@code 1.2} (1.2 adds DEFER and
 *     RDMA_READ_LOCAL_INVALIDATE)</td><td>{@code 1.2}</td></tr>
 * <tr><td>{@code pageSize}</td><td>PAGE_SIZE in bytes, a power of two from 4096 to 2^30</td><td>4096</td></tr>
 * <tr><td>{@code frmrPageCount}</td><td>FRMRPageCount, pages, 16 to 4294967295 (unsigned ULONG)</td>
 *     <td>1048576 (2^20)</td></tr>
 * <tr><td>{@code maxRegistrationSize}</td><td>MaxRegistrationSize in bytes, 1 to 2^64 - 1 (unsigned SIZE_T;
 *     decimal or 0x hex)</td><td>2^40</td></tr>
 * <tr><td>{@code maxObjects}</td><td>live PD, CQ, MR and QP objects per adapter, 1 to 2^31 - 1; one more
 *     gives STATUS_INSUFFICIENT_RESOURCES</td><td>65536</td></tr>
 * <tr><td>{@code seed}</td><td>a signed 64-bit integer (decimal or 0x hex) for {@code mixed} and token
 *     scrambling</td><td>0</td></tr>
 * <tr><td>{@code transport}</td><td>{@code infiniband}, {@code roce}, {@code rocev2} (a send whose peer has no receive
 *     posted waits for one) or {@code iwarp} (such a send ends the connection: it completes with
 *     STATUS_CONNECTION_ABORTED and both QPs' other requests are flushed); reported as NDK_ADAPTER_INFO.RdmaTechnology
 *     ({@link org.ndktck.spec.NdkAdapter#rdmaTechnology()})</td><td>{@code infiniband}</td></tr>
 * </table>
 *
 * @param completion          how calls complete
 * @param readSinkNotRequired whether the adapter sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED
 * @param ndkVersion          NDKPI version: 1.1 or 1.2
 * @param pageSize            PAGE_SIZE in bytes
 * @param frmrPageCount       FRMRPageCount, pages (ULONG in an int, unsigned)
 * @param maxRegistrationSize MaxRegistrationSize, bytes (SIZE_T in a long, unsigned)
 * @param maxObjects          the object budget per adapter
 * @param seed                PRNG seed
 * @param maxSge              MaxInitiatorRequestSge, MaxReceiveRequestSge and MaxReadRequestSge (1 to {@value #MAX_MAX_SGE})
 * @param transport           the RdmaTechnology the adapter reports (IWARP, INFINIBAND, ROCE or ROCE_V2)
 */
public record ReferenceSettings(Completion completion, boolean readSinkNotRequired, NdkVersion ndkVersion,
                                int pageSize, int frmrPageCount, long maxRegistrationSize, int maxObjects,
                                long seed, int maxSge, org.ndktck.spec.NdkRdmaTechnology transport) {

    /**
     * The settings over InfiniBand (the constructor of the keys before {@code transport}).
     *
     * @param completion          how calls complete
     * @param readSinkNotRequired whether the adapter sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED
     * @param ndkVersion          NDKPI version: 1.1 or 1.2
     * @param pageSize            PAGE_SIZE in bytes
     * @param frmrPageCount       FRMRPageCount, pages (ULONG in an int, unsigned)
     * @param maxRegistrationSize MaxRegistrationSize, bytes (SIZE_T in a long, unsigned)
     * @param maxObjects          the object budget per adapter
     * @param seed                PRNG seed
     * @param maxSge              the SGE limits
     */
    public ReferenceSettings(Completion completion, boolean readSinkNotRequired, NdkVersion ndkVersion, int pageSize,
                             int frmrPageCount, long maxRegistrationSize, int maxObjects, long seed, int maxSge) {
        this(completion, readSinkNotRequired, ndkVersion, pageSize, frmrPageCount, maxRegistrationSize, maxObjects, seed,
                maxSge, org.ndktck.spec.NdkRdmaTechnology.INFINIBAND);
    }

    /** How the adapter finishes calls that may pend. */
    public enum Completion {
        /** Every call finishes before it returns; no completion callback is ever called (except CL-6 closes). */
        INLINE,
        /** Every call that may pend returns STATUS_PENDING; work requests are processed on a worker thread. */
        PENDING,
        /** Inline or pending, chosen per call from a PRNG seeded with {@code seed}. */
        MIXED
    }

    /** Setting key: completion style. */
    public static final String COMPLETION = "completion";
    /** Setting key: NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED. */
    public static final String READ_SINK_NOT_REQUIRED = "readSinkNotRequired";
    /** Setting key: NDKPI version. */
    public static final String NDK_VERSION = "ndkVersion";
    /** Setting key: PAGE_SIZE. */
    public static final String PAGE_SIZE = "pageSize";
    /** Setting key: FRMRPageCount. */
    public static final String FRMR_PAGE_COUNT = "frmrPageCount";
    /** Setting key: MaxRegistrationSize. */
    public static final String MAX_REGISTRATION_SIZE = "maxRegistrationSize";
    /** Setting key: object budget. */
    public static final String MAX_OBJECTS = "maxObjects";
    /** Setting key: PRNG seed. */
    public static final String SEED = "seed";
    /** Setting key: the SGE limits of NDK_ADAPTER_INFO (MaxInitiatorRequestSge, MaxReceiveRequestSge, MaxReadRequestSge). */
    public static final String MAX_SGE = "maxSge";
    /** Setting key: the transport the adapter reports (NDK_ADAPTER_INFO.RdmaTechnology). */
    public static final String TRANSPORT = "transport";
    /** The largest {@code maxSge}: 1024 SGEs a request. */
    public static final int MAX_MAX_SGE = 1024;

    /** The defaults: inline, READ_SINK not required, NDKPI 1.2, 4096-byte pages, 2^20 FRMR pages, 2^40 bytes. */
    public static final ReferenceSettings DEFAULTS = new ReferenceSettings(Completion.INLINE, true,
            NdkVersion.V1_2, 4096, 1 << 20, 1L << 40, 65536, 0L, 16);

    /**
     * The settings with the default SGE limits (16): the constructor of the keys before {@code maxSge}.
     *
     * @param completion          how calls complete
     * @param readSinkNotRequired whether the adapter sets NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED
     * @param ndkVersion          NDKPI version: 1.1 or 1.2
     * @param pageSize            PAGE_SIZE in bytes
     * @param frmrPageCount       FRMRPageCount, pages (ULONG in an int, unsigned)
     * @param maxRegistrationSize MaxRegistrationSize, bytes (SIZE_T in a long, unsigned)
     * @param maxObjects          the object budget per adapter
     * @param seed                PRNG seed
     */
    public ReferenceSettings(Completion completion, boolean readSinkNotRequired, NdkVersion ndkVersion, int pageSize,
                             int frmrPageCount, long maxRegistrationSize, int maxObjects, long seed) {
        this(completion, readSinkNotRequired, ndkVersion, pageSize, frmrPageCount, maxRegistrationSize, maxObjects, seed, 16);
    }

    /**
     * @throws NullPointerException when {@code completion} or {@code ndkVersion} is null
     * @throws InvalidSettingException when a value is outside its documented range
     */
    public ReferenceSettings {
        Objects.requireNonNull(completion, "completion");
        Objects.requireNonNull(ndkVersion, "ndkVersion");
        Objects.requireNonNull(transport, "transport");
        if (!ndkVersion.equals(NdkVersion.V1_1) && !ndkVersion.equals(NdkVersion.V1_2)) {
            throw invalid(NDK_VERSION, ndkVersion.toString(), "1.1 or 1.2");
        }
        if (pageSize < 4096 || pageSize > (1 << 30) || Integer.bitCount(pageSize) != 1) {
            throw invalid(PAGE_SIZE, Integer.toString(pageSize), "a power of two from 4096 to 1073741824");
        }
        if (Integer.compareUnsigned(frmrPageCount, 16) < 0) {
            throw invalid(FRMR_PAGE_COUNT, Integer.toUnsignedString(frmrPageCount),
                    "an integer from 16 to 4294967295 (FRMRPageCount is at least 16, AI-1)");
        }
        if (maxRegistrationSize == 0) {
            throw invalid(MAX_REGISTRATION_SIZE, "0", "an integer from 1 to 18446744073709551615 bytes");
        }
        if (maxObjects < 1) {
            throw invalid(MAX_OBJECTS, Integer.toString(maxObjects), "an integer from 1 to 2147483647");
        }
        if (maxSge < 1 || maxSge > MAX_MAX_SGE) {
            throw invalid(MAX_SGE, Integer.toString(maxSge), "an integer from 1 to " + MAX_MAX_SGE);
        }
    }

    /** @return the settings descriptions for {@code --help} and {@code NdkProvider.settingDescriptions()} */
    public static Map<String, String> descriptions() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(COMPLETION, "inline|pending|mixed: how calls complete (mixed: per call from seed); default inline");
        d.put(READ_SINK_NOT_REQUIRED, "true|false: NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED; default true");
        d.put(NDK_VERSION, "1.1|1.2: NDKPI version (1.2 adds DEFER, RDMA_READ_LOCAL_INVALIDATE); default 1.2");
        d.put(PAGE_SIZE, "PAGE_SIZE in bytes, a power of two >= 4096; default 4096");
        d.put(FRMR_PAGE_COUNT, "FRMRPageCount in pages, 16..4294967295; default 1048576");
        d.put(MAX_REGISTRATION_SIZE, "MaxRegistrationSize in bytes, 1..2^64-1; default 1099511627776 (2^40)");
        d.put(MAX_OBJECTS, "live PD/CQ/MR/QP objects per adapter, 1..2^31-1; default 65536");
        d.put(MAX_SGE, "MaxInitiatorRequestSge, MaxReceiveRequestSge and MaxReadRequestSge, 1..1024; default 16");
        d.put(SEED, "64-bit seed for completion=mixed and token scrambling; default 0");
        d.put(TRANSPORT, "infiniband|roce|rocev2|iwarp: NDK_ADAPTER_INFO.RdmaTechnology; iwarp: a send with no receive "
                + "posted at the peer ends the connection; default infiniband");
        return d;
    }

    /**
     * Parses {@code key=value} settings over the defaults.
     *
     * @param settings the settings; keys are case-sensitive, values are trimmed
     * @return the validated settings
     * @throws NullPointerException    when {@code settings} is null
     * @throws InvalidSettingException for an unknown key, a null value or a value the key does not allow
     */
    public static ReferenceSettings parse(Map<String, String> settings) {
        Objects.requireNonNull(settings, "settings");
        ReferenceSettings d = DEFAULTS;
        Completion completion = d.completion;
        boolean readSinkNotRequired = d.readSinkNotRequired;
        NdkVersion version = d.ndkVersion;
        int pageSize = d.pageSize;
        int frmrPageCount = d.frmrPageCount;
        long maxRegistrationSize = d.maxRegistrationSize;
        int maxObjects = d.maxObjects;
        long seed = d.seed;
        int maxSge = d.maxSge;
        org.ndktck.spec.NdkRdmaTechnology transport = d.transport;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            String key = e.getKey();
            String raw = e.getValue();
            if (key == null) {
                throw new InvalidSettingException("setting with no key (value '" + raw + "'): known settings are "
                        + String.join(", ", descriptions().keySet()));
            }
            if (raw == null) {
                throw new InvalidSettingException("setting " + key + " has no value; " + key + ": " + describe(key));
            }
            String value = raw.trim();
            switch (key) {
                case COMPLETION -> completion = switch (value.toLowerCase(Locale.ROOT)) {
                    case "inline" -> Completion.INLINE;
                    case "pending" -> Completion.PENDING;
                    case "mixed" -> Completion.MIXED;
                    default -> throw invalid(key, raw, "inline, pending or mixed");
                };
                case READ_SINK_NOT_REQUIRED -> readSinkNotRequired = switch (value.toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw invalid(key, raw, "true or false");
                };
                case NDK_VERSION -> version = switch (value) {
                    case "1.1" -> NdkVersion.V1_1;
                    case "1.2" -> NdkVersion.V1_2;
                    default -> throw invalid(key, raw, "1.1 or 1.2");
                };
                case PAGE_SIZE -> {
                    long v = parseUnsigned(key, raw, value, "a power of two from 4096 to 1073741824");
                    if (v < 4096 || v > (1L << 30) || Long.bitCount(v) != 1) {
                        throw invalid(key, raw, "a power of two from 4096 to 1073741824");
                    }
                    pageSize = (int) v;
                }
                case FRMR_PAGE_COUNT -> {
                    String allowed = "an integer from 16 to 4294967295 (FRMRPageCount is at least 16, AI-1)";
                    long v = parseUnsigned(key, raw, value, allowed);
                    if (v < 16 || v > 0xFFFF_FFFFL) {
                        throw invalid(key, raw, allowed);
                    }
                    frmrPageCount = (int) v;
                }
                case MAX_REGISTRATION_SIZE -> {
                    String allowed = "an integer from 1 to 18446744073709551615 bytes";
                    long v = parseUnsigned(key, raw, value, allowed);
                    if (v == 0) {
                        throw invalid(key, raw, allowed);
                    }
                    maxRegistrationSize = v;
                }
                case MAX_OBJECTS -> {
                    String allowed = "an integer from 1 to 2147483647";
                    long v = parseUnsigned(key, raw, value, allowed);
                    if (v < 1 || v > Integer.MAX_VALUE) {
                        throw invalid(key, raw, allowed);
                    }
                    maxObjects = (int) v;
                }
                case SEED -> seed = parseSigned(key, raw, value);
                case MAX_SGE -> {
                    String allowed = "an integer from 1 to " + MAX_MAX_SGE;
                    long v = parseUnsigned(key, raw, value, allowed);
                    if (v < 1 || v > MAX_MAX_SGE) {
                        throw invalid(key, raw, allowed);
                    }
                    maxSge = (int) v;
                }
                case TRANSPORT -> transport = switch (value.toLowerCase(Locale.ROOT)) {
                    case "infiniband" -> org.ndktck.spec.NdkRdmaTechnology.INFINIBAND;
                    case "roce" -> org.ndktck.spec.NdkRdmaTechnology.ROCE;
                    case "rocev2" -> org.ndktck.spec.NdkRdmaTechnology.ROCE_V2;
                    case "iwarp" -> org.ndktck.spec.NdkRdmaTechnology.IWARP;
                    default -> throw invalid(key, raw, "infiniband, roce, rocev2 or iwarp");
                };
                default -> throw new InvalidSettingException("unknown setting " + key + "=" + raw
                        + ": known settings are " + String.join(", ", descriptions().keySet()));
            }
        }
        return new ReferenceSettings(completion, readSinkNotRequired, version, pageSize, frmrPageCount,
                maxRegistrationSize, maxObjects, seed, maxSge, transport);
    }

    /** @return every setting with the value in effect, in the order of {@link #descriptions()} */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(COMPLETION, completion.name().toLowerCase(Locale.ROOT));
        m.put(READ_SINK_NOT_REQUIRED, Boolean.toString(readSinkNotRequired));
        m.put(NDK_VERSION, ndkVersion.toString());
        m.put(PAGE_SIZE, Integer.toString(pageSize));
        m.put(FRMR_PAGE_COUNT, Integer.toUnsignedString(frmrPageCount));
        m.put(MAX_REGISTRATION_SIZE, Long.toUnsignedString(maxRegistrationSize));
        m.put(MAX_OBJECTS, Integer.toString(maxObjects));
        m.put(MAX_SGE, Integer.toString(maxSge));
        m.put(SEED, Long.toString(seed));
        m.put(TRANSPORT, transport == org.ndktck.spec.NdkRdmaTechnology.ROCE_V2 ? "rocev2"
                : transport.name().toLowerCase(Locale.ROOT));
        return m;
    }

    /** @return FRMRPageCount as an unsigned value */
    public long unsignedFrmrPageCount() {
        return Integer.toUnsignedLong(frmrPageCount);
    }

    private static String describe(String key) {
        return descriptions().getOrDefault(key, "unknown");
    }

    private static InvalidSettingException invalid(String key, String value, String allowed) {
        return new InvalidSettingException("invalid setting " + key + "=" + value + ": allowed is " + allowed);
    }

    private static long parseUnsigned(String key, String raw, String value, String allowed) {
        try {
            if (value.startsWith("0x") || value.startsWith("0X")) {
                return Long.parseUnsignedLong(value.substring(2), 16);
            }
            return Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw invalid(key, raw, allowed);
        }
    }

    private static long parseSigned(String key, String raw, String value) {
        try {
            if (value.startsWith("0x") || value.startsWith("0X")) {
                return Long.parseUnsignedLong(value.substring(2), 16);
            }
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw invalid(key, raw, "a signed 64-bit integer (decimal, or 0x followed by up to 16 hex digits)");
        }
    }
}
