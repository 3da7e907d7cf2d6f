package org.ndktck.tck.harness;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;
import org.ndktck.spec.NdkVersion;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Optional;

/**
 * Capability gating (design section 5): a rule's {@code requires} entries against the adapter's
 * NDK_ADAPTER_INFO. Entries are {@code ADAPTER_FLAG:<NAME>} (a constant of {@link NdkAdapterFlags}) and
 * {@code NDK_VERSION:<major.minor>} (the adapter's version must be at least that).
 */
public final class Capabilities {
    private Capabilities() {
    }

    /**
     * @param requires the rule's requirements
     * @param info     the adapter's info
     * @return empty when every requirement is met, else the reason the rule is NOT_APPLICABLE
     */
    public static Optional<String> missing(List<String> requires, NdkAdapterInfo info) {
        for (String r : requires) {
            int colon = r.indexOf(':');
            String kind = colon < 0 ? r : r.substring(0, colon);
            String value = colon < 0 ? "" : r.substring(colon + 1);
            switch (kind) {
                case "ADAPTER_FLAG" -> {
                    int flag = flagValue(value);
                    if ((info.adapterFlags() & flag) != flag) {
                        return Optional.of(String.format("the adapter does not set NDK_ADAPTER_FLAG_%s (0x%08X); AdapterFlags=0x%08X",
                                value, flag, info.adapterFlags()));
                    }
                }
                case "NDK_VERSION" -> {
                    NdkVersion need = NdkVersion.parse(value);
                    if (info.version() == null || !info.version().atLeast(need)) {
                        return Optional.of("the rule needs NDKPI " + need + " or later; the adapter reports " + info.version());
                    }
                }
                default -> throw new IllegalArgumentException("unknown requirement '" + r + "'");
            }
        }
        return Optional.empty();
    }

    /**
     * @param name a constant name of {@link NdkAdapterFlags}, e.g. RDMA_READ_SINK_NOT_REQUIRED
     * @return its value
     * @throws IllegalArgumentException for an unknown name
     */
    public static int flagValue(String name) {
        try {
            Field f = NdkAdapterFlags.class.getField(name);
            return f.getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("unknown adapter flag '" + name + "'");
        }
    }
}
