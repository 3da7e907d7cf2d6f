/*
 * ndk_tck_provider.h: what a provider written in C implements so that the NDK memory-region conformance kit
 * can run it. It mirrors the NDKPI dispatch tables that the kit calls (ndkpi.h, ndkinfo.h): the
 * same object structures, dispatch members, function-pointer types, parameter lists, structures and
 * constant values, so the code of an NDK provider compiles against it with few changes. Names and values are
 * facts of the public interface; the comments are the kit's own.
 *
 * What differs from a kernel build, and why:
 *   - Types come from <stdint.h>: ULONG is uint32_t, SIZE_T is size_t (64-bit on the supported hosts),
 *     NTSTATUS is int32_t. Build for LP64 (x86-64 or arm64 Linux); the kit refuses other layouts.
 *   - Dispatch tables hold only the members the kit calls, in NDKPI's order. Members the kit never calls
 *     (NdkQueryExtensionInterface, connectors, listeners, SRQs, memory windows, NdkArmCq, ...) are left out.
 *   - The kit owns the host's memory. An MDL here is NDK_TCK_MDL: StartVa, ByteOffset, ByteCount, Next and
 *     its page frame numbers, read with the usual MmGetMdl* macros. The provider moves bytes only through
 *     page frames with the host services NDK_TCK_HOST.ReadFrame / WriteFrame (what a real adapter's DMA
 *     does); it never dereferences an MDL's virtual address (MR-REG-3).
 *   - Two kit-specific entry points replace driver loading: NdkTckGetProviderInfo (name, header version,
 *     settings) and NdkTckOpenAdapter (NdkOpenAdapter over the kit's host memory), plus the kit's stand-in
 *     for connection setup, NdkTckConnectLoopback.
 *
 * Threads: every call may come from any kit thread, several at once. A completion may be called on any
 * thread, also on the calling thread before the call returns STATUS_PENDING. Never call a completion with
 * a lock held that the same call path takes: the kit may call the provider again from inside it.
 */
#ifndef NDK_TCK_PROVIDER_H
#define NDK_TCK_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header. The kit refuses a library that reports another one (exit 2). */
#define NDK_TCK_PROVIDER_HEADER_VERSION 1u

#if defined(_WIN32)
#define NDK_TCK_EXPORT __declspec(dllexport)
#else
#define NDK_TCK_EXPORT __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------------------------------ types */

typedef int32_t NTSTATUS;
typedef uint8_t BOOLEAN;
typedef uint16_t USHORT;
typedef uint32_t ULONG;
typedef uint32_t UINT32;
typedef uint64_t UINT64;
typedef size_t SIZE_T;
typedef uintptr_t ULONG_PTR;
typedef void *PVOID;
typedef void VOID;
typedef uint64_t PFN_NUMBER;          /* a page frame number */
typedef uint64_t NDK_LOGICAL_ADDRESS; /* an adapter logical address, from NdkBuildLam */

#ifndef TRUE
#define TRUE 1
#define FALSE 0
#endif

#define NT_SUCCESS(status) (((NTSTATUS)(status)) >= 0)
#define NT_ERROR(status) ((((ULONG)(status)) >> 30) == 3)

/* ------------------------------------------------------------------------------------ NTSTATUS values */

#define STATUS_SUCCESS                ((NTSTATUS)0x00000000L)
#define STATUS_PENDING                ((NTSTATUS)0x00000103L)
#define STATUS_BUFFER_OVERFLOW        ((NTSTATUS)0x80000005L)
#define STATUS_ACCESS_VIOLATION       ((NTSTATUS)0xC0000005L)
#define STATUS_INVALID_PARAMETER      ((NTSTATUS)0xC000000DL)
#define STATUS_BUFFER_TOO_SMALL       ((NTSTATUS)0xC0000023L)
#define STATUS_INSUFFICIENT_RESOURCES ((NTSTATUS)0xC000009AL)
#define STATUS_INTERNAL_ERROR         ((NTSTATUS)0xC00000E5L)
#define STATUS_CANCELLED              ((NTSTATUS)0xC0000120L)
#define STATUS_REMOTE_RESOURCES       ((NTSTATUS)0xC000013DL)
#define STATUS_CONNECTION_INVALID     ((NTSTATUS)0xC000023AL)
#define STATUS_INVALID_BUFFER_SIZE    ((NTSTATUS)0xC0000206L)
#define STATUS_CONNECTION_ABORTED     ((NTSTATUS)0xC0000241L)
#define STATUS_IMPLEMENTATION_LIMIT   ((NTSTATUS)0xC000042BL)

/* ------------------------------------------------------------------------------------------ flag values */

/* NdkRegisterMr access flags (NDK_MR_FLAG_*). ALLOW_REMOTE_WRITE contains ALLOW_LOCAL_WRITE. */
#define NDK_MR_FLAG_ALLOW_LOCAL_READ  0x00000000
#define NDK_MR_FLAG_ALLOW_LOCAL_WRITE 0x00000001
#define NDK_MR_FLAG_ALLOW_REMOTE_READ 0x00000002
#define NDK_MR_FLAG_ALLOW_REMOTE_WRITE 0x00000005
#define NDK_MR_FLAG_RDMA_READ_SINK    0x00000008

/* Work-request flags (NDK_OP_FLAG_*). ALLOW_REMOTE_WRITE contains ALLOW_LOCAL_WRITE. */
#define NDK_OP_FLAG_SILENT_SUCCESS             0x00000001
#define NDK_OP_FLAG_READ_FENCE                 0x00000002
#define NDK_OP_FLAG_SEND_AND_SOLICIT_EVENT     0x00000004
#define NDK_OP_FLAG_ALLOW_REMOTE_READ          0x00000008
#define NDK_OP_FLAG_ALLOW_LOCAL_WRITE          0x00000010
#define NDK_OP_FLAG_ALLOW_REMOTE_WRITE         0x00000030
#define NDK_OP_FLAG_INLINE                     0x00000040
#define NDK_OP_FLAG_RDMA_READ_SINK             0x00000080
#define NDK_OP_FLAG_RDMA_READ_LOCAL_INVALIDATE 0x00000100
#define NDK_OP_FLAG_DEFER                      0x00000200

/* NDK_ADAPTER_INFO.AdapterFlags (NDK_ADAPTER_FLAG_*). */
#define NDK_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED               0x00000001
#define NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED          0x00000002
#define NDK_ADAPTER_FLAG_CQ_INTERRUPT_MODERATION_SUPPORTED    0x00000004
#define NDK_ADAPTER_FLAG_MULTI_ENGINE_SUPPORTED               0x00000008
#define NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED 0x00000010
#define NDK_ADAPTER_FLAG_CQ_RESIZE_SUPPORTED                  0x00000100
#define NDK_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED       0x00010000

/* ------------------------------------------------------------------------------------------ enumerations */

typedef enum _NDK_OBJECT_TYPE {
    NdkObjectTypeUndefined = 0,
    NdkObjectTypeAdapter = 1,
    NdkObjectTypeQp = 2,
    NdkObjectTypeCq = 3,
    NdkObjectTypeMr = 4,
    NdkObjectTypeMw = 5,
    NdkObjectTypePd = 6,
    NdkObjectTypeSharedEndpoint = 7,
    NdkObjectTypeConnector = 8,
    NdkObjectTypeListener = 9,
    NdkObjectTypeSrq = 10,
    NdkObjectTypeMax = 11
} NDK_OBJECT_TYPE;

typedef enum _NDK_OPERATION_TYPE {
    NdkOperationTypeReceive = 1,
    NdkOperationTypeSend = 2,
    NdkOperationTypeFastRegister = 4,
    NdkOperationTypeBind = 8,
    NdkOperationTypeInvalidate = 16,
    NdkOperationTypeRead = 32,
    NdkOperationTypeWrite = 64,
    NdkOperationTypeReceiveAndInvalidate = 0x8001
} NDK_OPERATION_TYPE;

typedef enum _NDK_RDMA_TECHNOLOGY {
    NdkUndefined = 0,
    NdkiWarp = 1,
    NdkInfiniBand = 2,
    NdkRoCE = 3,
    NdkRoCEv2 = 4,
    NdkMaxTechnology = 5
} NDK_RDMA_TECHNOLOGY;

/* ------------------------------------------------------------------------------------------ structures */

typedef struct _NDK_VERSION {
    USHORT Major;
    USHORT Minor;
} NDK_VERSION;

/* Reserved for the provider and the consumer; the kit neither reads nor writes it. */
typedef struct _NDK_OBJECT_HEADER_RESERVED_BLOCK {
    PVOID ProviderReserved[2];
    PVOID Reserved[2];
} NDK_OBJECT_HEADER_RESERVED_BLOCK;

/* The first member of every NDK object. The kit reads Version and ObjectType (OBJ-1, OBJ-2). */
typedef struct _NDK_OBJECT_HEADER {
    NDK_VERSION Version;
    NDK_OBJECT_TYPE ObjectType;
    NDK_OBJECT_HEADER_RESERVED_BLOCK NdkReserved;
} NDK_OBJECT_HEADER;

/* One scatter/gather element: a virtual address in a registered region, or (with the PD's privileged token)
 * an adapter logical address from a LAM. Length in bytes. */
typedef struct _NDK_SGE {
    union {
        PVOID VirtualAddress;
        NDK_LOGICAL_ADDRESS LogicalAddress;
    };
    ULONG Length;
    UINT32 MemoryRegionToken;
} NDK_SGE;

/* One CQ entry (NdkGetCqResults). BytesTransferred is defined for receives only. */
typedef struct _NDK_RESULT {
    NTSTATUS Status;
    ULONG BytesTransferred;
    PVOID QPContext;
    PVOID RequestContext;
} NDK_RESULT;

/* One CQ entry with the operation type (NdkGetCqResultsEx). TypeSpecificCompletionOutput: the invalidated
 * token of a ReceiveAndInvalidate. */
typedef struct _NDK_RESULT_EX {
    NTSTATUS Status;
    ULONG BytesTransferred;
    PVOID QPContext;
    PVOID RequestContext;
    NDK_OPERATION_TYPE Type;
    ULONG_PTR TypeSpecificCompletionOutput;
} NDK_RESULT_EX;

/* What NdkBuildLam fills: 16 bytes of header, then one PAGE_SIZE-aligned logical address per page. */
typedef struct _NDK_LOGICAL_ADDRESS_MAPPING {
    PVOID AdapterContext;
    ULONG AdapterPageCount;
    NDK_LOGICAL_ADDRESS AdapterPageArray[1];
} NDK_LOGICAL_ADDRESS_MAPPING;

/* NDK_ADAPTER_INFO of ndkinfo.h. ULONG fields are unsigned 32-bit, SIZE_T fields unsigned 64-bit. */
typedef struct _NDK_ADAPTER_INFO {
    ULONG InfoVersion;
    NDK_VERSION Version;
    UINT32 VendorId;
    UINT32 DeviceId;
    SIZE_T MaxRegistrationSize;
    SIZE_T MaxWindowSize;
    ULONG FRMRPageCount;
    ULONG MaxInitiatorRequestSge;
    ULONG MaxReceiveRequestSge;
    ULONG MaxReadRequestSge;
    ULONG MaxTransferLength;
    ULONG MaxInlineDataSize;
    ULONG MaxInboundReadLimit;
    ULONG MaxOutboundReadLimit;
    ULONG MaxReceiveQueueDepth;
    ULONG MaxInitiatorQueueDepth;
    ULONG MaxSrqDepth;
    ULONG MaxCqDepth;
    ULONG LargeRequestThreshold;
    ULONG MaxCallerData;
    ULONG MaxCalleeData;
    ULONG AdapterFlags;
    /* The transport. The kit reads it when the adapter opens, prints it in the report header and judges the
     * transport-dependent rules by it (TR-1: over NdkiWarp a send that finds no receive posted may end the
     * connection; over NdkInfiniBand, NdkRoCE and NdkRoCEv2 it waits). NdkUndefined is judged as NdkInfiniBand. */
    NDK_RDMA_TECHNOLOGY RdmaTechnology;
} NDK_ADAPTER_INFO;

#define NDK_ADAPTER_INFO_VERSION 1

/* ------------------------------------------------------------------------------------- the kit's MDL */

/* A locked MDL over the kit's host memory: the fields of wdm.h's MDL that a provider reads, then the page
 * frame numbers (one per page spanned: ADDRESS_AND_SIZE_TO_SPAN_PAGES(VA, ByteCount)). A chain may be
 * anything the kit wants to test: not virtually contiguous, cyclic, wrapping past 2^64. */
typedef struct _NDK_TCK_MDL {
    struct _NDK_TCK_MDL *Next;
    PVOID StartVa;     /* page-aligned */
    ULONG ByteCount;
    ULONG ByteOffset;  /* < PAGE_SIZE */
    ULONG PfnCount;    /* entries of PfnArray (the kit's addition: a real MDL derives it) */
    ULONG Reserved;
    PFN_NUMBER PfnArray[]; /* MmGetMdlPfnArray */
} NDK_TCK_MDL;

typedef NDK_TCK_MDL MDL;

#define MmGetMdlVirtualAddress(mdl) ((PVOID)((uintptr_t)(mdl)->StartVa + (mdl)->ByteOffset))
#define MmGetMdlByteCount(mdl) ((mdl)->ByteCount)
#define MmGetMdlByteOffset(mdl) ((mdl)->ByteOffset)
#define MmGetMdlPfnArray(mdl) ((mdl)->PfnArray)
/* Pages spanned by Size bytes from address Va (Size 0 spans none). */
#define ADDRESS_AND_SIZE_TO_SPAN_PAGES_EX(Va, Size, PageSize) \
    ((Size) == 0 ? 0 : ((((uintptr_t)(Va)) & ((PageSize) - 1)) + (uint64_t)(Size) + (PageSize) - 1) / (PageSize))

/* ------------------------------------------------------------------------------------ host services */

/*
 * What the kit offers the provider, valid from NdkTckOpenAdapter until NdkCloseAdapter returns.
 * ReadFrame / WriteFrame copy Length bytes between Buffer and page frame Pfn at byte Offset; Offset + Length
 * must stay within one page (PAGE_SIZE). They return STATUS_SUCCESS, or STATUS_INVALID_PARAMETER when the
 * range leaves the page. The kit records every access of a guard frame, so a read or write outside a region
 * is caught even when its bytes are never looked at. Any thread may call them, at any time.
 */
typedef NTSTATUS (*NDK_TCK_FN_READ_FRAME)(PVOID HostContext, PFN_NUMBER Pfn, ULONG Offset, PVOID Buffer,
                                          ULONG Length);
typedef NTSTATUS (*NDK_TCK_FN_WRITE_FRAME)(PVOID HostContext, PFN_NUMBER Pfn, ULONG Offset, const VOID *Buffer,
                                           ULONG Length);

typedef struct _NDK_TCK_HOST {
    ULONG HeaderVersion;          /* NDK_TCK_PROVIDER_HEADER_VERSION of the kit */
    ULONG PageSize;               /* PAGE_SIZE in bytes, the value NdkTckConfigure reported */
    PVOID HostContext;            /* hand back to ReadFrame / WriteFrame */
    NDK_TCK_FN_READ_FRAME ReadFrame;
    NDK_TCK_FN_WRITE_FRAME WriteFrame;
} NDK_TCK_HOST;

/* -------------------------------------------------------------------------- completion callbacks */

/* Called once after a request returned STATUS_PENDING, with its final status (never STATUS_PENDING). */
typedef VOID (*NDK_FN_REQUEST_COMPLETION)(PVOID Context, NTSTATUS Status);
/* Called once after a create returned STATUS_PENDING; pNdkObject is the new object on success. */
typedef VOID (*NDK_FN_CREATE_COMPLETION)(PVOID Context, NTSTATUS Status, NDK_OBJECT_HEADER *pNdkObject);
/* Called once after a close returned STATUS_PENDING: the object's last callback. */
typedef VOID (*NDK_FN_CLOSE_COMPLETION)(PVOID Context);

/* ------------------------------------------------------------------------------ objects and tables */

typedef struct _NDK_ADAPTER NDK_ADAPTER;
typedef struct _NDK_PD NDK_PD;
typedef struct _NDK_MR NDK_MR;
typedef struct _NDK_QP NDK_QP;
typedef struct _NDK_CQ NDK_CQ;

/* Every close: STATUS_SUCCESS, or STATUS_PENDING and CloseCompletion later. */
typedef NTSTATUS (*NDK_FN_CLOSE_OBJECT)(NDK_OBJECT_HEADER *pNdkObject, NDK_FN_CLOSE_COMPLETION CloseCompletion,
                                        PVOID RequestContext);

/* Adapter. */
typedef NTSTATUS (*NDK_FN_QUERY_ADAPTER_INFO)(NDK_ADAPTER *pNdkAdapter, NDK_ADAPTER_INFO *pInfo,
                                              ULONG *pBufferSize);
typedef VOID (*NDK_FN_CQ_NOTIFICATION_CALLBACK)(PVOID CqNotificationContext, NTSTATUS CqStatus);
typedef NTSTATUS (*NDK_FN_CREATE_CQ)(NDK_ADAPTER *pNdkAdapter, ULONG CqDepth,
                                     NDK_FN_CQ_NOTIFICATION_CALLBACK CqNotification, PVOID CqNotificationContext,
                                     PVOID Affinity /* GROUP_AFFINITY*, always NULL from the kit */,
                                     NDK_FN_CREATE_COMPLETION CreateCompletion, PVOID RequestContext,
                                     NDK_CQ **ppNdkCq);
typedef NTSTATUS (*NDK_FN_CREATE_PD)(NDK_ADAPTER *pNdkAdapter, NDK_FN_CREATE_COMPLETION CreateCompletion,
                                     PVOID RequestContext, NDK_PD **ppNdkPd);
/* RequestCompletion may be NULL: the kit then waits for nothing (the call completes inline). */
typedef NTSTATUS (*NDK_FN_BUILD_LAM)(NDK_ADAPTER *pNdkAdapter, MDL *Mdl, SIZE_T Length,
                                     NDK_FN_REQUEST_COMPLETION RequestCompletion, PVOID RequestContext,
                                     NDK_LOGICAL_ADDRESS_MAPPING *pNdkLAM, ULONG *pLAMSize, ULONG *pFBO);
typedef VOID (*NDK_FN_RELEASE_LAM)(NDK_ADAPTER *pNdkAdapter, NDK_LOGICAL_ADDRESS_MAPPING *pNdkLAM);
/* The kit's stand-in for NDK connectors: connects two unconnected QPs of this adapter. Synchronous. */
typedef NTSTATUS (*NDK_TCK_FN_CONNECT_LOOPBACK)(NDK_QP *pQpA, NDK_QP *pQpB);

typedef struct _NDK_ADAPTER_DISPATCH {
    NDK_FN_CLOSE_OBJECT NdkCloseAdapter; /* returns once every callback of every object has returned (CL-9) */
    NDK_FN_QUERY_ADAPTER_INFO NdkQueryAdapterInfo;
    NDK_FN_CREATE_CQ NdkCreateCq;
    NDK_FN_CREATE_PD NdkCreatePd;
    NDK_FN_BUILD_LAM NdkBuildLam;
    NDK_FN_RELEASE_LAM NdkReleaseLam;
    NDK_TCK_FN_CONNECT_LOOPBACK NdkTckConnectLoopback;
} NDK_ADAPTER_DISPATCH;

struct _NDK_ADAPTER {
    NDK_OBJECT_HEADER Header;
    const NDK_ADAPTER_DISPATCH *Dispatch;
};

/* PD. */
typedef NTSTATUS (*NDK_FN_CREATE_QP)(NDK_PD *pNdkPd, NDK_CQ *pReceiveCq, NDK_CQ *pInitiatorCq, PVOID QPContext,
                                     ULONG ReceiveQueueDepth, ULONG InitiatorQueueDepth,
                                     ULONG MaxReceiveRequestSge, ULONG MaxInitiatorRequestSge,
                                     ULONG InlineDataSize, NDK_FN_CREATE_COMPLETION CreateCompletion,
                                     PVOID RequestContext, NDK_QP **ppNdkQp);
typedef NTSTATUS (*NDK_FN_CREATE_MR)(NDK_PD *pNdkPd, BOOLEAN FastRegister, NDK_FN_CREATE_COMPLETION CreateCompletion,
                                     PVOID RequestContext, NDK_MR **ppNdkMr);
typedef UINT32 (*NDK_FN_GET_PRIVILEGED_MEMORY_REGION_TOKEN)(NDK_PD *pNdkPd);

typedef struct _NDK_PD_DISPATCH {
    NDK_FN_CLOSE_OBJECT NdkClosePd;
    NDK_FN_CREATE_QP NdkCreateQp;
    NDK_FN_CREATE_MR NdkCreateMr;
    NDK_FN_GET_PRIVILEGED_MEMORY_REGION_TOKEN NdkGetPrivilegedMemoryRegionToken;
} NDK_PD_DISPATCH;

struct _NDK_PD {
    NDK_OBJECT_HEADER Header;
    const NDK_PD_DISPATCH *Dispatch;
};

/* MR. */
typedef NTSTATUS (*NDK_FN_INITIALIZE_FAST_REGISTER_MR)(NDK_MR *pNdkMr, ULONG AdapterPageCount, BOOLEAN RemoteAccess,
                                                       NDK_FN_REQUEST_COMPLETION RequestCompletion,
                                                       PVOID RequestContext);
typedef NTSTATUS (*NDK_FN_REGISTER_MR)(NDK_MR *pNdkMr, MDL *Mdl, SIZE_T Length, ULONG Flags,
                                       NDK_FN_REQUEST_COMPLETION RequestCompletion, PVOID RequestContext);
typedef NTSTATUS (*NDK_FN_DEREGISTER_MR)(NDK_MR *pNdkMr, NDK_FN_REQUEST_COMPLETION RequestCompletion,
                                         PVOID RequestContext);
typedef UINT32 (*NDK_FN_GET_LOCAL_TOKEN_FROM_MR)(NDK_MR *pNdkMr);
typedef UINT32 (*NDK_FN_GET_REMOTE_TOKEN_FROM_MR)(NDK_MR *pNdkMr);

typedef struct _NDK_MR_DISPATCH {
    NDK_FN_CLOSE_OBJECT NdkCloseMr;
    NDK_FN_INITIALIZE_FAST_REGISTER_MR NdkInitializeFastRegisterMr;
    NDK_FN_REGISTER_MR NdkRegisterMr;
    NDK_FN_DEREGISTER_MR NdkDeregisterMr;
    NDK_FN_GET_LOCAL_TOKEN_FROM_MR NdkGetLocalTokenFromMr;
    NDK_FN_GET_REMOTE_TOKEN_FROM_MR NdkGetRemoteTokenFromMr;
} NDK_MR_DISPATCH;

struct _NDK_MR {
    NDK_OBJECT_HEADER Header;
    const NDK_MR_DISPATCH *Dispatch;
};

/* CQ. NdkGetCqResults returns how many entries it removed (0: the CQ was empty). */
typedef ULONG (*NDK_FN_GET_CQ_RESULTS)(NDK_CQ *pNdkCq, NDK_RESULT *pResult, ULONG nResults);
typedef ULONG (*NDK_FN_GET_CQ_RESULTS_EX)(NDK_CQ *pNdkCq, NDK_RESULT_EX *pResultEx, ULONG nResults);

typedef struct _NDK_CQ_DISPATCH {
    NDK_FN_CLOSE_OBJECT NdkCloseCq;
    NDK_FN_GET_CQ_RESULTS NdkGetCqResults;
    NDK_FN_GET_CQ_RESULTS_EX NdkGetCqResultsEx;
} NDK_CQ_DISPATCH;

struct _NDK_CQ {
    NDK_OBJECT_HEADER Header;
    const NDK_CQ_DISPATCH *Dispatch;
};

/* QP. Work requests: STATUS_SUCCESS means a CQ entry follows (unless SILENT_SUCCESS and success); an error
 * return means no CQ entry ever. */
typedef VOID (*NDK_FN_FLUSH)(NDK_QP *pNdkQp);
typedef NTSTATUS (*NDK_FN_SEND)(NDK_QP *pNdkQp, PVOID RequestContext, const NDK_SGE *pSgl, ULONG nSge, ULONG Flags);
typedef NTSTATUS (*NDK_FN_RECEIVE)(NDK_QP *pNdkQp, PVOID RequestContext, const NDK_SGE *pSgl, ULONG nSge);
typedef NTSTATUS (*NDK_FN_FAST_REGISTER)(NDK_QP *pNdkQp, PVOID RequestContext, NDK_MR *pMr, ULONG AdapterPageCount,
                                         const NDK_LOGICAL_ADDRESS *AdapterPageArray, ULONG FBO, SIZE_T Length,
                                         PVOID BaseVirtualAddress, ULONG Flags);
typedef NTSTATUS (*NDK_FN_INVALIDATE)(NDK_QP *pNdkQp, PVOID RequestContext, NDK_MR *pMr, ULONG Flags);
typedef NTSTATUS (*NDK_FN_READ)(NDK_QP *pNdkQp, PVOID RequestContext, const NDK_SGE *pSgl, ULONG nSge,
                                UINT64 RemoteAddress, UINT32 RemoteToken, ULONG Flags);
typedef NTSTATUS (*NDK_FN_WRITE)(NDK_QP *pNdkQp, PVOID RequestContext, const NDK_SGE *pSgl, ULONG nSge,
                                 UINT64 RemoteAddress, UINT32 RemoteToken, ULONG Flags);
typedef NTSTATUS (*NDK_FN_SEND_AND_INVALIDATE)(NDK_QP *pNdkQp, PVOID RequestContext, const NDK_SGE *pSgl,
                                               ULONG nSge, UINT32 RemoteToken, ULONG Flags);

typedef struct _NDK_QP_DISPATCH {
    NDK_FN_CLOSE_OBJECT NdkCloseQp;
    NDK_FN_FLUSH NdkFlush;
    NDK_FN_SEND NdkSend;
    NDK_FN_RECEIVE NdkReceive;
    NDK_FN_FAST_REGISTER NdkFastRegister;
    NDK_FN_INVALIDATE NdkInvalidate;
    NDK_FN_READ NdkRead;
    NDK_FN_WRITE NdkWrite;
    NDK_FN_SEND_AND_INVALIDATE NdkSendAndInvalidate;
} NDK_QP_DISPATCH;

struct _NDK_QP {
    NDK_OBJECT_HEADER Header;
    const NDK_QP_DISPATCH *Dispatch;
};

/* -------------------------------------------------------------------- the library's entry points */

/* One provider setting, as given with --set KEY=VALUE (bridge settings such as library= are not passed). */
typedef struct _NDK_TCK_SETTING {
    const char *Key;
    const char *Value;
} NDK_TCK_SETTING;

/* A setting the provider accepts: its key, its default value and one line on what it allows. */
typedef struct _NDK_TCK_SETTING_INFO {
    const char *Key;
    const char *DefaultValue;
    const char *Description;
} NDK_TCK_SETTING_INFO;

typedef struct _NDK_TCK_PROVIDER_INFO {
    ULONG HeaderVersion;                    /* NDK_TCK_PROVIDER_HEADER_VERSION the library was built with */
    const char *Name;                       /* e.g. "ndk-sample" */
    const char *Description;                /* one line */
    ULONG SettingCount;
    const NDK_TCK_SETTING_INFO *Settings;
} NDK_TCK_PROVIDER_INFO;

/* Required symbol 1: static information, callable at any time. */
NDK_TCK_EXPORT const NDK_TCK_PROVIDER_INFO *NdkTckGetProviderInfo(void);

/*
 * Required symbol 2: validates the settings and makes a configuration, or writes one line (NUL-terminated,
 * at most MessageSize bytes) naming the key, the value and what is allowed, and returns
 * STATUS_INVALID_PARAMETER (the kit then exits 2 with that line). *pPageSize: PAGE_SIZE in bytes of the
 * adapters this configuration opens (a power of two, at least 4096).
 */
NDK_TCK_EXPORT NTSTATUS NdkTckConfigure(const NDK_TCK_SETTING *Settings, ULONG SettingCount, char *Message,
                                        ULONG MessageSize, ULONG *pPageSize, PVOID *ppConfig);

/* Required symbol 3: NdkOpenAdapter. Host stays valid until NdkCloseAdapter has returned. */
NDK_TCK_EXPORT NTSTATUS NdkTckOpenAdapter(PVOID Config, const NDK_TCK_HOST *Host, NDK_ADAPTER **ppNdkAdapter);

/* The layout the kit's bridge reads (LP64). A build for another layout stops here. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(void *) == 8 && sizeof(SIZE_T) == 8, "ndk_tck_provider.h needs an LP64 target");
_Static_assert(sizeof(NDK_OBJECT_HEADER) == 40, "NDK_OBJECT_HEADER is 40 bytes");
_Static_assert(offsetof(NDK_MR, Dispatch) == 40, "Dispatch follows the header");
_Static_assert(sizeof(NDK_SGE) == 16, "NDK_SGE is 16 bytes");
_Static_assert(sizeof(NDK_RESULT) == 24 && sizeof(NDK_RESULT_EX) == 40, "NDK_RESULT(_EX) layout");
_Static_assert(offsetof(NDK_LOGICAL_ADDRESS_MAPPING, AdapterPageArray) == 16, "LAM header is 16 bytes");
_Static_assert(sizeof(NDK_ADAPTER_INFO) == 104, "NDK_ADAPTER_INFO is 104 bytes");
_Static_assert(offsetof(NDK_ADAPTER_INFO, RdmaTechnology) == 96 && sizeof(NDK_RDMA_TECHNOLOGY) == 4,
               "RdmaTechnology is the ULONG at offset 96");
_Static_assert(offsetof(NDK_TCK_MDL, PfnArray) == 32, "NDK_TCK_MDL header is 32 bytes");
_Static_assert(sizeof(NDK_TCK_HOST) == 32, "NDK_TCK_HOST is 32 bytes");
#endif

#ifdef __cplusplus
}
#endif

#endif /* NDK_TCK_PROVIDER_H */
