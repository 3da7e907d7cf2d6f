package org.ndktck.tck.runner;

import org.ndktck.spec.NdkAdapterFlags;
import org.ndktck.spec.NdkAdapterInfo;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** NDK_ADAPTER_INFO for the report and the console: unsigned fields as unsigned numbers, flags by name. */
public final class AdapterInfoView {
    private AdapterInfoView() {
    }

    /**
     * @param info the adapter info
     * @return its fields: {@code version} as "1.2", ULONG and SIZE_T fields as unsigned numbers,
     *     {@code adapterFlagsHex} and {@code adapterFlagNames}
     */
    public static Map<String, Object> toMap(NdkAdapterInfo info) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", String.valueOf(info.version()));
        m.put("adapterFlags", Integer.toUnsignedLong(info.adapterFlags()));
        m.put("adapterFlagsHex", String.format("0x%08X", info.adapterFlags()));
        m.put("adapterFlagNames", flagNames(info.adapterFlags()));
        m.put("frmrPageCount", Integer.toUnsignedLong(info.frmrPageCount()));
        m.put("maxRegistrationSize", new BigInteger(Long.toUnsignedString(info.maxRegistrationSize())));
        m.put("maxWindowSize", new BigInteger(Long.toUnsignedString(info.maxWindowSize())));
        m.put("maxInitiatorRequestSge", Integer.toUnsignedLong(info.maxInitiatorRequestSge()));
        m.put("maxReceiveRequestSge", Integer.toUnsignedLong(info.maxReceiveRequestSge()));
        m.put("maxReadRequestSge", Integer.toUnsignedLong(info.maxReadRequestSge()));
        m.put("maxTransferLength", Integer.toUnsignedLong(info.maxTransferLength()));
        m.put("maxInlineDataSize", Integer.toUnsignedLong(info.maxInlineDataSize()));
        m.put("maxInboundReadLimit", Integer.toUnsignedLong(info.maxInboundReadLimit()));
        m.put("maxOutboundReadLimit", Integer.toUnsignedLong(info.maxOutboundReadLimit()));
        m.put("maxReceiveQueueDepth", Integer.toUnsignedLong(info.maxReceiveQueueDepth()));
        m.put("maxInitiatorQueueDepth", Integer.toUnsignedLong(info.maxInitiatorQueueDepth()));
        m.put("maxCqDepth", Integer.toUnsignedLong(info.maxCqDepth()));
        return m;
    }

    /**
     * @param flags AdapterFlags
     * @return the NDK_ADAPTER_FLAG_* names set in it (unknown bits as hex)
     */
    public static List<String> flagNames(int flags) {
        List<String> names = new ArrayList<>();
        int known = 0;
        for (Field f : NdkAdapterFlags.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                try {
                    int v = f.getInt(null);
                    known |= v;
                    if ((flags & v) == v && v != 0) {
                        names.add(f.getName());
                    }
                } catch (IllegalAccessException ignored) {
                    // public constants only
                }
            }
        }
        if ((flags & ~known) != 0) {
            names.add(String.format("0x%08X", flags & ~known));
        }
        return names;
    }

    /**
     * @param info the adapter info
     * @return one line for the console
     */
    public static String line(NdkAdapterInfo info) {
        return "NDKPI " + info.version() + ", AdapterFlags " + String.format("0x%08X", info.adapterFlags())
                + " " + flagNames(info.adapterFlags()) + ", FRMRPageCount " + Integer.toUnsignedString(info.frmrPageCount())
                + ", MaxRegistrationSize 0x" + Long.toHexString(info.maxRegistrationSize());
    }
}
