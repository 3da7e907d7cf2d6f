package org.ndktck.spec;

/**
 * The NDK_CQ_NOTIFY_* values that NdkArmCq takes (ULONG, carried in a Java int; values from ndkpi.h,
 * digest section 17). The SPI has no CQ notifications; the values are kept as facts so the spec holds
 * every constant of the memory-region pages (CQ-4, CQ-5).
 */
public final class NdkCqNotify {
    private NdkCqNotify() {
    }

    /** NDK_CQ_NOTIFY_ERRORS, 0: notify only on CQ errors. */
    public static final int ERRORS = 0;
    /** NDK_CQ_NOTIFY_ANY, 1: notify on any new completion. */
    public static final int ANY = 1;
    /** NDK_CQ_NOTIFY_SOLICITED, 2: notify on a solicited completion. */
    public static final int SOLICITED = 2;
}
