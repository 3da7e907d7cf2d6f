package org.ndktck.spec;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An NTSTATUS value: the 32-bit result code that every NDKPI call returns and every completion carries.
 *
 * <p>Shape: one 32-bit code. Java has no unsigned int, so the code travels in a signed {@code int}
 * holding the same bit pattern as the C {@code NTSTATUS}: {@code 0xC000000D} is the Java int
 * {@code -1073741811}. Read it with {@link #unsignedCode()} or print it with {@link #toString()},
 * which gives the name and the hex code, for example {@code STATUS_INVALID_PARAMETER (0xC000000D)}.
 *
 * <p>Severity follows ntstatus.h: the top two bits are the severity, so {@link #isSuccess()} is the
 * C macro {@code NT_SUCCESS} (signed code ≥ 0, which includes STATUS_PENDING and informational
 * codes) and {@link #isError()} is {@code NT_ERROR} (severity 3, codes 0xC0000000 and above).
 *
 * <p>The named constants are the values of the public ntstatus.h (digest section 17).
 *
 * @param code the 32-bit NTSTATUS bit pattern, carried in a signed Java int
 */
public record NtStatus(int code) {

    private static final Map<Integer, String> NAMES = new ConcurrentHashMap<>();

    /** STATUS_SUCCESS, 0x00000000: the call finished and succeeded. */
    public static final NtStatus STATUS_SUCCESS = named(0x00000000, "STATUS_SUCCESS");
    /** STATUS_PENDING, 0x00000103: the call will finish later, through its completion callback. */
    public static final NtStatus STATUS_PENDING = named(0x00000103, "STATUS_PENDING");
    /** STATUS_BUFFER_OVERFLOW, 0x80000005: a warning; for a CQ it signals an overrun (CQ-5). */
    public static final NtStatus STATUS_BUFFER_OVERFLOW = named(0x80000005, "STATUS_BUFFER_OVERFLOW");
    /** STATUS_ACCESS_VIOLATION, 0xC0000005: remote flags on an MR initialized without remote access (MR-FR-6). */
    public static final NtStatus STATUS_ACCESS_VIOLATION = named(0xC0000005, "STATUS_ACCESS_VIOLATION");
    /** STATUS_INVALID_PARAMETER, 0xC000000D: for example a non-contiguous MDL chain (MR-REG-2, LAM-2). */
    public static final NtStatus STATUS_INVALID_PARAMETER = named(0xC000000D, "STATUS_INVALID_PARAMETER");
    /** STATUS_BUFFER_TOO_SMALL, 0xC0000023: the LAM buffer is too small (LAM-3). */
    public static final NtStatus STATUS_BUFFER_TOO_SMALL = named(0xC0000023, "STATUS_BUFFER_TOO_SMALL");
    /** STATUS_INSUFFICIENT_RESOURCES, 0xC000009A: out of resources, inline or as a completion status (GEN-CB-5). */
    public static final NtStatus STATUS_INSUFFICIENT_RESOURCES = named(0xC000009A, "STATUS_INSUFFICIENT_RESOURCES");
    /** STATUS_INTERNAL_ERROR, 0xC00000E5: a fatal CQ error (CQ-5). */
    public static final NtStatus STATUS_INTERNAL_ERROR = named(0xC00000E5, "STATUS_INTERNAL_ERROR");
    /** STATUS_CANCELLED, 0xC0000120: a request flushed by NdkFlush or a close (FL-1, CL-5). */
    public static final NtStatus STATUS_CANCELLED = named(0xC0000120, "STATUS_CANCELLED");
    /** STATUS_REMOTE_RESOURCES, 0xC000013D: a read past the end of the remote memory (RW-3). */
    public static final NtStatus STATUS_REMOTE_RESOURCES = named(0xC000013D, "STATUS_REMOTE_RESOURCES");
    /** STATUS_CONNECTION_INVALID, 0xC000023A: a work request on an unconnected QP (MR-FR-7, INV-2, RW-2). */
    public static final NtStatus STATUS_CONNECTION_INVALID = named(0xC000023A, "STATUS_CONNECTION_INVALID");
    /** STATUS_IMPLEMENTATION_LIMIT, 0xC000042B: AdapterPageCount beyond what the adapter can do (MR-FRI-3). */
    public static final NtStatus STATUS_IMPLEMENTATION_LIMIT = named(0xC000042B, "STATUS_IMPLEMENTATION_LIMIT");

    private static NtStatus named(int code, String name) {
        NAMES.put(code, name);
        return new NtStatus(code);
    }

    /**
     * The status for a 32-bit code.
     *
     * @param code the NTSTATUS bit pattern; any int is accepted (unknown codes print as hex)
     * @return the status value
     */
    public static NtStatus of(int code) {
        return new NtStatus(code);
    }

    /** @return the code as an unsigned value in 0..0xFFFFFFFF */
    public long unsignedCode() {
        return Integer.toUnsignedLong(code);
    }

    /** @return true for {@code NT_SUCCESS(code)}: the signed code is ≥ 0 (success, pending, informational) */
    public boolean isSuccess() {
        return code >= 0;
    }

    /** @return true for {@code NT_ERROR(code)}: severity bits 11, codes 0xC0000000 to 0xFFFFFFFF */
    public boolean isError() {
        return (code >>> 30) == 3;
    }

    /** @return true for exactly STATUS_PENDING */
    public boolean isPending() {
        return code == STATUS_PENDING.code;
    }

    /** @return the constant's name such as {@code STATUS_CANCELLED}, or empty for a code without a name here */
    public String name() {
        return NAMES.getOrDefault(code, "");
    }

    /** @return the name and the code, e.g. {@code STATUS_INVALID_PARAMETER (0xC000000D)}, or just the hex code */
    @Override
    public String toString() {
        String hex = String.format("0x%08X", code);
        String name = name();
        return name.isEmpty() ? hex : name + " (" + hex + ")";
    }
}
