/*
 * ndk_sample.c: a sample NDK provider in C for the conformance kit. A software model of an NDK
 * adapter, in the shape of the NDKPI dispatch tables of ndk_tck_provider.h: adapter, PD, MR, QP and CQ, the
 * memory-region calls (NdkCreateMr, NdkRegisterMr, NdkDeregisterMr, NdkInitializeFastRegisterMr,
 * NdkFastRegister, NdkInvalidate, the token getters, NdkBuildLam, NdkReleaseLam) and the data path the kit
 * drives (Read, Write, Send, SendAndInvalidate, Receive, Flush, NdkGetCqResults[Ex], closes). It makes the
 * same decisions as the kit's Java reference provider (reference-impl), check for check and in the same
 * order, so it passes the whole kit.
 *
 * The model:
 *   - One mutex per adapter guards every object of the adapter. No consumer callback is ever called with it
 *     held: completions run after the call has dropped it, on a thread of their own ("pending"), or on the
 *     calling thread before the call returns STATUS_PENDING ("early").
 *   - Every range check is unsigned and cannot wrap (last_byte_wraps, sat_add).
 *   - One 32-bit token per registration, local and remote alike; a hash table maps live tokens to what they
 *     name. Tokens are fresh for every registration, never 0, retired on deregistration, invalidation and
 *     close. A PD's privileged token reaches LAM logical addresses locally, never remotely.
 *   - Bytes move only through page frames, with the host's ReadFrame / WriteFrame (the adapter's DMA).
 *   - Objects and requests live until NdkCloseAdapter, which frees everything once every thread it started
 *     has finished.
 *
 * Fault variants: compiling with -DFAULT_<NAME> plants one bug (see build-sample.sh); the kit must FAIL the
 * rule each one breaks:
 *   FAULT_MR_FR_4          BaseVirtualAddress is not checked against FBO (MR-FR-4)
 *   FAULT_MR_FR_3          Length is checked against the pages without FBO (MR-FR-3)
 *   FAULT_MR_REG_4_WRAP    the remote bounds check of an NdkRegisterMr region adds offset + length in wrapping
 *                          64-bit arithmetic, so an access just below the region passes (MR-REG-4)
 *   FAULT_MR_REG_7         NDK_MR_FLAG_RDMA_READ_SINK makes NdkRegisterMr fail (MR-REG-7)
 *   FAULT_GEN_CB_1_TWICE   MR requests complete twice (GEN-CB-1; default completion=pending)
 *   FAULT_HANG             NdkRegisterMr never returns (GEN-TIME-1)
 *   FAULT_SEGV             NdkRegisterMr with RDMA_READ_SINK dereferences NULL (a crash)
 * Memory and thread faults, for process isolation and the sanitizers (README, "For C provider authors"):
 *   FAULT_UAF              NdkDeregisterMr frees the region's frame list but leaves its token live: a later
 *                          access with the old token reads freed memory (heap use-after-free; MR-DEREG-3)
 *   FAULT_DOUBLE_FREE      NdkDeregisterMr frees the frame list, and retiring the region frees it again
 *                          (double free; MR-DEREG-2)
 *   FAULT_RACE             NdkFastRegister moves the token counter before it takes the adapter's lock (two
 *                          concurrent fast registrations may get one token), and the token getters count their
 *                          calls without a lock: data races (MR-TOK-6, whose properties call from several threads
 *                          at once)
 *   FAULT_RARE_SEGV        NdkRegisterMr crashes on an MDL of ByteCount 0 inside a chain (MR-REG-13)
 *   FAULT_RARE_HANG        NdkRegisterMr with Length 0 spins forever (GEN-TIME-1, met by MR-REG-11's property)
 *   FAULT_LAM_EMPTY_MDL    NdkBuildLam ends its page walk at an MDL of ByteCount 0 inside a chain (neither first
 *                          nor last), so the LAM lists fewer pages than (VA, Length) spans (LAM-4); a chain
 *                          without such an MDL gets a correct LAM
 */
/* nanosleep, with -std=c11 as the README builds it (C11 alone declares no POSIX function) */
#define _POSIX_C_SOURCE 200809L

#include "ndk_tck_provider.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ============================================================================ settings and entry points */

enum completion_mode { MODE_INLINE, MODE_PENDING, MODE_MIXED, MODE_EARLY };

typedef struct config {
    enum completion_mode completion;
    int read_sink_not_required;
    int version_minor; /* 1 or 2: NDKPI 1.1 or 1.2 */
    ULONG page_size;
    ULONG frmr_page_count;
    uint64_t max_registration_size;
    ULONG max_objects;
    uint64_t seed;
    NDK_RDMA_TECHNOLOGY transport; /* NDK_ADAPTER_INFO.RdmaTechnology (setting transport) */
} config;

#if defined(FAULT_GEN_CB_1_TWICE)
#define DEFAULT_COMPLETION "pending"
#else
#define DEFAULT_COMPLETION "inline"
#endif

static const NDK_TCK_SETTING_INFO SETTINGS[] = {
    {"completion", DEFAULT_COMPLETION,
     "inline|pending|mixed|early: how calls that may pend complete (early: STATUS_PENDING, completion called "
     "on the calling thread before the call returns)"},
    {"readSinkNotRequired", "true", "true|false: NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED"},
    {"ndkVersion", "1.2", "1.1|1.2: NDKPI version (1.2 adds DEFER, RDMA_READ_LOCAL_INVALIDATE)"},
    {"pageSize", "4096", "PAGE_SIZE in bytes, a power of two from 4096 to 1073741824"},
    {"frmrPageCount", "65536", "FRMRPageCount in pages, 16..4294967295"},
    {"maxRegistrationSize", "1099511627776", "MaxRegistrationSize in bytes, 1..2^64-1"},
    {"maxObjects", "65536", "live PD/CQ/MR/QP objects per adapter, 1..2147483647"},
    {"seed", "0", "64-bit seed for completion=mixed and token scrambling"},
    {"transport", "infiniband",
     "infiniband|roce|rocev2|iwarp: NDK_ADAPTER_INFO.RdmaTechnology; iwarp: a send that finds no receive posted at "
     "the peer ends the connection (STATUS_CONNECTION_ABORTED, both QPs flushed), other transports let it wait"},
};
#define SETTING_COUNT (sizeof(SETTINGS) / sizeof(SETTINGS[0]))

#ifndef SAMPLE_NAME
#define SAMPLE_NAME "ndk-sample"
#endif
#ifndef SAMPLE_HEADER_VERSION
#define SAMPLE_HEADER_VERSION NDK_TCK_PROVIDER_HEADER_VERSION
#endif

static const NDK_TCK_PROVIDER_INFO PROVIDER_INFO = {
    SAMPLE_HEADER_VERSION, SAMPLE_NAME,
    "sample C provider: a software model of an NDK adapter (native/sample/ndk_sample.c)",
    SETTING_COUNT, SETTINGS};

NDK_TCK_EXPORT const NDK_TCK_PROVIDER_INFO *NdkTckGetProviderInfo(void) {
    return &PROVIDER_INFO;
}

static int parse_u64(const char *text, uint64_t *out) {
    if (text == NULL || *text == '\0' || *text == '-' || *text == '+' || *text == ' ') {
        return 0;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long v = (strncasecmp(text, "0x", 2) == 0) ? strtoull(text + 2, &end, 16) : strtoull(text, &end, 10);
    if (errno != 0 || end == NULL || *end != '\0' || ((strncasecmp(text, "0x", 2) == 0) && text[2] == '\0')) {
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

static NTSTATUS invalid_setting(char *message, ULONG size, const char *key, const char *value, const char *allowed) {
    if (message != NULL && size > 0) {
        snprintf(message, size, "invalid setting %s=%s: allowed is %s", key, value, allowed);
    }
    return STATUS_INVALID_PARAMETER;
}

NDK_TCK_EXPORT NTSTATUS NdkTckConfigure(const NDK_TCK_SETTING *settings, ULONG count, char *message,
                                        ULONG message_size, ULONG *page_size, PVOID *out) {
    config c = {MODE_INLINE, 1, 2, 4096, 65536, 1ull << 40, 65536, 0, NdkInfiniBand};
#if defined(FAULT_GEN_CB_1_TWICE)
    c.completion = MODE_PENDING;
#endif
    for (ULONG i = 0; i < count; i++) {
        const char *k = settings[i].Key;
        const char *v = settings[i].Value != NULL ? settings[i].Value : "";
        uint64_t n = 0;
        if (strcmp(k, "completion") == 0) {
            if (strcasecmp(v, "inline") == 0) c.completion = MODE_INLINE;
            else if (strcasecmp(v, "pending") == 0) c.completion = MODE_PENDING;
            else if (strcasecmp(v, "mixed") == 0) c.completion = MODE_MIXED;
            else if (strcasecmp(v, "early") == 0) c.completion = MODE_EARLY;
            else return invalid_setting(message, message_size, k, v, "inline, pending, mixed or early");
        } else if (strcmp(k, "readSinkNotRequired") == 0) {
            if (strcasecmp(v, "true") == 0) c.read_sink_not_required = 1;
            else if (strcasecmp(v, "false") == 0) c.read_sink_not_required = 0;
            else return invalid_setting(message, message_size, k, v, "true or false");
        } else if (strcmp(k, "ndkVersion") == 0) {
            if (strcmp(v, "1.1") == 0) c.version_minor = 1;
            else if (strcmp(v, "1.2") == 0) c.version_minor = 2;
            else return invalid_setting(message, message_size, k, v, "1.1 or 1.2");
        } else if (strcmp(k, "pageSize") == 0) {
            if (!parse_u64(v, &n) || n < 4096 || n > (1u << 30) || (n & (n - 1)) != 0)
                return invalid_setting(message, message_size, k, v, "a power of two from 4096 to 1073741824");
            c.page_size = (ULONG)n;
        } else if (strcmp(k, "frmrPageCount") == 0) {
            if (!parse_u64(v, &n) || n < 16 || n > 0xFFFFFFFFull)
                return invalid_setting(message, message_size, k, v, "an integer from 16 to 4294967295 (FRMRPageCount is at least 16, AI-1)");
            c.frmr_page_count = (ULONG)n;
        } else if (strcmp(k, "maxRegistrationSize") == 0) {
            if (!parse_u64(v, &n) || n == 0)
                return invalid_setting(message, message_size, k, v, "an integer from 1 to 18446744073709551615 bytes");
            c.max_registration_size = n;
        } else if (strcmp(k, "maxObjects") == 0) {
            if (!parse_u64(v, &n) || n < 1 || n > 0x7FFFFFFF)
                return invalid_setting(message, message_size, k, v, "an integer from 1 to 2147483647");
            c.max_objects = (ULONG)n;
        } else if (strcmp(k, "transport") == 0) {
            if (strcasecmp(v, "infiniband") == 0) c.transport = NdkInfiniBand;
            else if (strcasecmp(v, "roce") == 0) c.transport = NdkRoCE;
            else if (strcasecmp(v, "rocev2") == 0) c.transport = NdkRoCEv2;
            else if (strcasecmp(v, "iwarp") == 0) c.transport = NdkiWarp;
            else return invalid_setting(message, message_size, k, v, "infiniband, roce, rocev2 or iwarp");
        } else if (strcmp(k, "seed") == 0) {
            if (*v == '-') {
                if (!parse_u64(v + 1, &n)) return invalid_setting(message, message_size, k, v, "a signed 64-bit integer");
                n = (uint64_t)(-(int64_t)n);
            } else if (!parse_u64(v, &n)) {
                return invalid_setting(message, message_size, k, v, "a signed 64-bit integer");
            }
            c.seed = n;
        } else {
            if (message != NULL && message_size > 0) {
                snprintf(message, message_size, "unknown setting %s=%s: known settings are completion, "
                         "readSinkNotRequired, ndkVersion, pageSize, frmrPageCount, maxRegistrationSize, maxObjects, seed", k, v);
            }
            return STATUS_INVALID_PARAMETER;
        }
    }
    config *copy = malloc(sizeof *copy);
    if (copy == NULL) {
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    *copy = c;
    *page_size = c.page_size;
    *out = copy;
    return STATUS_SUCCESS;
}

/* ============================================================================ unsigned helpers */

#define MAX_TRANSFER_LENGTH (1ull << 30)
#define MAX_SGE 16u
#define MAX_INLINE_DATA_SIZE 256u
#define MAX_QUEUE_DEPTH (1u << 16)
#define MAX_CQ_DEPTH (1u << 20)
#define MAX_READ_LIMIT 16u
#define LOGICAL_ADDRESS_BASE 0x800000000000ull
#define MAX_FRAMES (1ull << 24)

/* Access rights of a registration. */
#define ACC_LOCAL_WRITE 1
#define ACC_REMOTE_READ 2
#define ACC_REMOTE_WRITE 4
#define ACC_READ_SINK 8
#define HAS(access, right) (((access) & (right)) == (right))

/* True when the last byte start + length - 1 lies past 2^64 - 1. */
static int last_byte_wraps(uint64_t start, uint64_t length) {
    return length != 0 && length - 1 > UINT64_MAX - start;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ============================================================================ objects */

enum life { LIFE_OPEN, LIFE_CLOSING, LIFE_CLOSED };
enum mr_state { MR_CREATED, MR_REGISTERED, MR_INITIALIZED, MR_FAST_REGISTERED, MR_INVALIDATED, MR_CLOSING, MR_CLOSED };
enum qp_state { QP_UNCONNECTED, QP_CONNECTED, QP_FLUSHED, QP_CLOSED };
enum region_state { REGION_PENDING, REGION_LIVE, REGION_DEAD };
enum token_kind { TK_REGION = 1, TK_PD, TK_MR };
enum wr_type { WR_FAST_REGISTER, WR_INVALIDATE, WR_READ, WR_WRITE, WR_SEND, WR_SEND_AND_INVALIDATE, WR_RECEIVE };

typedef struct adapter adapter;
typedef struct object object;

/* What every PD, CQ, MR and QP shares: the NDK object (Header and Dispatch) first, then its life. */
struct object {
    NDK_OBJECT_HEADER Header;
    const void *Dispatch;
    adapter *a;
    enum life life;
    int outstanding;  /* requests that returned STATUS_PENDING and whose completion has not returned */
    int dependents;   /* open objects that name this one: MRs and QPs of a PD, QPs of a CQ */
    NDK_FN_CLOSE_COMPLETION close_cb;
    PVOID close_ctx;
    int close_scheduled;
    int forced;
    object *ante[3];
    int nante;
    object *all_next;
};

typedef struct pd {
    object o;
    UINT32 privileged_token;
} pd;

typedef struct region region;

typedef struct mr {
    object o;
    pd *pd;
    int fast;
    enum mr_state state;
    UINT32 token;
    region *region;      /* the latest registration, or the fast registration posted last */
    region *live_region; /* the fast registration in effect */
    int remote_access;
    ULONG initialized_pages;
} mr;

struct region {
    mr *mr;
    pd *pd;
    UINT32 token;
    uint64_t base;
    uint64_t length;
    ULONG fbo;
    int access;
    int fast;
    uint64_t *frames;
    uint64_t nframes;
    enum region_state state;
    region *all_next;
};

typedef struct cq {
    object o;
    NDK_RESULT_EX *entries;
    size_t head, count, cap;
} cq;

typedef struct wr wr;
typedef struct queue {
    wr *head, *tail;
} queue;

typedef struct qp {
    object o;
    pd *pd;
    cq *rcq, *icq;
    PVOID qp_context;
    ULONG max_receive_sge, max_initiator_sge, inline_data_size;
    enum qp_state state;
    struct qp *peer;
    queue held;     /* DEFER requests not yet handed to the adapter */
    queue receives; /* posted receives waiting for a send */
    queue inbound;  /* the peer's sends waiting for a receive here */
} qp;

struct wr {
    enum wr_type type;
    qp *qp;
    PVOID ctx;
    ULONG flags;
    NDK_SGE *sgl;
    ULONG nsge;
    uint64_t remote_address;
    UINT32 remote_token;
    region *region;
    uint8_t *inline_data;
    uint64_t inline_length;
    int has_inline;
    int done;
    wr *next;
    wr *all_next;
};

typedef struct lam {
    uint64_t base;
    uint64_t *frames;
    uint64_t nframes;
    uint64_t size;
    int live;
    NDK_LOGICAL_ADDRESS_MAPPING *owner;
} lam;

typedef struct token_slot {
    UINT32 key;
    int kind;
    void *holder;
} token_slot;

struct adapter {
    NDK_ADAPTER ndk;
    NDK_TCK_HOST host;
    config cfg;
    ULONG flags;
    pthread_mutex_t lock;
    pthread_cond_t quiet;
    uint64_t rng;
    uint32_t token_counter;
    token_slot *tokens;
    size_t token_cap, token_count;
    lam **lams;
    size_t nlams, lam_cap;
    lam *last_lam;
    uint64_t next_logical;
    ULONG objects;   /* live PD/CQ/MR/QP objects */
    int inflight;    /* scheduled callbacks and pending requests whose completion has not returned */
    int closed;
    queue ready;     /* accepted work requests, in post order */
    int worker_scheduled;
    atomic_int threads; /* threads started by this adapter that still touch it */
    object *all_objects;
    region *all_regions;
    wr *all_wrs;
};

static const NDK_ADAPTER_DISPATCH ADAPTER_DISPATCH;
static const NDK_PD_DISPATCH PD_DISPATCH;
static const NDK_MR_DISPATCH MR_DISPATCH;
static const NDK_CQ_DISPATCH CQ_DISPATCH;
static const NDK_QP_DISPATCH QP_DISPATCH;

#define LOCK(a) pthread_mutex_lock(&(a)->lock)
#define UNLOCK(a) pthread_mutex_unlock(&(a)->lock)

static void header_init(NDK_OBJECT_HEADER *h, const adapter *a, NDK_OBJECT_TYPE type) {
    memset(h, 0, sizeof *h);
    h->Version.Major = 1;
    h->Version.Minor = (USHORT)a->cfg.version_minor;
    h->ObjectType = type;
}

/* ============================================================================ tokens */

static size_t token_hash(UINT32 key, size_t cap) {
    return (size_t)((key * 2654435761u) & (cap - 1));
}

static token_slot *token_find(adapter *a, UINT32 key) {
    if (key == 0 || a->tokens == NULL) {
        return NULL;
    }
    size_t mask = a->token_cap - 1;
    for (size_t i = token_hash(key, a->token_cap);; i = (i + 1) & mask) {
        if (a->tokens[i].key == 0) return NULL;
        if (a->tokens[i].key == key) return &a->tokens[i];
    }
}

static void token_insert_raw(token_slot *slots, size_t cap, UINT32 key, int kind, void *holder) {
    size_t mask = cap - 1;
    size_t i = token_hash(key, cap);
    while (slots[i].key != 0 && slots[i].key != key) i = (i + 1) & mask;
    slots[i].key = key;
    slots[i].kind = kind;
    slots[i].holder = holder;
}

static void token_put(adapter *a, UINT32 key, int kind, void *holder) {
    if ((a->token_count + 1) * 2 > a->token_cap) {
        size_t cap = a->token_cap == 0 ? 64 : a->token_cap * 2;
        token_slot *slots = calloc(cap, sizeof *slots);
        if (slots == NULL) abort();
        for (size_t i = 0; i < a->token_cap; i++) {
            if (a->tokens[i].key != 0) token_insert_raw(slots, cap, a->tokens[i].key, a->tokens[i].kind, a->tokens[i].holder);
        }
        free(a->tokens);
        a->tokens = slots;
        a->token_cap = cap;
    }
    if (token_find(a, key) == NULL) a->token_count++;
    token_insert_raw(a->tokens, a->token_cap, key, kind, holder);
}

/* Removes the token only while it still names holder (linear probing, backward-shift deletion). */
static void token_remove(adapter *a, UINT32 key, void *holder) {
    token_slot *s = token_find(a, key);
    if (s == NULL || s->holder != holder) return;
    size_t mask = a->token_cap - 1;
    size_t i = (size_t)(s - a->tokens);
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (a->tokens[j].key == 0) break;
        size_t h = token_hash(a->tokens[j].key, a->token_cap);
        int move = (i <= j) ? (h <= i || h > j) : (h <= i && h > j);
        if (move) {
            a->tokens[i] = a->tokens[j];
            i = j;
        }
    }
    a->tokens[i].key = 0;
    a->tokens[i].holder = NULL;
    a->token_count--;
}

/* A fresh token: a counter through a bijective 32-bit mix, skipping 0 and tokens in use. */
#if defined(FAULT_RACE)
/* The token of one counter value, unchecked (the planted race's allocation). */
static UINT32 token_of_counter(adapter *a, uint32_t counter) {
    uint32_t h = counter + (uint32_t)(a->cfg.seed ^ (a->cfg.seed >> 32));
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h ? h : 1;
}
#endif

static UINT32 token_allocate(adapter *a) {
    for (;;) {
        a->token_counter++;
        uint32_t h = a->token_counter + (uint32_t)(a->cfg.seed ^ (a->cfg.seed >> 32));
        h ^= h >> 16;
        h *= 0x85EBCA6Bu;
        h ^= h >> 13;
        h *= 0xC2B2AE35u;
        h ^= h >> 16;
        if (h != 0 && token_find(a, h) == NULL) return h;
    }
}

/* Retires a registration: its token grants nothing any more. */
static void retire(adapter *a, region *r) {
    if (r->state == REGION_DEAD) return;
#if defined(FAULT_DOUBLE_FREE)
    free(r->frames); /* the planted bug: do_deregister freed the frame list already */
#endif
    r->state = REGION_DEAD;
    token_remove(a, r->token, r);
}

/* ============================================================================ completions and threads */

enum job_kind { J_REGISTER, J_DEREGISTER, J_INITIALIZE, J_BUILD_LAM, J_CREATE, J_CLOSE, J_DRAIN };
enum create_kind { C_PD, C_CQ, C_MR, C_QP };

typedef struct job {
    enum job_kind kind;
    adapter *a;
    object *owner;
    NDK_FN_REQUEST_COMPLETION request_cb;
    NDK_FN_CREATE_COMPLETION create_cb;
    NDK_FN_CLOSE_COMPLETION close_cb;
    PVOID ctx;
    /* arguments */
    mr *mr;
    MDL *mdl;
    uint64_t length;
    ULONG flags;
    ULONG pages;
    int remote;
    NDK_LOGICAL_ADDRESS_MAPPING *lam;
    ULONG *lam_size;
    ULONG *fbo;
    enum create_kind create;
    pd *pd;
    ULONG depth;
    int fast;
    cq *rcq, *icq;
    PVOID qp_context;
    ULONG qp_limits[5];
    object *closing;
} job;

/* The adapters whose callbacks run on this thread (to spot NdkCloseAdapter from inside a callback). */
static __thread adapter *in_callback[16];
static __thread int in_callback_depth;

static NTSTATUS do_job(job *j, object **created);
static void drain(adapter *a);
static void finish_close(object *o);
static void close_if_ready(object *o);

/* Under the lock: true when this call should pend (the completion setting; mixed draws from the seed). */
static int choose_pending(adapter *a) {
    switch (a->cfg.completion) {
    case MODE_INLINE:
        return 0;
    case MODE_PENDING:
    case MODE_EARLY:
        return 1;
    case MODE_MIXED:
    default:
        a->rng += 0x9E3779B97F4A7C15ull;
        uint64_t z = a->rng;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return (int)((z ^ (z >> 31)) & 1);
    }
}

static void call_back(job *j, NTSTATUS status, object *created) {
    adapter *a = j->a;
    if (in_callback_depth < 16) in_callback[in_callback_depth] = a;
    in_callback_depth++;
    switch (j->kind) {
    case J_CREATE:
        j->create_cb(j->ctx, status, created != NULL ? &created->Header : NULL);
        break;
    case J_CLOSE:
        j->close_cb(j->ctx);
        break;
    default:
        j->request_cb(j->ctx, status);
#if defined(FAULT_GEN_CB_1_TWICE)
        if (j->kind != J_BUILD_LAM) j->request_cb(j->ctx, status);
#endif
        break;
    }
    in_callback_depth--;
}

/* Runs a job that left the call: its work under the lock, its callback without, then the bookkeeping. */
static void run_job(job *j) {
    adapter *a = j->a;
    if (j->kind == J_DRAIN) {
        LOCK(a);
        a->worker_scheduled = 0;
        drain(a);
        UNLOCK(a);
        free(j);
        atomic_fetch_sub(&a->threads, 1);
        return;
    }
    object *created = NULL;
    NTSTATUS status = STATUS_SUCCESS;
    if (j->kind != J_CLOSE) {
        LOCK(a);
        status = do_job(j, &created);
        UNLOCK(a);
    }
    call_back(j, status, created);
    LOCK(a);
    if (j->kind == J_CLOSE) finish_close(j->closing);
    if (j->owner != NULL) {
        j->owner->outstanding--;
        close_if_ready(j->owner);
    }
    a->inflight--;
    pthread_cond_broadcast(&a->quiet);
    UNLOCK(a);
    free(j);
    atomic_fetch_sub(&a->threads, 1);
}

static void *job_thread(void *arg) {
    run_job(arg);
    return NULL;
}

/* Under the lock: counts the job as in flight; it then runs on a new thread, or (early) on the caller's
 * thread once the caller has dropped the lock. */
static void offload(job *j, int early) {
    adapter *a = j->a;
    if (j->kind != J_DRAIN) {
        if (j->owner != NULL) j->owner->outstanding++;
        a->inflight++;
    }
    atomic_fetch_add(&a->threads, 1);
    if (early) return;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, job_thread, j) != 0) abort();
    pthread_attr_destroy(&attr);
}

static job *new_job(adapter *a, enum job_kind kind, object *owner, PVOID ctx) {
    job *j = calloc(1, sizeof *j);
    if (j == NULL) abort();
    j->kind = kind;
    j->a = a;
    j->owner = owner;
    j->ctx = ctx;
    return j;
}

/*
 * Under the lock: the one place a request chooses between finishing inline and STATUS_PENDING. Returns the
 * status; *early is the job to run on the calling thread after the lock is dropped (completion=early).
 */
static NTSTATUS request(job *j, job **early) {
    *early = NULL;
    if (!choose_pending(j->a)) {
        object *created = NULL;
        NTSTATUS status = do_job(j, &created);
        if (j->kind == J_CREATE && created != NULL) {
            /* handed back through the out parameter by the caller */
            j->closing = created;
        }
        return status;
    }
    if (j->a->cfg.completion == MODE_EARLY) {
        offload(j, 1);
        *early = j;
    } else {
        offload(j, 0);
    }
    return STATUS_PENDING;
}

/* ============================================================================ object life and close */

static object *object_init(adapter *a, object *o, NDK_OBJECT_TYPE type, const void *dispatch) {
    header_init(&o->Header, a, type);
    o->Dispatch = dispatch;
    o->a = a;
    o->life = LIFE_OPEN;
    o->all_next = a->all_objects;
    a->all_objects = o;
    return o;
}

static void on_close_started(object *o);
static void on_closed(object *o);

static void finish_close(object *o) {
    o->life = LIFE_CLOSED;
    on_closed(o);
    o->a->objects--;
    for (int i = 0; i < o->nante; i++) {
        o->ante[i]->dependents--;
        close_if_ready(o->ante[i]);
    }
}

/* Under the lock: finishes a close that waits for nothing any more (the completion on a thread of its own). */
static void close_if_ready(object *o) {
    if (o->life != LIFE_CLOSING || o->outstanding > 0 || o->dependents > 0 || o->close_scheduled) return;
    if (o->close_cb == NULL) {
        if (o->forced) finish_close(o);
        return;
    }
    o->close_scheduled = 1;
    job *j = new_job(o->a, J_CLOSE, NULL, o->close_ctx);
    j->close_cb = o->close_cb;
    j->closing = o;
    offload(j, 0);
}

static NTSTATUS close_object(NDK_OBJECT_HEADER *h, NDK_FN_CLOSE_COMPLETION completion, PVOID ctx) {
    object *o = (object *)h;
    adapter *a = o->a;
    LOCK(a);
    if (o->life != LIFE_OPEN) {
        UNLOCK(a);
        return STATUS_SUCCESS;
    }
    o->life = LIFE_CLOSING;
    on_close_started(o);
    if (o->outstanding == 0 && o->dependents == 0 && !choose_pending(a)) {
        finish_close(o);
        UNLOCK(a);
        return STATUS_SUCCESS;
    }
    o->close_cb = completion;
    o->close_ctx = ctx;
    close_if_ready(o);
    UNLOCK(a);
    return STATUS_PENDING;
}

static void force_close(object *o) {
    if (o->life == LIFE_OPEN) {
        o->life = LIFE_CLOSING;
        o->forced = 1;
        on_close_started(o);
    }
    close_if_ready(o);
}

/* Under the lock: makes an object within the budget, or fails. */
static NTSTATUS create_now(job *j, object **out) {
    adapter *a = j->a;
    *out = NULL;
    object *parent = j->create == C_MR || j->create == C_QP ? &j->pd->o : NULL;
    if (parent != NULL && parent->life != LIFE_OPEN) return STATUS_INVALID_PARAMETER;
    if (a->objects >= a->cfg.max_objects) return STATUS_INSUFFICIENT_RESOURCES;
    object *o = NULL;
    switch (j->create) {
    case C_PD: {
        pd *p = calloc(1, sizeof *p);
        if (p == NULL) return STATUS_INSUFFICIENT_RESOURCES;
        o = object_init(a, &p->o, NdkObjectTypePd, &PD_DISPATCH);
        p->privileged_token = token_allocate(a);
        token_put(a, p->privileged_token, TK_PD, p);
        break;
    }
    case C_CQ: {
        cq *c = calloc(1, sizeof *c);
        if (c == NULL) return STATUS_INSUFFICIENT_RESOURCES;
        o = object_init(a, &c->o, NdkObjectTypeCq, &CQ_DISPATCH);
        break;
    }
    case C_MR: {
        mr *m = calloc(1, sizeof *m);
        if (m == NULL) return STATUS_INSUFFICIENT_RESOURCES;
        o = object_init(a, &m->o, NdkObjectTypeMr, &MR_DISPATCH);
        m->pd = j->pd;
        m->fast = j->fast;
        m->state = MR_CREATED;
        o->ante[o->nante++] = &j->pd->o;
        break;
    }
    case C_QP: {
        qp *q = calloc(1, sizeof *q);
        if (q == NULL) return STATUS_INSUFFICIENT_RESOURCES;
        o = object_init(a, &q->o, NdkObjectTypeQp, &QP_DISPATCH);
        q->pd = j->pd;
        q->rcq = j->rcq;
        q->icq = j->icq;
        q->qp_context = j->qp_context;
        q->max_receive_sge = j->qp_limits[2];
        q->max_initiator_sge = j->qp_limits[3];
        q->inline_data_size = j->qp_limits[4];
        q->state = QP_UNCONNECTED;
        o->ante[o->nante++] = &j->pd->o;
        o->ante[o->nante++] = &j->rcq->o;
        o->ante[o->nante++] = &j->icq->o;
        break;
    }
    }
    a->objects++;
    for (int i = 0; i < o->nante; i++) o->ante[i]->dependents++;
    *out = o;
    return STATUS_SUCCESS;
}

/* A create: inline (SUCCESS and the object), or STATUS_PENDING and the object through the completion. */
static NTSTATUS create_call(job *j, PVOID *out) {
    adapter *a = j->a;
    job *early = NULL;
    *out = NULL;
    NTSTATUS status = request(j, &early);
    if (status != STATUS_PENDING) {
        if (status == STATUS_SUCCESS) *out = j->closing;
        free(j);
    }
    UNLOCK(a);
    if (early != NULL) run_job(early);
    return status;
}

/* ============================================================================ MDL chains and page maps */

typedef struct chain {
    uint64_t va;
    uint64_t count;
    uint64_t total;
    int cyclic;
    int contiguous;
    int split;
} chain;

static uint64_t mdl_va(const MDL *m) {
    return (uint64_t)(uintptr_t)m->StartVa + m->ByteOffset;
}

/* One pass over a chain (Floyd's cycle check): what MR-REG-1/2/13 and LAM-1/2 read. */
static chain walk_chain(MDL *first, uint64_t length, ULONG page_size) {
    uint64_t mask = page_size - 1;
    chain c = {mdl_va(first), 0, 0, 0, 1, 0};
    uint64_t expected = c.va, covered = 0, previous_last = 0;
    int have_previous = 0;
    MDL *slow = first;
    for (MDL *m = first; m != NULL; m = m->Next) {
        c.count++;
        int reached = covered < length;
        uint64_t va = mdl_va(m);
        uint64_t bytes = m->ByteCount;
        if (reached) {
            if (va != expected) {
                c.contiguous = 0;
            } else if ((va & mask) != 0 && bytes != 0 && have_previous && m->PfnCount > 0
                       && m->PfnArray[0] != previous_last) {
                c.split = 1;
            }
        }
#if defined(FAULT_RARE_SEGV)
        if (bytes == 0 && m != first && m->Next != NULL) *(volatile int *)(uintptr_t)bytes = 1; /* the planted crash */
#endif
        if (bytes != 0 && m->PfnCount > 0) {
            previous_last = m->PfnArray[m->PfnCount - 1];
            have_previous = 1;
        }
        expected = va + bytes;
        covered = sat_add(covered, bytes);
        if ((c.count & 1) == 0) slow = slow->Next;
        if (m->Next == slow) {
            c.cyclic = 1;
            break;
        }
    }
    c.total = covered;
    return c;
}

#if defined(FAULT_LAM_EMPTY_MDL)
/* The planted bug's page count: the pages spanned by the bytes before the first MDL of ByteCount 0 that is
 * neither first nor last in the chain (n when there is none, or when it lies at or past extent). */
static uint64_t pages_before_inner_empty(MDL *first, uint64_t extent, uint64_t max_mdls, ULONG page_size, uint64_t n) {
    uint64_t covered = 0, walked = 0;
    for (MDL *m = first; m != NULL && walked < max_mdls && covered < extent; m = m->Next, walked++) {
        if (m->ByteCount == 0 && m != first && m->Next != NULL) {
            uint64_t kept = ADDRESS_AND_SIZE_TO_SPAN_PAGES_EX(mdl_va(first) & (page_size - 1), covered, (uint64_t)page_size);
            return kept < n ? kept : n;
        }
        covered = sat_add(covered, m->ByteCount);
    }
    return n;
}
#endif

/* The page frames of the first extent bytes of a chain, one per page. Returns 0 when more than MAX_FRAMES. */
static int frames_from_chain(MDL *first, uint64_t extent, uint64_t max_mdls, ULONG page_size, uint64_t **out,
                             uint64_t *count) {
    uint64_t mask = page_size - 1;
    uint64_t cap = 16, n = 0, covered = 0, walked = 0;
    uint64_t *frames = malloc(cap * sizeof *frames);
    if (frames == NULL) return 0;
    for (MDL *m = first; m != NULL && walked < max_mdls && covered < extent; m = m->Next) {
        walked++;
        uint64_t bytes = m->ByteCount;
        if (bytes == 0) continue;
        uint64_t take = bytes < extent - covered ? bytes : extent - covered;
        uint64_t span = ADDRESS_AND_SIZE_TO_SPAN_PAGES_EX(m->ByteOffset, take, (uint64_t)page_size);
        uint64_t pages = span < m->PfnCount ? span : m->PfnCount;
        uint64_t from = (n > 0 && (m->ByteOffset & mask) != 0) ? 1 : 0;
        if (pages < from) continue;
        uint64_t adding = pages - from;
        if (n + adding > MAX_FRAMES) {
            free(frames);
            return 0;
        }
        if (n + adding > cap) {
            while (n + adding > cap) cap *= 2;
            uint64_t *grown = realloc(frames, cap * sizeof *frames);
            if (grown == NULL) {
                free(frames);
                return 0;
            }
            frames = grown;
        }
        memcpy(frames + n, m->PfnArray + from, adding * sizeof *frames);
        n += adding;
        covered = sat_add(covered, take);
    }
    *out = frames;
    *count = n;
    return 1;
}

/* A run of bytes over page frames: byte p of the run lies in frames[(position + p) / PAGE_SIZE]. */
typedef struct span {
    const uint64_t *frames;
    uint64_t nframes;
    uint64_t position;
    uint64_t length;
} span;

/* True when frames back every byte of [position, position + length). */
static int backs(const uint64_t *frames, uint64_t nframes, uint64_t position, uint64_t length, ULONG page_size) {
    (void)frames;
    if (length == 0) return 1;
    if (last_byte_wraps(position, length)) return 0;
    return (position + length - 1) / page_size < nframes;
}

/* Copies min(bytes of from, bytes of to) between page frames, in order, through the host's DMA services. */
static void move_bytes(adapter *a, span *from, int nfrom, const uint8_t *from_bytes, uint64_t from_length,
                       span *to, int nto) {
    ULONG ps = a->host.PageSize;
    uint8_t *buffer = malloc(ps);
    if (buffer == NULL) return;
    int si = 0, di = 0;
    uint64_t sdone = 0, ddone = 0, bdone = 0;
    for (;;) {
        uint64_t srun;
        if (from_bytes != NULL) {
            if (bdone >= from_length) break;
            srun = from_length - bdone;
        } else {
            while (si < nfrom && sdone == from[si].length) si++, sdone = 0;
            if (si >= nfrom) break;
            uint64_t pos = from[si].position + sdone;
            uint64_t in_frame = ps - pos % ps;
            srun = from[si].length - sdone < in_frame ? from[si].length - sdone : in_frame;
        }
        while (di < nto && ddone == to[di].length) di++, ddone = 0;
        if (di >= nto) break;
        uint64_t dpos = to[di].position + ddone;
        uint64_t din_frame = ps - dpos % ps;
        uint64_t drun = to[di].length - ddone < din_frame ? to[di].length - ddone : din_frame;
        ULONG chunk = (ULONG)(srun < drun ? srun : drun);
        if (from_bytes != NULL) {
            memcpy(buffer, from_bytes + bdone, chunk);
            bdone += chunk;
        } else {
            uint64_t pos = from[si].position + sdone;
            a->host.ReadFrame(a->host.HostContext, from[si].frames[pos / ps], (ULONG)(pos % ps), buffer, chunk);
            sdone += chunk;
        }
        a->host.WriteFrame(a->host.HostContext, to[di].frames[dpos / ps], (ULONG)(dpos % ps), buffer, chunk);
        ddone += chunk;
    }
    free(buffer);
}

/* Reads every byte of the spans into one buffer (INLINE data when posted). */
static uint8_t *gather(adapter *a, span *from, int n, uint64_t total) {
    ULONG ps = a->host.PageSize;
    uint8_t *bytes = malloc(total == 0 ? 1 : total);
    if (bytes == NULL) return NULL;
    uint64_t done = 0;
    for (int i = 0; i < n; i++) {
        for (uint64_t k = 0; k < from[i].length;) {
            uint64_t pos = from[i].position + k;
            uint64_t run = ps - pos % ps;
            if (run > from[i].length - k) run = from[i].length - k;
            a->host.ReadFrame(a->host.HostContext, from[i].frames[pos / ps], (ULONG)(pos % ps), bytes + done, (ULONG)run);
            done += run;
            k += run;
        }
    }
    return bytes;
}

/* ============================================================================ logical addresses (LAMs) */

/* The LAM whose run starts at or below address (runs are disjoint and ascending), or NULL. */
static lam *lam_floor(adapter *a, uint64_t address) {
    lam *cached = a->last_lam;
    if (cached != NULL && address - cached->base < cached->size) return cached;
    if (address < LOGICAL_ADDRESS_BASE || a->nlams == 0) return NULL;
    size_t lo = 0, hi = a->nlams;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->lams[mid]->base <= address) lo = mid;
        else hi = mid;
    }
    if (a->lams[lo]->base > address) return NULL;
    a->last_lam = a->lams[lo];
    return a->lams[lo];
}

/* The live LAM holding all of [address, address + length) (for length 0: address inside), or NULL. */
static lam *lam_holding(adapter *a, uint64_t address, uint64_t length) {
    lam *l = lam_floor(a, address);
    if (l == NULL || !l->live) return NULL;
    uint64_t offset = address - l->base;
    return offset < l->size && length <= l->size - offset ? l : NULL;
}

/* ============================================================================ adapter */

static NTSTATUS query_adapter_info(NDK_ADAPTER *pa, NDK_ADAPTER_INFO *info, ULONG *size) {
    adapter *a = (adapter *)pa;
    if (size == NULL) return STATUS_INVALID_PARAMETER;
    if (info == NULL || *size < sizeof *info) {
        *size = sizeof *info;
        return STATUS_BUFFER_TOO_SMALL;
    }
    memset(info, 0, sizeof *info);
    info->InfoVersion = NDK_ADAPTER_INFO_VERSION;
    info->Version.Major = 1;
    info->Version.Minor = (USHORT)a->cfg.version_minor;
    info->MaxRegistrationSize = a->cfg.max_registration_size;
    info->MaxWindowSize = 0;
    info->FRMRPageCount = a->cfg.frmr_page_count;
    info->MaxInitiatorRequestSge = MAX_SGE;
    info->MaxReceiveRequestSge = MAX_SGE;
    info->MaxReadRequestSge = MAX_SGE;
    info->MaxTransferLength = (ULONG)MAX_TRANSFER_LENGTH;
    info->MaxInlineDataSize = MAX_INLINE_DATA_SIZE;
    info->MaxInboundReadLimit = MAX_READ_LIMIT;
    info->MaxOutboundReadLimit = MAX_READ_LIMIT;
    info->MaxReceiveQueueDepth = MAX_QUEUE_DEPTH;
    info->MaxInitiatorQueueDepth = MAX_QUEUE_DEPTH;
    info->MaxCqDepth = MAX_CQ_DEPTH;
    info->AdapterFlags = a->flags;
    info->RdmaTechnology = a->cfg.transport; /* the transport the kit judges TR-1 by */
    *size = sizeof *info;
    return STATUS_SUCCESS;
}

static NTSTATUS create_pd(NDK_ADAPTER *pa, NDK_FN_CREATE_COMPLETION completion, PVOID ctx, NDK_PD **out) {
    adapter *a = (adapter *)pa;
    LOCK(a);
    if (a->closed) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_CREATE, NULL, ctx);
    j->create_cb = completion;
    j->create = C_PD;
    return create_call(j, (PVOID *)out);
}

static NTSTATUS create_cq(NDK_ADAPTER *pa, ULONG depth, NDK_FN_CQ_NOTIFICATION_CALLBACK notify, PVOID notify_ctx,
                          PVOID affinity, NDK_FN_CREATE_COMPLETION completion, PVOID ctx, NDK_CQ **out) {
    (void)notify;
    (void)notify_ctx;
    (void)affinity;
    adapter *a = (adapter *)pa;
    LOCK(a);
    if (a->closed || depth == 0 || depth > MAX_CQ_DEPTH) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_CREATE, NULL, ctx);
    j->create_cb = completion;
    j->create = C_CQ;
    j->depth = depth;
    return create_call(j, (PVOID *)out);
}

/* Under the lock: NdkBuildLam's work. */
static NTSTATUS do_build_lam(adapter *a, MDL *mdl, uint64_t length, NDK_LOGICAL_ADDRESS_MAPPING *out, ULONG *lam_size,
                             ULONG *pfbo) {
    if (a->closed) return STATUS_CANCELLED;
    ULONG ps = a->host.PageSize;
    chain c = walk_chain(mdl, length, ps);
    if (length == 0) return STATUS_INVALID_PARAMETER;                 /* LAM-1/zero-length */
    if (last_byte_wraps(c.va, length)) return STATUS_INVALID_PARAMETER; /* LAM-1/wrap */
    if (length > c.total) return STATUS_INVALID_PARAMETER;            /* LAM-1/chain-too-short */
    if (!c.contiguous || c.cyclic) return STATUS_INVALID_PARAMETER;   /* LAM-2 */
    if (c.split) return STATUS_INVALID_PARAMETER;                     /* LAM-2/split-page */
    uint64_t offset = c.va & (ps - 1);
    uint64_t pages = length / ps + (offset + length % ps + ps - 1) / ps;
    uint64_t needed = 16 + 8 * pages;                                 /* LAM-3 */
    if ((needed >> 32) != 0) return STATUS_INVALID_PARAMETER;
    if ((uint64_t)*lam_size < needed) {
        *lam_size = (ULONG)needed;
        return STATUS_BUFFER_TOO_SMALL;
    }
    uint64_t *frames = NULL, n = 0;
    if (!frames_from_chain(mdl, length, c.count, ps, &frames, &n)) return STATUS_INSUFFICIENT_RESOURCES;
#if defined(FAULT_LAM_EMPTY_MDL)
    n = pages_before_inner_empty(mdl, length, c.count, ps, n); /* the planted bug: the walk stops at the empty MDL */
#endif
    if (n == 0) {
        free(frames);
        return STATUS_INVALID_PARAMETER;
    }
    uint64_t size = n * ps;
    uint64_t span_bytes = size + ps; /* an unmapped guard page after every LAM */
    if (span_bytes > UINT64_MAX - a->next_logical) {
        free(frames);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    lam *l = calloc(1, sizeof *l);
    if (l == NULL) {
        free(frames);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    l->base = a->next_logical;
    a->next_logical += span_bytes;
    l->frames = frames;
    l->nframes = n;
    l->size = size;
    l->live = 1;
    l->owner = out;
    if (a->nlams == a->lam_cap) {
        a->lam_cap = a->lam_cap == 0 ? 16 : a->lam_cap * 2;
        a->lams = realloc(a->lams, a->lam_cap * sizeof *a->lams);
        if (a->lams == NULL) abort();
    }
    a->lams[a->nlams++] = l;
    out->AdapterContext = l;
    out->AdapterPageCount = (ULONG)n;
    for (uint64_t i = 0; i < n; i++) out->AdapterPageArray[i] = l->base + i * ps;
    *pfbo = (ULONG)offset;
    *lam_size = (ULONG)(16 + 8 * n);
    return STATUS_SUCCESS;
}

static NTSTATUS build_lam(NDK_ADAPTER *pa, MDL *mdl, SIZE_T length, NDK_FN_REQUEST_COMPLETION completion, PVOID ctx,
                          NDK_LOGICAL_ADDRESS_MAPPING *out, ULONG *lam_size, ULONG *pfbo) {
    adapter *a = (adapter *)pa;
    LOCK(a);
    if (a->closed) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    if (completion == NULL) {
        NTSTATUS s = do_build_lam(a, mdl, length, out, lam_size, pfbo);
        UNLOCK(a);
        return s;
    }
    job *j = new_job(a, J_BUILD_LAM, NULL, ctx);
    j->request_cb = completion;
    j->mdl = mdl;
    j->length = length;
    j->lam = out;
    j->lam_size = lam_size;
    j->fbo = pfbo;
    job *early;
    NTSTATUS s = request(j, &early);
    if (s != STATUS_PENDING) free(j);
    UNLOCK(a);
    if (early != NULL) run_job(early);
    return s;
}

static VOID release_lam(NDK_ADAPTER *pa, NDK_LOGICAL_ADDRESS_MAPPING *m) {
    adapter *a = (adapter *)pa;
    LOCK(a);
    for (size_t i = 0; m != NULL && i < a->nlams; i++) {
        lam *l = a->lams[i];
        if ((void *)l == m->AdapterContext && l->owner == m && l->live) {
            l->live = 0;
            break;
        }
    }
    UNLOCK(a);
}

static NTSTATUS connect_loopback(NDK_QP *pa, NDK_QP *pb) {
    qp *x = (qp *)pa, *y = (qp *)pb;
    if (x == NULL || y == NULL || x->o.a != y->o.a) return STATUS_INVALID_PARAMETER;
    adapter *a = x->o.a;
    LOCK(a);
    if (a->closed || x == y || x->o.life != LIFE_OPEN || y->o.life != LIFE_OPEN || x->state != QP_UNCONNECTED
        || y->state != QP_UNCONNECTED) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    x->peer = y;
    x->state = QP_CONNECTED;
    y->peer = x;
    y->state = QP_CONNECTED;
    UNLOCK(a);
    return STATUS_SUCCESS;
}

static void free_adapter(adapter *a) {
    for (object *o = a->all_objects; o != NULL;) {
        object *next = o->all_next;
        if (o->Header.ObjectType == NdkObjectTypeCq) free(((cq *)o)->entries);
        free(o);
        o = next;
    }
    for (region *r = a->all_regions; r != NULL;) {
        region *next = r->all_next;
#if !defined(FAULT_UAF) && !defined(FAULT_DOUBLE_FREE)
        free(r->frames);
#endif
        free(r);
        r = next;
    }
    for (wr *w = a->all_wrs; w != NULL;) {
        wr *next = w->all_next;
        free(w->sgl);
        free(w->inline_data);
        free(w);
        w = next;
    }
    for (size_t i = 0; i < a->nlams; i++) {
        free(a->lams[i]->frames);
        free(a->lams[i]);
    }
    free(a->lams);
    free(a->tokens);
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->quiet);
    free(a);
}

/* NdkCloseAdapter: closes what the consumer left open, then waits until every callback has returned. */
static NTSTATUS close_adapter(NDK_OBJECT_HEADER *h, NDK_FN_CLOSE_COMPLETION completion, PVOID ctx) {
    (void)completion;
    (void)ctx;
    adapter *a = (adapter *)h;
    LOCK(a);
    if (!a->closed) {
        a->closed = 1;
        for (int pass = 0; pass < 2; pass++) {
            for (object *o = a->all_objects; o != NULL; o = o->all_next) {
                int first = o->Header.ObjectType == NdkObjectTypeQp || o->Header.ObjectType == NdkObjectTypeMr;
                if (o->life != LIFE_CLOSED && (pass == 1 || first)) force_close(o);
            }
        }
        for (size_t i = 0; i < a->nlams; i++) a->lams[i]->live = 0;
    }
    int own = 0;
    for (int i = 0; i < in_callback_depth && i < 16; i++) own += in_callback[i] == a;
    while (a->inflight > own) pthread_cond_wait(&a->quiet, &a->lock);
    UNLOCK(a);
    if (own > 0) return STATUS_SUCCESS; /* closed from inside its own callback (a consumer error): keep the memory */
    while (atomic_load(&a->threads) > 0) nanosleep(&(struct timespec){.tv_nsec = 100000}, NULL);
    free_adapter(a);
    return STATUS_SUCCESS;
}

static const NDK_ADAPTER_DISPATCH ADAPTER_DISPATCH = {
    .NdkCloseAdapter = close_adapter,
    .NdkQueryAdapterInfo = query_adapter_info,
    .NdkCreateCq = create_cq,
    .NdkCreatePd = create_pd,
    .NdkBuildLam = build_lam,
    .NdkReleaseLam = release_lam,
    .NdkTckConnectLoopback = connect_loopback,
};

NDK_TCK_EXPORT NTSTATUS NdkTckOpenAdapter(PVOID cfg, const NDK_TCK_HOST *host, NDK_ADAPTER **out) {
    if (cfg == NULL || host == NULL || out == NULL) return STATUS_INVALID_PARAMETER;
    adapter *a = calloc(1, sizeof *a);
    if (a == NULL) return STATUS_INSUFFICIENT_RESOURCES;
    a->cfg = *(config *)cfg;
    a->host = *host;
    if (a->host.PageSize != a->cfg.page_size) {
        free(a);
        return STATUS_INVALID_PARAMETER;
    }
    header_init(&a->ndk.Header, a, NdkObjectTypeAdapter);
    a->ndk.Dispatch = &ADAPTER_DISPATCH;
    a->flags = NDK_ADAPTER_FLAG_IN_ORDER_DMA_SUPPORTED | NDK_ADAPTER_FLAG_LOOPBACK_CONNECTIONS_SUPPORTED;
    if (a->cfg.read_sink_not_required) a->flags |= NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED;
    if (a->cfg.version_minor >= 2) a->flags |= NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED;
    a->rng = a->cfg.seed;
    a->next_logical = LOGICAL_ADDRESS_BASE;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->quiet, NULL);
    atomic_init(&a->threads, 0);
    *out = &a->ndk;
    return STATUS_SUCCESS;
}

/* ============================================================================ PD */

static NTSTATUS create_mr(NDK_PD *pp, BOOLEAN fast, NDK_FN_CREATE_COMPLETION completion, PVOID ctx, NDK_MR **out) {
    pd *p = (pd *)pp;
    adapter *a = p->o.a;
    LOCK(a);
    if (a->closed || p->o.life != LIFE_OPEN) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_CREATE, &p->o, ctx);
    j->create_cb = completion;
    j->create = C_MR;
    j->pd = p;
    j->fast = fast != 0;
    return create_call(j, (PVOID *)out);
}

static NTSTATUS create_qp(NDK_PD *pp, NDK_CQ *receive_cq, NDK_CQ *initiator_cq, PVOID qp_context, ULONG receive_depth,
                          ULONG initiator_depth, ULONG max_receive_sge, ULONG max_initiator_sge, ULONG inline_size,
                          NDK_FN_CREATE_COMPLETION completion, PVOID ctx, NDK_QP **out) {
    pd *p = (pd *)pp;
    adapter *a = p->o.a;
    cq *rcq = (cq *)receive_cq, *icq = (cq *)initiator_cq;
    LOCK(a);
    int limits = receive_depth <= MAX_QUEUE_DEPTH && initiator_depth <= MAX_QUEUE_DEPTH && max_receive_sge <= MAX_SGE
                 && max_initiator_sge <= MAX_SGE && inline_size <= MAX_INLINE_DATA_SIZE;
    if (a->closed || p->o.life != LIFE_OPEN || rcq == NULL || icq == NULL || rcq->o.a != a || icq->o.a != a
        || rcq->o.life != LIFE_OPEN || icq->o.life != LIFE_OPEN || !limits) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_CREATE, &p->o, ctx);
    j->create_cb = completion;
    j->create = C_QP;
    j->pd = p;
    j->rcq = rcq;
    j->icq = icq;
    j->qp_context = qp_context;
    j->qp_limits[0] = receive_depth;
    j->qp_limits[1] = initiator_depth;
    j->qp_limits[2] = max_receive_sge;
    j->qp_limits[3] = max_initiator_sge;
    j->qp_limits[4] = inline_size;
    return create_call(j, (PVOID *)out);
}

static UINT32 get_privileged_token(NDK_PD *pp) {
    return ((pd *)pp)->privileged_token;
}

static const NDK_PD_DISPATCH PD_DISPATCH = {
    .NdkClosePd = close_object,
    .NdkCreateQp = create_qp,
    .NdkCreateMr = create_mr,
    .NdkGetPrivilegedMemoryRegionToken = get_privileged_token,
};

/* ============================================================================ MR */

static enum mr_state mr_view_state(const mr *m) {
    return m->o.life == LIFE_OPEN ? m->state : m->o.life == LIFE_CLOSING ? MR_CLOSING : MR_CLOSED;
}

static int mr_flags_to_access(ULONG f) {
    int access = 0;
    if (f & NDK_MR_FLAG_ALLOW_LOCAL_WRITE) access |= ACC_LOCAL_WRITE;
    if (f & NDK_MR_FLAG_ALLOW_REMOTE_READ) access |= ACC_REMOTE_READ;
    if (HAS(f, NDK_MR_FLAG_ALLOW_REMOTE_WRITE)) access |= ACC_REMOTE_WRITE | ACC_LOCAL_WRITE;
    if (f & NDK_MR_FLAG_RDMA_READ_SINK) access |= ACC_READ_SINK;
    return access;
}

static int fr_flags_to_access(ULONG f) {
    int access = 0;
    if (f & NDK_OP_FLAG_ALLOW_LOCAL_WRITE) access |= ACC_LOCAL_WRITE;
    if (f & NDK_OP_FLAG_ALLOW_REMOTE_READ) access |= ACC_REMOTE_READ;
    if (HAS(f, NDK_OP_FLAG_ALLOW_REMOTE_WRITE)) access |= ACC_REMOTE_WRITE | ACC_LOCAL_WRITE;
    if (f & NDK_OP_FLAG_RDMA_READ_SINK) access |= ACC_READ_SINK;
    return access;
}

static region *new_region(adapter *a, mr *m, UINT32 token, uint64_t base, uint64_t length, ULONG fbo, int access,
                          int fast, uint64_t *frames, uint64_t nframes, enum region_state state) {
    region *r = calloc(1, sizeof *r);
    if (r == NULL) abort();
    r->mr = m;
    r->pd = m->pd;
    r->token = token;
    r->base = base;
    r->length = length;
    r->fbo = fbo;
    r->access = access;
    r->fast = fast;
    r->frames = frames;
    r->nframes = nframes;
    r->state = state;
    r->all_next = a->all_regions;
    a->all_regions = r;
    return r;
}

/* Under the lock: NdkRegisterMr's work; checks in the reference's order (MR-CREATE-1 ... MR-REG-7). */
static NTSTATUS do_register(adapter *a, mr *m, MDL *mdl, uint64_t length, ULONG flags) {
    if (m->o.life != LIFE_OPEN) return STATUS_CANCELLED;
    ULONG ps = a->host.PageSize;
    chain c = walk_chain(mdl, length, ps);
    if (m->fast) return STATUS_INVALID_PARAMETER;                        /* MR-CREATE-1 */
    if (mr_view_state(m) != MR_CREATED) return STATUS_INVALID_PARAMETER; /* AMB-13: not registered yet */
    if (length == 0) return STATUS_INVALID_PARAMETER;                    /* MR-REG-11 */
    if (last_byte_wraps(c.va, length)) return STATUS_INVALID_PARAMETER;  /* MR-REG-12 */
    if (length > c.total) return STATUS_INVALID_PARAMETER;               /* MR-REG-13 */
    if (!c.contiguous || c.cyclic) return STATUS_INVALID_PARAMETER;      /* MR-REG-2 */
    if (c.split) return STATUS_INVALID_PARAMETER;                        /* MR-REG-2/split-page */
    if ((flags & ~0xFu) != 0 || ((flags & 0x4) != 0 && (flags & NDK_MR_FLAG_ALLOW_LOCAL_WRITE) == 0))
        return STATUS_INVALID_PARAMETER;                                 /* MR-REG-14 */
    /* MR-REG-10: the NdkRegisterMr page keeps STATUS_INVALID_PARAMETER for a chain that is not virtually contiguous;
       a Length past MaxRegistrationSize gets one of its other status codes */
    if (length > a->cfg.max_registration_size) return STATUS_INVALID_BUFFER_SIZE;
#if defined(FAULT_MR_REG_7)
    if (flags & NDK_MR_FLAG_RDMA_READ_SINK) return STATUS_INVALID_PARAMETER; /* the planted bug */
#endif
#if defined(FAULT_SEGV)
    if (flags & NDK_MR_FLAG_RDMA_READ_SINK) *(volatile int *)(uintptr_t)0 = 1; /* the planted crash */
#endif
    uint64_t *frames = NULL, n = 0;
    if (!frames_from_chain(mdl, length, c.count, ps, &frames, &n)) return STATUS_INSUFFICIENT_RESOURCES;
    UINT32 fresh = token_allocate(a);
    region *r = new_region(a, m, fresh, c.va, length, (ULONG)(c.va & (ps - 1)), mr_flags_to_access(flags), 0, frames,
                           n, REGION_LIVE);
    token_put(a, fresh, TK_REGION, r);
    m->token = fresh;
    m->region = r;
    m->state = MR_REGISTERED;
    return STATUS_SUCCESS;
}

static NTSTATUS do_deregister(adapter *a, mr *m) {
    if (m->o.life != LIFE_OPEN) return STATUS_CANCELLED;
    if (m->fast || m->state != MR_REGISTERED) return STATUS_INVALID_PARAMETER; /* MR-DEREG-1 */
#if defined(FAULT_UAF)
    (void)a;
    if (m->region != NULL) free(m->region->frames); /* the planted bug: the token stays live */
#else
#if defined(FAULT_DOUBLE_FREE)
    if (m->region != NULL) free(m->region->frames); /* the planted bug: retire frees it again */
#endif
    if (m->region != NULL) retire(a, m->region);
#endif
    m->region = NULL;
    m->state = MR_CREATED;
    return STATUS_SUCCESS;
}

static NTSTATUS do_initialize(adapter *a, mr *m, ULONG pages, int remote) {
    if (m->o.life != LIFE_OPEN) return STATUS_CANCELLED;
    enum mr_state s = mr_view_state(m);
    if (!m->fast || !(s == MR_CREATED || s == MR_INITIALIZED || s == MR_INVALIDATED))
        return STATUS_INVALID_PARAMETER;                                  /* MR-FRI-1 */
    if (pages == 0) return STATUS_INVALID_PARAMETER;                      /* MR-FRI-2/zero */
    if (pages > a->cfg.frmr_page_count) return STATUS_IMPLEMENTATION_LIMIT; /* MR-FRI-3 */
    m->remote_access = remote;
    m->initialized_pages = pages;
    token_slot *held = token_find(a, m->token);
    if (m->state != MR_INITIALIZED || held == NULL || held->holder != m) {
        /* the MR's own token until its first fast registration: reserved, grants nothing */
        UINT32 fresh = token_allocate(a);
        token_put(a, fresh, TK_MR, m);
        m->token = fresh;
    }
    m->state = MR_INITIALIZED;
    return STATUS_SUCCESS;
}

static NTSTATUS do_job(job *j, object **created) {
    adapter *a = j->a;
    switch (j->kind) {
    case J_REGISTER:
        return do_register(a, j->mr, j->mdl, j->length, j->flags);
    case J_DEREGISTER:
        return do_deregister(a, j->mr);
    case J_INITIALIZE:
        return do_initialize(a, j->mr, j->pages, j->remote);
    case J_BUILD_LAM:
        return do_build_lam(a, j->mdl, j->length, j->lam, j->lam_size, j->fbo);
    case J_CREATE:
        if (a->closed) {
            *created = NULL;
            return STATUS_CANCELLED;
        }
        return create_now(j, created);
    default:
        return STATUS_SUCCESS;
    }
}

/* The shape of every MR request: check the adapter, then inline or pending. */
static NTSTATUS mr_request(mr *m, job *j) {
    adapter *a = m->o.a;
    job *early;
    NTSTATUS s = request(j, &early);
    if (s != STATUS_PENDING) free(j);
    UNLOCK(a);
    if (early != NULL) run_job(early);
    return s;
}

static NTSTATUS register_mr(NDK_MR *pm, MDL *mdl, SIZE_T length, ULONG flags, NDK_FN_REQUEST_COMPLETION completion,
                            PVOID ctx) {
    mr *m = (mr *)pm;
    adapter *a = m->o.a;
#if defined(FAULT_HANG)
    for (;;) pause(); /* the planted hang */
#endif
#if defined(FAULT_RARE_HANG)
    for (volatile uint64_t spin = 0; length == 0; spin++) {
    } /* the planted busy loop */
#endif
    LOCK(a);
    if (a->closed) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_REGISTER, &m->o, ctx);
    j->request_cb = completion;
    j->mr = m;
    j->mdl = mdl;
    j->length = length;
    j->flags = flags;
    return mr_request(m, j);
}

static NTSTATUS deregister_mr(NDK_MR *pm, NDK_FN_REQUEST_COMPLETION completion, PVOID ctx) {
    mr *m = (mr *)pm;
    adapter *a = m->o.a;
    LOCK(a);
    if (a->closed) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_DEREGISTER, &m->o, ctx);
    j->request_cb = completion;
    j->mr = m;
    return mr_request(m, j);
}

static NTSTATUS initialize_fast_register_mr(NDK_MR *pm, ULONG pages, BOOLEAN remote,
                                            NDK_FN_REQUEST_COMPLETION completion, PVOID ctx) {
    mr *m = (mr *)pm;
    adapter *a = m->o.a;
    LOCK(a);
    if (a->closed) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    job *j = new_job(a, J_INITIALIZE, &m->o, ctx);
    j->request_cb = completion;
    j->mr = m;
    j->pages = pages;
    j->remote = remote != 0;
    return mr_request(m, j);
}

#if defined(FAULT_RACE)
static uint64_t token_reads; /* the planted race: counted without a lock */
#endif

static UINT32 get_token(NDK_MR *pm) {
    mr *m = (mr *)pm;
#if defined(FAULT_RACE)
    token_reads++;
#endif
    LOCK(m->o.a);
    UINT32 t = m->token;
    UNLOCK(m->o.a);
    return t;
}

static const NDK_MR_DISPATCH MR_DISPATCH = {
    .NdkCloseMr = close_object,
    .NdkInitializeFastRegisterMr = initialize_fast_register_mr,
    .NdkRegisterMr = register_mr,
    .NdkDeregisterMr = deregister_mr,
    .NdkGetLocalTokenFromMr = get_token,
    .NdkGetRemoteTokenFromMr = get_token,
};

/* A registration of m stopped (or should stop) granting access. */
static void mr_invalidated(adapter *a, region *r) {
    mr *m = r->mr;
    retire(a, r);
    if (m->live_region == r) m->live_region = NULL;
    if (m->region == r && m->state == MR_FAST_REGISTERED) m->state = MR_INVALIDATED;
}

/* ============================================================================ CQ */

static void cq_add(cq *c, NTSTATUS status, ULONG bytes, PVOID qp_context, PVOID ctx, NDK_OPERATION_TYPE type,
                   ULONG_PTR specific) {
    if (c->o.life == LIFE_CLOSED) return;
    if (c->head + c->count == c->cap) {
        if (c->head > 0) {
            memmove(c->entries, c->entries + c->head, c->count * sizeof *c->entries);
            c->head = 0;
        }
        if (c->count == c->cap) {
            c->cap = c->cap == 0 ? 16 : c->cap * 2;
            c->entries = realloc(c->entries, c->cap * sizeof *c->entries);
            if (c->entries == NULL) abort();
        }
    }
    NDK_RESULT_EX *e = &c->entries[c->head + c->count++];
    e->Status = status;
    e->BytesTransferred = bytes;
    e->QPContext = qp_context;
    e->RequestContext = ctx;
    e->Type = type;
    e->TypeSpecificCompletionOutput = specific;
}

static ULONG get_cq_results_ex(NDK_CQ *pc, NDK_RESULT_EX *results, ULONG n) {
    cq *c = (cq *)pc;
    LOCK(c->o.a);
    ULONG k = 0;
    while (k < n && c->count > 0) {
        results[k++] = c->entries[c->head++];
        c->count--;
    }
    if (c->count == 0) c->head = 0;
    UNLOCK(c->o.a);
    return k;
}

static ULONG get_cq_results(NDK_CQ *pc, NDK_RESULT *results, ULONG n) {
    cq *c = (cq *)pc;
    LOCK(c->o.a);
    ULONG k = 0;
    while (k < n && c->count > 0) {
        NDK_RESULT_EX *e = &c->entries[c->head++];
        c->count--;
        results[k].Status = e->Status;
        results[k].BytesTransferred = e->BytesTransferred;
        results[k].QPContext = e->QPContext;
        results[k].RequestContext = e->RequestContext;
        k++;
    }
    if (c->count == 0) c->head = 0;
    UNLOCK(c->o.a);
    return k;
}

static const NDK_CQ_DISPATCH CQ_DISPATCH = {
    .NdkCloseCq = close_object,
    .NdkGetCqResults = get_cq_results,
    .NdkGetCqResultsEx = get_cq_results_ex,
};

/* ============================================================================ work requests */

static NDK_OPERATION_TYPE operation_type(enum wr_type t) {
    switch (t) {
    case WR_FAST_REGISTER: return NdkOperationTypeFastRegister;
    case WR_INVALIDATE: return NdkOperationTypeInvalidate;
    case WR_READ: return NdkOperationTypeRead;
    case WR_WRITE: return NdkOperationTypeWrite;
    case WR_SEND:
    case WR_SEND_AND_INVALIDATE: return NdkOperationTypeSend;
    case WR_RECEIVE:
    default: return NdkOperationTypeReceive;
    }
}

static void push(queue *q, wr *w) {
    w->next = NULL;
    if (q->tail != NULL) q->tail->next = w;
    else q->head = w;
    q->tail = w;
}

static wr *pop(queue *q) {
    wr *w = q->head;
    if (w != NULL) {
        q->head = w->next;
        if (q->head == NULL) q->tail = NULL;
        w->next = NULL;
    }
    return w;
}

static uint64_t total_bytes(const wr *w) {
    uint64_t total = 0;
    for (ULONG i = 0; i < w->nsge; i++) total = sat_add(total, w->sgl[i].Length);
    return total;
}

/* Completes a request: one CQ entry, unless it succeeded with SILENT_SUCCESS. */
static void complete(wr *w, NTSTATUS status, uint64_t bytes, NDK_OPERATION_TYPE type, ULONG_PTR specific) {
    if (w->done) return;
    w->done = 1;
    if (status == STATUS_SUCCESS && w->type != WR_RECEIVE && (w->flags & NDK_OP_FLAG_SILENT_SUCCESS)) return;
    cq *c = w->type == WR_RECEIVE ? w->qp->rcq : w->qp->icq;
    cq_add(c, status, (ULONG)bytes, w->qp->qp_context, w->ctx, type, specific);
}

static void fail(adapter *a, wr *w, NTSTATUS status) {
    if (w->done) return;
    if (w->type == WR_FAST_REGISTER && w->region != NULL) mr_invalidated(a, w->region); /* never takes effect */
    complete(w, status, 0, operation_type(w->type), 0);
}

static void succeed(wr *w) {
    complete(w, STATUS_SUCCESS, 0, operation_type(w->type), 0);
}

/* byte-exact, unsigned: base <= address and address + length <= base + Length, address inside. */
static int in_bounds(const region *r, uint64_t address, uint64_t length) {
    uint64_t offset = address - r->base;
    return offset < r->length && length <= r->length - offset;
}

static uint64_t position_of(const region *r, uint64_t address) {
    return r->fbo + (address - r->base);
}

/* The owner of a token: the registration, the PD (privileged token), or nothing. */
typedef struct holder {
    int kind;
    region *region;
    pd *pd;
} holder;

static holder holder_of(adapter *a, UINT32 token) {
    holder h = {0, NULL, NULL};
    token_slot *s = token_find(a, token);
    if (s == NULL) return h;
    if (s->kind == TK_REGION) {
        h.kind = TK_REGION;
        h.region = s->holder;
    } else if (s->kind == TK_PD) {
        h.kind = TK_PD;
        h.pd = s->holder;
    }
    return h;
}

/* One local SGE: SGE-2/token, SGE-1, SGE-2/bounds, MR-FR-12, MR-REG-6, then its bytes. */
static NTSTATUS local_span(adapter *a, qp *q, const NDK_SGE *sge, int sink, enum wr_type type, span *out) {
    holder h = holder_of(a, sge->MemoryRegionToken);
    uint64_t address = sge->LogicalAddress, length = sge->Length;
    region *r = h.region;
    int same_pd = r != NULL ? r->pd == q->pd : (h.kind == TK_PD && h.pd == q->pd);
    lam *l = h.kind == TK_PD ? lam_holding(a, address, length) : NULL;
    int bounded = r != NULL && in_bounds(r, address, length);
    ULONG ps = a->host.PageSize;
    switch (h.kind) { /* SGE-2/token */
    case TK_PD:
        if (!same_pd) return STATUS_ACCESS_VIOLATION;
        break;
    case TK_REGION:
        if (!same_pd || r->state != REGION_LIVE) return STATUS_ACCESS_VIOLATION;
        break;
    default:
        return STATUS_ACCESS_VIOLATION;
    }
    if (h.kind == TK_PD && l == NULL) return STATUS_ACCESS_VIOLATION;                       /* SGE-1 */
    if (h.kind == TK_REGION && !bounded) return STATUS_ACCESS_VIOLATION;                    /* SGE-2/bounds */
    if (sink && h.kind == TK_REGION && !HAS(r->access, ACC_LOCAL_WRITE)) return STATUS_ACCESS_VIOLATION; /* MR-FR-12 */
    if (sink && type == WR_READ && !(a->flags & NDK_ADAPTER_FLAG_RDMA_READ_SINK_NOT_REQUIRED)
        && !(h.kind == TK_REGION && HAS(r->access, ACC_READ_SINK)))
        return STATUS_ACCESS_VIOLATION;                                                     /* MR-REG-6 */
    if (r != NULL) {
        uint64_t pos = position_of(r, address);
        if (!backs(r->frames, r->nframes, pos, length, ps)) return STATUS_ACCESS_VIOLATION;
        *out = (span){r->frames, r->nframes, pos, length};
    } else {
        uint64_t pos = address - l->base;
        if (!backs(l->frames, l->nframes, pos, length, ps)) return STATUS_ACCESS_VIOLATION;
        *out = (span){l->frames, l->nframes, pos, length};
    }
    return STATUS_SUCCESS;
}

/* The target of a Read or Write: PRIV-2, RW-TOKEN, RW-TOKEN-PD, MR-REG-8, MR-REG-4, then its bytes. */
static NTSTATUS remote_span(adapter *a, qp *target, wr *w, uint64_t total, span *out) {
    holder h = holder_of(a, w->remote_token);
    if (h.kind != TK_REGION) return STATUS_ACCESS_VIOLATION; /* PRIV-2 or RW-TOKEN */
    region *r = h.region;
    int read = w->type == WR_READ;
    if (r->state != REGION_LIVE) return STATUS_ACCESS_VIOLATION;                   /* RW-TOKEN */
    if (r->pd != target->pd) return STATUS_ACCESS_VIOLATION;                       /* RW-TOKEN-PD */
    if (!HAS(r->access, read ? ACC_REMOTE_READ : ACC_REMOTE_WRITE)) return STATUS_ACCESS_VIOLATION; /* MR-REG-8 */
#if defined(FAULT_MR_REG_4_WRAP)
    /* the planted bug: offset + length wraps, so an address just below the base passes */
    int bounded = r->fast ? in_bounds(r, w->remote_address, total)
                          : (w->remote_address - r->base) + total <= r->length;
#else
    int bounded = in_bounds(r, w->remote_address, total);
#endif
    if (!bounded) return read ? STATUS_REMOTE_RESOURCES : STATUS_ACCESS_VIOLATION; /* MR-REG-4 */
    uint64_t pos = position_of(r, w->remote_address);
    if (!backs(r->frames, r->nframes, pos, total, a->host.PageSize)) return STATUS_ACCESS_VIOLATION;
    *out = (span){r->frames, r->nframes, pos, total};
    return STATUS_SUCCESS;
}

static void abort_connection(qp *q);

/* INV-1/remote: the token names a live fast registration of the PD where it is invalidated. */
static NTSTATUS remote_invalidate_check(adapter *a, UINT32 token, pd *where, region **out) {
    holder h = holder_of(a, token);
    *out = NULL;
    if (h.kind != TK_REGION || h.region->state != REGION_LIVE || !h.region->fast || h.region->pd != where)
        return STATUS_ACCESS_VIOLATION;
    *out = h.region;
    return STATUS_SUCCESS;
}

static void rdma(adapter *a, wr *w) {
    qp *q = w->qp, *peer = q->peer;
    if (peer == NULL || peer->state != QP_CONNECTED) {
        fail(a, w, STATUS_CONNECTION_INVALID);
        return;
    }
    int read = w->type == WR_READ;
    uint64_t total = w->has_inline ? w->inline_length : total_bytes(w);
    span local[MAX_SGE + 1];
    span *spans = w->nsge <= MAX_SGE ? local : malloc(w->nsge * sizeof *spans);
    if (spans == NULL) {
        fail(a, w, STATUS_INSUFFICIENT_RESOURCES);
        return;
    }
    if (!w->has_inline) {
        for (ULONG i = 0; i < w->nsge; i++) {
            NTSTATUS s = local_span(a, q, &w->sgl[i], read, w->type, &spans[i]);
            if (s != STATUS_SUCCESS) {
                fail(a, w, s);
                goto out;
            }
        }
    }
    span remote;
    NTSTATUS s = remote_span(a, peer, w, total, &remote);
    if (s != STATUS_SUCCESS) {
        fail(a, w, s);
        goto out;
    }
    region *invalidate_after = NULL;
    if (read && (w->flags & NDK_OP_FLAG_RDMA_READ_LOCAL_INVALIDATE)
        && (a->flags & NDK_ADAPTER_FLAG_RDMA_READ_LOCAL_INVALIDATE_SUPPORTED)) {
        if (w->nsge == 0) {
            fail(a, w, STATUS_INVALID_PARAMETER);
            goto out;
        }
        s = remote_invalidate_check(a, w->sgl[0].MemoryRegionToken, q->pd, &invalidate_after);
        if (s != STATUS_SUCCESS) {
            fail(a, w, s);
            goto out;
        }
    }
    if (read) move_bytes(a, &remote, 1, NULL, 0, spans, (int)w->nsge);
    else if (w->has_inline) move_bytes(a, NULL, 0, w->inline_data, w->inline_length, &remote, 1);
    else move_bytes(a, spans, (int)w->nsge, NULL, 0, &remote, 1);
    if (invalidate_after != NULL) mr_invalidated(a, invalidate_after);
    succeed(w);
out:
    if (spans != local) free(spans);
}

/* Delivers a send into a receive: sources, sinks, size and (SendAndInvalidate) the token, then the bytes. */
static void match(adapter *a, wr *send, wr *recv) {
    span sources[MAX_SGE + 1], sinks[MAX_SGE + 1];
    uint64_t total;
    if (send->nsge > MAX_SGE || recv->nsge > MAX_SGE) { /* beyond what any QP accepts when posted */
        fail(a, recv, STATUS_INVALID_PARAMETER);
        fail(a, send, STATUS_INVALID_PARAMETER);
        return;
    }
    if (send->has_inline) {
        total = send->inline_length;
    } else {
        total = total_bytes(send);
        for (ULONG i = 0; i < send->nsge; i++) {
            NTSTATUS s = local_span(a, send->qp, &send->sgl[i], 0, send->type, &sources[i]);
            if (s != STATUS_SUCCESS) {
                fail(a, send, s);
                return;
            }
        }
    }
    for (ULONG i = 0; i < recv->nsge; i++) {
        NTSTATUS s = local_span(a, recv->qp, &recv->sgl[i], 1, WR_RECEIVE, &sinks[i]);
        if (s != STATUS_SUCCESS) {
            fail(a, recv, s);
            fail(a, send, STATUS_ACCESS_VIOLATION);
            return;
        }
    }
    if (total > total_bytes(recv)) {
        fail(a, recv, STATUS_BUFFER_TOO_SMALL);
        fail(a, send, STATUS_REMOTE_RESOURCES);
        return;
    }
    region *invalidate = NULL;
    if (send->type == WR_SEND_AND_INVALIDATE) {
        NTSTATUS s = remote_invalidate_check(a, send->remote_token, recv->qp->pd, &invalidate);
        if (s != STATUS_SUCCESS) {
            fail(a, recv, s);
            fail(a, send, s);
            abort_connection(recv->qp); /* INV-6: an invalid token aborts the connection at the receiver */
            return;
        }
    }
    if (send->has_inline) move_bytes(a, NULL, 0, send->inline_data, send->inline_length, sinks, (int)recv->nsge);
    else move_bytes(a, sources, (int)send->nsge, NULL, 0, sinks, (int)recv->nsge);
    if (invalidate != NULL) {
        mr_invalidated(a, invalidate);
        complete(recv, STATUS_SUCCESS, total, NdkOperationTypeReceiveAndInvalidate, send->remote_token);
    } else {
        complete(recv, STATUS_SUCCESS, total, NdkOperationTypeReceive, 0);
    }
    succeed(send);
}

static void send(adapter *a, wr *w) {
    qp *peer = w->qp->peer;
    if (peer == NULL || peer->state != QP_CONNECTED) {
        fail(a, w, STATUS_CONNECTION_INVALID);
        return;
    }
    if (!w->has_inline) { /* the adapter reads the sources when it processes the send */
        for (ULONG i = 0; i < w->nsge; i++) {
            span ignored;
            NTSTATUS s = local_span(a, w->qp, &w->sgl[i], 0, w->type, &ignored);
            if (s != STATUS_SUCCESS) {
                fail(a, w, s);
                return;
            }
        }
    }
    if (peer->receives.head != NULL) {
        match(a, w, pop(&peer->receives));
    } else if (a->cfg.transport == NdkiWarp) {
        /* iWARP has no receiver-not-ready retry: an untagged message with no buffer ends the connection (TR-1) */
        fail(a, w, STATUS_CONNECTION_ABORTED);
        abort_connection(w->qp);
    } else {
        push(&peer->inbound, w);
    }
}

static void receive(adapter *a, wr *w) {
    qp *q = w->qp;
    while (!w->done && q->inbound.head != NULL) match(a, pop(&q->inbound), w);
    if (!w->done) push(&q->receives, w);
}

static void process(adapter *a, wr *w) {
    switch (w->type) {
    case WR_FAST_REGISTER: {
        region *r = w->region;
        if (r->state != REGION_PENDING || r->mr->o.life != LIFE_OPEN) {
            fail(a, w, STATUS_CANCELLED);
            return;
        }
        mr *m = r->mr;
        if (m->live_region != NULL && m->live_region != r) retire(a, m->live_region);
        r->state = REGION_LIVE;
        m->live_region = r;
        succeed(w);
        return;
    }
    case WR_INVALIDATE:
        if (w->region == NULL || w->region->state != REGION_LIVE) {
            fail(a, w, STATUS_INVALID_PARAMETER);
            return;
        }
        mr_invalidated(a, w->region);
        succeed(w);
        return;
    case WR_READ:
    case WR_WRITE:
        rdma(a, w);
        return;
    case WR_SEND:
    case WR_SEND_AND_INVALIDATE:
        send(a, w);
        return;
    case WR_RECEIVE:
        receive(a, w);
        return;
    }
}

/* Under the lock: processes every queued request in post order. */
static void drain(adapter *a) {
    wr *w;
    while ((w = pop(&a->ready)) != NULL) {
        if (!w->done) process(a, w);
    }
}

/* Under the lock: queues accepted requests and gets them processed (inline, or on a worker thread). */
static void submit(adapter *a, queue *batch) {
    wr *w;
    while ((w = pop(batch)) != NULL) push(&a->ready, w);
    if (a->ready.head == NULL) return;
    if (a->cfg.completion != MODE_EARLY && choose_pending(a)) {
        if (!a->worker_scheduled) {
            a->worker_scheduled = 1;
            offload(new_job(a, J_DRAIN, NULL, NULL), 0);
        }
    } else {
        drain(a);
    }
}

static void cancel_queue(adapter *a, queue *q, NTSTATUS status) {
    wr *w;
    while ((w = pop(q)) != NULL) fail(a, w, status);
}

/* Under the lock: an initiator request failed inline; held DEFER requests are handed on first (DEF-4). */
static NTSTATUS fail_inline(qp *q, NTSTATUS status) {
    if (q->held.head != NULL) {
        queue batch = q->held;
        q->held.head = q->held.tail = NULL;
        submit(q->o.a, &batch);
    }
    return status;
}

/* Under the lock: an initiator request passed its inline checks. */
static void post(qp *q, wr *w) {
    adapter *a = q->o.a;
    if (q->state == QP_FLUSHED) {
        fail(a, w, STATUS_CANCELLED);
        return;
    }
    if (w->flags & NDK_OP_FLAG_DEFER) {
        push(&q->held, w);
        return;
    }
    queue batch = q->held;
    q->held.head = q->held.tail = NULL;
    push(&batch, w);
    submit(a, &batch);
}

static wr *new_wr(adapter *a, enum wr_type type, qp *q, PVOID ctx, ULONG flags) {
    wr *w = calloc(1, sizeof *w);
    if (w == NULL) abort();
    w->type = type;
    w->qp = q;
    w->ctx = ctx;
    w->flags = flags;
    w->all_next = a->all_wrs;
    a->all_wrs = w;
    return w;
}

static NTSTATUS fast_register(NDK_QP *pq, PVOID ctx, NDK_MR *pm, ULONG count, const NDK_LOGICAL_ADDRESS *pages,
                              ULONG fbo, SIZE_T length, PVOID base_va, ULONG flags) {
    qp *q = (qp *)pq;
    adapter *a = q->o.a;
    mr *m = (mr *)pm;
    uint64_t base = (uint64_t)(uintptr_t)base_va;
    ULONG ps = a->host.PageSize;
#if defined(FAULT_RACE)
    uint32_t raced = ++a->token_counter; /* the planted race: the counter moves without the lock */
#endif
    LOCK(a);
    if (a->closed || q->o.life != LIFE_OPEN) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS s = STATUS_SUCCESS;
    ULONG defined = NDK_OP_FLAG_SILENT_SUCCESS | NDK_OP_FLAG_READ_FENCE | NDK_OP_FLAG_ALLOW_REMOTE_READ
                    | NDK_OP_FLAG_ALLOW_REMOTE_WRITE | NDK_OP_FLAG_RDMA_READ_SINK
                    | (a->cfg.version_minor >= 2 ? NDK_OP_FLAG_DEFER : 0);
    enum mr_state st = m != NULL ? mr_view_state(m) : MR_CLOSED;
    if (m == NULL || m->o.a != a) s = STATUS_INVALID_PARAMETER;
    else if (q->peer == NULL) s = STATUS_CONNECTION_INVALID;                                   /* MR-FR-7 */
    else if (m->pd != q->pd || !m->fast || !(st == MR_INITIALIZED || st == MR_INVALIDATED))
        s = STATUS_INVALID_PARAMETER;                                                          /* MR-FR-1 */
    else if ((flags & ~defined) != 0) s = STATUS_INVALID_PARAMETER;                            /* MR-FR-5 */
    else if ((flags & 0x20) != 0 && (flags & NDK_OP_FLAG_ALLOW_LOCAL_WRITE) == 0)
        s = STATUS_INVALID_PARAMETER;                                                          /* MR-FR-19 */
    else if ((flags & (NDK_OP_FLAG_ALLOW_REMOTE_READ | 0x20)) != 0 && !m->remote_access)
        s = STATUS_ACCESS_VIOLATION;                                                           /* MR-FR-6 */
    else if (count == 0 || count > m->initialized_pages) s = STATUS_INVALID_PARAMETER;        /* MR-FR-18 */
    else if (fbo >= ps) s = STATUS_INVALID_PARAMETER;                                          /* MR-FR-16 */
    else if (length == 0) s = STATUS_INVALID_PARAMETER;                                        /* MR-FR-14 */
#if defined(FAULT_MR_FR_3)
    else if (length > (uint64_t)count * ps) s = STATUS_INVALID_PARAMETER;                     /* the planted bug: no FBO */
#else
    else if (sat_add(length, fbo) > (uint64_t)count * ps) s = STATUS_INVALID_PARAMETER;       /* MR-FR-3 */
#endif
#if !defined(FAULT_MR_FR_4)
    else if ((base & (ps - 1)) != (fbo & (ps - 1))) s = STATUS_INVALID_PARAMETER;             /* MR-FR-4 */
#endif
    else if (last_byte_wraps(base, length)) s = STATUS_INVALID_PARAMETER;                     /* MR-FR-15 */
    uint64_t *frames = NULL;
    if (s == STATUS_SUCCESS) {
        /* one pass over the page array: alignment (MR-FR-17) and a live LAM behind each entry (MR-FR-2) */
        frames = malloc((size_t)count * sizeof *frames);
        if (frames == NULL) s = STATUS_INSUFFICIENT_RESOURCES;
        for (ULONG i = 0; s == STATUS_SUCCESS && i < count; i++) {
            if ((pages[i] & (ps - 1)) != 0) {
                s = STATUS_INVALID_PARAMETER; /* MR-FR-17 */
                break;
            }
            lam *l = lam_holding(a, pages[i], 1);
            if (l == NULL) {
                s = STATUS_INVALID_PARAMETER; /* MR-FR-2 */
                break;
            }
            frames[i] = l->frames[(pages[i] - l->base) / ps];
        }
    }
    if (s != STATUS_SUCCESS) {
        free(frames);
        s = fail_inline(q, s);
        UNLOCK(a);
        return s;
    }
    /* MR-FR-11: RDMA_READ_SINK never makes it fail. The registration is pending until processed. */
#if defined(FAULT_RACE)
    UINT32 fresh = token_of_counter(a, raced);
#else
    UINT32 fresh = token_allocate(a);
#endif
    token_remove(a, m->token, m);
    region *r = new_region(a, m, fresh, base, length, fbo % ps, fr_flags_to_access(flags), 1, frames, count,
                           REGION_PENDING);
    token_put(a, fresh, TK_REGION, r);
    m->token = fresh;
    m->region = r;
    m->state = MR_FAST_REGISTERED;
    wr *w = new_wr(a, WR_FAST_REGISTER, q, ctx, flags);
    w->region = r;
    post(q, w);
    UNLOCK(a);
    return STATUS_SUCCESS;
}

static NTSTATUS invalidate(NDK_QP *pq, PVOID ctx, NDK_MR *pm, ULONG flags) {
    qp *q = (qp *)pq;
    adapter *a = q->o.a;
    mr *m = (mr *)pm;
    LOCK(a);
    if (a->closed || q->o.life != LIFE_OPEN) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    ULONG defined = NDK_OP_FLAG_SILENT_SUCCESS | NDK_OP_FLAG_READ_FENCE | (a->cfg.version_minor >= 2 ? NDK_OP_FLAG_DEFER : 0);
    NTSTATUS s = STATUS_SUCCESS;
    if (m == NULL || m->o.a != a) s = STATUS_INVALID_PARAMETER;
    else if (q->peer == NULL) s = STATUS_CONNECTION_INVALID;                                   /* INV-2 */
    else if (!m->fast || m->pd != q->pd || mr_view_state(m) != MR_FAST_REGISTERED) s = STATUS_INVALID_PARAMETER; /* INV-1 */
    else if ((flags & ~defined) != 0) s = STATUS_INVALID_PARAMETER;                            /* INV-3/flags */
    if (s != STATUS_SUCCESS) {
        s = fail_inline(q, s);
        UNLOCK(a);
        return s;
    }
    wr *w = new_wr(a, WR_INVALIDATE, q, ctx, flags);
    w->region = m->region;
    m->state = MR_INVALIDATED;
    post(q, w);
    UNLOCK(a);
    return STATUS_SUCCESS;
}

/* INLINE: the bytes are copied when posted; each SGE is found by its address (its token is ignored, SGE-3). */
static int capture_inline(adapter *a, qp *q, wr *w, uint64_t total) {
    if (total > 0x7FFFFFF7ull) return 0;
    span spans[MAX_SGE + 1];
    if (w->nsge > MAX_SGE) return 0;
    ULONG ps = a->host.PageSize;
    for (ULONG i = 0; i < w->nsge; i++) {
        uint64_t address = w->sgl[i].LogicalAddress, length = w->sgl[i].Length;
        holder h = holder_of(a, w->sgl[i].MemoryRegionToken);
        region *found = NULL;
        if (h.kind == TK_REGION && h.region->state == REGION_LIVE && h.region->pd == q->pd
            && in_bounds(h.region, address, length)) {
            found = h.region;
        }
        for (size_t k = 0; found == NULL && k < a->token_cap; k++) {
            token_slot *t = &a->tokens[k];
            if (t->key != 0 && t->kind == TK_REGION) {
                region *r = t->holder;
                if (r->state == REGION_LIVE && r->pd == q->pd && in_bounds(r, address, length)) found = r;
            }
        }
        if (found != NULL) {
            spans[i] = (span){found->frames, found->nframes, position_of(found, address), length};
        } else {
            lam *l = lam_holding(a, address, length);
            if (l == NULL) return 0;
            spans[i] = (span){l->frames, l->nframes, address - l->base, length};
        }
        if (!backs(spans[i].frames, spans[i].nframes, spans[i].position, length, ps)) return 0;
    }
    w->inline_data = gather(a, spans, (int)w->nsge, total);
    w->inline_length = total;
    w->has_inline = 1;
    return w->inline_data != NULL;
}

/* Read, Write, Send, SendAndInvalidate and Receive: RW-2, SGE-COUNT, SGE-4, DEF-5, AI-3, then post. */
static NTSTATUS post_data(qp *q, enum wr_type type, PVOID ctx, const NDK_SGE *sgl, ULONG nsge, uint64_t remote_address,
                          UINT32 remote_token, ULONG flags) {
    adapter *a = q->o.a;
    int is_receive = type == WR_RECEIVE;
    LOCK(a);
    if (a->closed || q->o.life != LIFE_OPEN) {
        UNLOCK(a);
        return STATUS_INVALID_PARAMETER;
    }
    uint64_t total = 0;
    for (ULONG i = 0; i < nsge; i++) total = sat_add(total, sgl[i].Length);
    int is_inline = (flags & NDK_OP_FLAG_INLINE) && type != WR_READ && !is_receive;
    NTSTATUS s = STATUS_SUCCESS;
    if (q->peer == NULL && !is_receive) s = STATUS_CONNECTION_INVALID;                           /* RW-2 */
    /* SGE-COUNT; an INLINE send is free of MaxInitiatorRequestSge (SGE-5) */
    else if (nsge > (is_receive ? q->max_receive_sge : q->max_initiator_sge) && !(is_inline && type != WR_WRITE))
        s = STATUS_INVALID_PARAMETER;
    else if (is_inline && total > q->inline_data_size) s = STATUS_INVALID_PARAMETER;            /* SGE-4 */
    else if ((flags & NDK_OP_FLAG_DEFER) && a->cfg.version_minor < 2) s = STATUS_INVALID_PARAMETER; /* DEF-5 */
    else if (total > MAX_TRANSFER_LENGTH) s = STATUS_INVALID_PARAMETER;                         /* AI-3/max-transfer */
    if (s != STATUS_SUCCESS) {
        if (!is_receive) s = fail_inline(q, s);
        UNLOCK(a);
        return s;
    }
    wr *w = new_wr(a, type, q, ctx, flags);
    w->nsge = nsge;
    w->sgl = malloc((nsge == 0 ? 1 : nsge) * sizeof *sgl);
    if (w->sgl == NULL) abort();
    memcpy(w->sgl, sgl, nsge * sizeof *sgl);
    w->remote_address = remote_address;
    w->remote_token = remote_token;
    if (is_inline && !capture_inline(a, q, w, total)) {
        w->done = 1;
        s = fail_inline(q, STATUS_INVALID_PARAMETER);
        UNLOCK(a);
        return s;
    }
    if (!is_receive) {
        post(q, w);
    } else if (q->state == QP_FLUSHED) {
        fail(a, w, STATUS_CANCELLED);
    } else {
        queue one = {NULL, NULL};
        push(&one, w);
        submit(a, &one);
    }
    UNLOCK(a);
    return STATUS_SUCCESS;
}

static NTSTATUS qp_read(NDK_QP *q, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT64 address, UINT32 token, ULONG flags) {
    return post_data((qp *)q, WR_READ, ctx, sgl, n, address, token, flags);
}

static NTSTATUS qp_write(NDK_QP *q, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT64 address, UINT32 token, ULONG flags) {
    return post_data((qp *)q, WR_WRITE, ctx, sgl, n, address, token, flags);
}

static NTSTATUS qp_send(NDK_QP *q, PVOID ctx, const NDK_SGE *sgl, ULONG n, ULONG flags) {
    return post_data((qp *)q, WR_SEND, ctx, sgl, n, 0, 0, flags);
}

static NTSTATUS qp_send_and_invalidate(NDK_QP *q, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT32 token, ULONG flags) {
    return post_data((qp *)q, WR_SEND_AND_INVALIDATE, ctx, sgl, n, 0, token, flags);
}

static NTSTATUS qp_receive(NDK_QP *q, PVOID ctx, const NDK_SGE *sgl, ULONG n) {
    return post_data((qp *)q, WR_RECEIVE, ctx, sgl, n, 0, 0, 0);
}

/* Under the lock: completes every request of q not yet completed with STATUS_CANCELLED (FL-1, CL-5). */
static void cancel_everything(qp *q) {
    adapter *a = q->o.a;
    if (q->peer != NULL) cancel_queue(a, &q->peer->inbound, STATUS_CANCELLED);
    for (wr *w = a->ready.head; w != NULL; w = w->next) {
        if (w->qp == q && !w->done) fail(a, w, STATUS_CANCELLED);
    }
    cancel_queue(a, &q->held, STATUS_CANCELLED);
    cancel_queue(a, &q->receives, STATUS_CANCELLED);
    cancel_queue(a, &q->inbound, STATUS_CONNECTION_INVALID);
}

/* Under the lock: INV-6's abort. Both QPs of the connection cancel what they hold and stay flushed, so every
 * later request on them completes with STATUS_CANCELLED. */
static void abort_connection(qp *q) {
    qp *other = q->peer;
    if (q->state != QP_CLOSED && q->o.life != LIFE_CLOSED) {
        cancel_everything(q);
        q->state = QP_FLUSHED;
    }
    if (other != NULL && other->state != QP_CLOSED && other->o.life != LIFE_CLOSED) {
        cancel_everything(other);
        other->state = QP_FLUSHED;
    }
}

static VOID qp_flush(NDK_QP *pq) {
    qp *q = (qp *)pq;
    LOCK(q->o.a);
    if (q->o.life != LIFE_CLOSED) {
        cancel_everything(q);
        if (q->state != QP_CLOSED) q->state = QP_FLUSHED;
    }
    UNLOCK(q->o.a);
}

static const NDK_QP_DISPATCH QP_DISPATCH = {
    .NdkCloseQp = close_object,
    .NdkFlush = qp_flush,
    .NdkSend = qp_send,
    .NdkReceive = qp_receive,
    .NdkFastRegister = fast_register,
    .NdkInvalidate = invalidate,
    .NdkRead = qp_read,
    .NdkWrite = qp_write,
    .NdkSendAndInvalidate = qp_send_and_invalidate,
};

/* ============================================================================ close hooks */

static void on_close_started(object *o) {
    adapter *a = o->a;
    switch (o->Header.ObjectType) {
    case NdkObjectTypeMr: {
        mr *m = (mr *)o;
        if (m->region != NULL) retire(a, m->region);
        if (m->live_region != NULL) retire(a, m->live_region);
        token_remove(a, m->token, m);
        break;
    }
    case NdkObjectTypeQp: {
        qp *q = (qp *)o;
        cancel_everything(q);
        q->state = QP_CLOSED;
        if (q->peer != NULL) {
            qp *other = q->peer;
            q->peer = NULL;
            other->peer = NULL;
            if (other->state == QP_CONNECTED) other->state = QP_UNCONNECTED;
        }
        break;
    }
    default:
        break;
    }
}

static void on_closed(object *o) {
    if (o->Header.ObjectType == NdkObjectTypePd) {
        token_remove(o->a, ((pd *)o)->privileged_token, o);
    } else if (o->Header.ObjectType == NdkObjectTypeCq) {
        cq *c = (cq *)o;
        c->head = c->count = 0;
    }
}
