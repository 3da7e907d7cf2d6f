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
 * <p>The named constants are the values of the public ntstatus.h (digest section 17): those the NDKPI pages
 * list, and the common codes a provider may return otherwise, so that every message prints them by name.
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

    /** STATUS_TIMEOUT, 0x00000102: a success code (NT_SUCCESS) that some waits return; never a completion status the pages list. */
    public static final NtStatus STATUS_TIMEOUT = named(0x00000102, "STATUS_TIMEOUT");
    /** STATUS_DEVICE_BUSY, 0x80000011: a warning (not NT_SUCCESS, not NT_ERROR). */
    public static final NtStatus STATUS_DEVICE_BUSY = named(0x80000011, "STATUS_DEVICE_BUSY");
    /** STATUS_UNSUCCESSFUL, 0xC0000001: a generic failure. */
    public static final NtStatus STATUS_UNSUCCESSFUL = named(0xC0000001, "STATUS_UNSUCCESSFUL");
    /** STATUS_NOT_IMPLEMENTED, 0xC0000002: the call is not implemented (what a provider skeleton of {@code ndk-tck init} returns). */
    public static final NtStatus STATUS_NOT_IMPLEMENTED = named(0xC0000002, "STATUS_NOT_IMPLEMENTED");
    /** STATUS_INVALID_HANDLE, 0xC0000008. */
    public static final NtStatus STATUS_INVALID_HANDLE = named(0xC0000008, "STATUS_INVALID_HANDLE");
    /** STATUS_INVALID_DEVICE_REQUEST, 0xC0000010. */
    public static final NtStatus STATUS_INVALID_DEVICE_REQUEST = named(0xC0000010, "STATUS_INVALID_DEVICE_REQUEST");
    /** STATUS_NO_MEMORY, 0xC0000017. */
    public static final NtStatus STATUS_NO_MEMORY = named(0xC0000017, "STATUS_NO_MEMORY");
    /** STATUS_DATA_ERROR, 0xC000003E. */
    public static final NtStatus STATUS_DATA_ERROR = named(0xC000003E, "STATUS_DATA_ERROR");
    /** STATUS_DEVICE_NOT_READY, 0xC00000A3. */
    public static final NtStatus STATUS_DEVICE_NOT_READY = named(0xC00000A3, "STATUS_DEVICE_NOT_READY");
    /** STATUS_IO_TIMEOUT, 0xC00000B5. */
    public static final NtStatus STATUS_IO_TIMEOUT = named(0xC00000B5, "STATUS_IO_TIMEOUT");
    /** STATUS_NOT_SUPPORTED, 0xC00000BB: the request is not supported. */
    public static final NtStatus STATUS_NOT_SUPPORTED = named(0xC00000BB, "STATUS_NOT_SUPPORTED");
    /** STATUS_INVALID_ADDRESS, 0xC0000141. */
    public static final NtStatus STATUS_INVALID_ADDRESS = named(0xC0000141, "STATUS_INVALID_ADDRESS");
    /** STATUS_INVALID_DEVICE_STATE, 0xC0000184: the object is not in a state the call accepts. */
    public static final NtStatus STATUS_INVALID_DEVICE_STATE = named(0xC0000184, "STATUS_INVALID_DEVICE_STATE");
    /** STATUS_IO_DEVICE_ERROR, 0xC0000185. */
    public static final NtStatus STATUS_IO_DEVICE_ERROR = named(0xC0000185, "STATUS_IO_DEVICE_ERROR");
    /** STATUS_INVALID_BUFFER_SIZE, 0xC0000206. */
    public static final NtStatus STATUS_INVALID_BUFFER_SIZE = named(0xC0000206, "STATUS_INVALID_BUFFER_SIZE");
    /** STATUS_CONNECTION_DISCONNECTED, 0xC000020C. */
    public static final NtStatus STATUS_CONNECTION_DISCONNECTED = named(0xC000020C, "STATUS_CONNECTION_DISCONNECTED");
    /** STATUS_CONNECTION_RESET, 0xC000020D. */
    public static final NtStatus STATUS_CONNECTION_RESET = named(0xC000020D, "STATUS_CONNECTION_RESET");
    /** STATUS_CONNECTION_REFUSED, 0xC0000236. */
    public static final NtStatus STATUS_CONNECTION_REFUSED = named(0xC0000236, "STATUS_CONNECTION_REFUSED");
    /** STATUS_REQUEST_ABORTED, 0xC0000240. */
    public static final NtStatus STATUS_REQUEST_ABORTED = named(0xC0000240, "STATUS_REQUEST_ABORTED");
    /** STATUS_CONNECTION_ABORTED, 0xC0000241: a connection ended by an error (for example after an invalid SendAndInvalidate token, INV-6). */
    public static final NtStatus STATUS_CONNECTION_ABORTED = named(0xC0000241, "STATUS_CONNECTION_ABORTED");

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
