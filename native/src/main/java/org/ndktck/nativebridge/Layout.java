package org.ndktck.nativebridge;

/**
 * Byte offsets and sizes of the structures of {@code native/include/ndk_tck_provider.h} on an LP64 host
 * (x86-64 or arm64 Linux: pointers, SIZE_T and ULONG_PTR 8 bytes, ULONG 4 bytes). The header pins the same
 * numbers with static assertions, so a library built against it agrees with the bridge.
 */
final class Layout {
    private Layout() {
    }

    /** Size of a pointer, SIZE_T and ULONG_PTR in bytes. */
    static final int POINTER = 8;

    /** NDK_OBJECT_HEADER: Version.Major (USHORT) at 0, Version.Minor at 2, ObjectType (enum, 4 bytes) at 4, reserved block to 40. */
    static final int HEADER_MAJOR = 0;
    static final int HEADER_MINOR = 2;
    static final int HEADER_OBJECT_TYPE = 4;
    /** Offset of {@code Dispatch} in every NDK object: right after the 40-byte header. */
    static final int OBJECT_DISPATCH = 40;

    /** NDK_ADAPTER_DISPATCH member indexes (8 bytes each). */
    static final int ADAPTER_CLOSE = 0;
    static final int ADAPTER_QUERY_INFO = 1;
    static final int ADAPTER_CREATE_CQ = 2;
    static final int ADAPTER_CREATE_PD = 3;
    static final int ADAPTER_BUILD_LAM = 4;
    static final int ADAPTER_RELEASE_LAM = 5;
    static final int ADAPTER_CONNECT_LOOPBACK = 6;

    /** NDK_PD_DISPATCH member indexes. */
    static final int PD_CLOSE = 0;
    static final int PD_CREATE_QP = 1;
    static final int PD_CREATE_MR = 2;
    static final int PD_PRIVILEGED_TOKEN = 3;

    /** NDK_MR_DISPATCH member indexes. */
    static final int MR_CLOSE = 0;
    static final int MR_INITIALIZE_FAST_REGISTER = 1;
    static final int MR_REGISTER = 2;
    static final int MR_DEREGISTER = 3;
    static final int MR_LOCAL_TOKEN = 4;
    static final int MR_REMOTE_TOKEN = 5;

    /** NDK_CQ_DISPATCH member indexes. */
    static final int CQ_CLOSE = 0;
    static final int CQ_GET_RESULTS = 1;
    static final int CQ_GET_RESULTS_EX = 2;

    /** NDK_QP_DISPATCH member indexes. */
    static final int QP_CLOSE = 0;
    static final int QP_FLUSH = 1;
    static final int QP_SEND = 2;
    static final int QP_RECEIVE = 3;
    static final int QP_FAST_REGISTER = 4;
    static final int QP_INVALIDATE = 5;
    static final int QP_READ = 6;
    static final int QP_WRITE = 7;
    static final int QP_SEND_AND_INVALIDATE = 8;

    /** NDK_SGE: address (8) at 0, Length (ULONG) at 8, MemoryRegionToken (UINT32) at 12; 16 bytes. */
    static final int SGE_SIZE = 16;
    /** NDK_RESULT: Status 0, BytesTransferred 4, QPContext 8, RequestContext 16; 24 bytes. */
    static final int RESULT_SIZE = 24;
    /** NDK_RESULT_EX: NDK_RESULT, then Type (enum) at 24, TypeSpecificCompletionOutput at 32; 40 bytes. */
    static final int RESULT_EX_SIZE = 40;
    /** NDK_LOGICAL_ADDRESS_MAPPING: AdapterContext 0, AdapterPageCount 8, AdapterPageArray from 16. */
    static final int LAM_PAGE_COUNT = 8;
    static final int LAM_PAGES = 16;
    /** NDK_ADAPTER_INFO: 104 bytes (offsets in {@link NativeAdapter#queryAdapterInfo()}). */
    static final int ADAPTER_INFO_SIZE = 104;
    /** NDK_ADAPTER_INFO.RdmaTechnology: the NDK_RDMA_TECHNOLOGY (a 4-byte C enum) at this offset. */
    static final int ADAPTER_INFO_RDMA_TECHNOLOGY = 96;
    /** NDK_TCK_MDL: Next 0, StartVa 8, ByteCount 16, ByteOffset 20, PfnCount 24, Reserved 28, PfnArray from 32. */
    static final int MDL_HEADER = 32;
    /** NDK_TCK_HOST: HeaderVersion 0, PageSize 4, HostContext 8, ReadFrame 16, WriteFrame 24; 32 bytes. */
    static final int HOST_SIZE = 32;
    /** NDK_TCK_SETTING: Key 0, Value 8; 16 bytes. */
    static final int SETTING_SIZE = 16;
    /** NDK_TCK_SETTING_INFO: Key 0, DefaultValue 8, Description 16; 24 bytes. */
    static final int SETTING_INFO_SIZE = 24;
}
