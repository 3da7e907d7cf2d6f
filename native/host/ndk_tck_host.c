/*
 * ndk-tck-host: runs a C provider's library in a process of its own, so that a crash, a memory error caught by
 * a sanitizer or a call that never returns ends this process only, never the kit. The kit's relay library
 * (ndk_tck_relay.c) starts it with the connected socket as file descriptor 3 and the library's path as its
 * argument; stderr is the crash log the kit names in its report.
 *
 * It dlopens the library, sends HELLO with NDK_TCK_PROVIDER_INFO, then serves CALL messages: a call on a lane
 * (ndk_tck_wire.h) runs on that lane's own thread; a call on descriptor 3 runs on a worker thread (the pool
 * grows, so a blocked call does not hold up the others). Either calls the dispatch member and replies with the
 * status and the out parameters. Completions and the host services
 * ReadFrame / WriteFrame travel back as messages and wait for their answer, so the provider sees the same
 * synchronous callbacks as in the kit's own process. A fatal signal prints a backtrace to stderr and ends
 * the process with that signal. Ends when the kit closes the socket.
 */
#include "ndk_tck_provider.h"
#include "ndk_tck_wire.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>

#define FD 3
/*
 * Whether this host takes lanes (HELLO's code). Not under ThreadSanitizer: calls served on two lanes are ordered
 * only through the kit's process, which ThreadSanitizer cannot see, so it would report a race in the provider
 * between two calls the kit made one after the other. Calls then all come on descriptor 3 (one hand-off each).
 */
#if defined(__SANITIZE_THREAD__)
#define LANES 0
#else
#define LANES 1
#endif

static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;
static const NDK_TCK_PROVIDER_INFO *(*p_info)(void);
static NTSTATUS (*p_configure)(const NDK_TCK_SETTING *, ULONG, char *, ULONG, ULONG *, PVOID *);
static NTSTATUS (*p_open)(PVOID, const NDK_TCK_HOST *, NDK_ADAPTER **);
static uint32_t page_size = 4096;

/* ------------------------------------------------------------------ waits for FRAME_REPLY / COMPLETE_DONE */
typedef struct waiter {
    uint64_t id;
    int done;
    uint8_t *payload;
    uint32_t len;
    pthread_cond_t cv;
    struct waiter *next;
} waiter;
static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static waiter *waiters;
static uint64_t next_id = 1;

/* The lane this thread serves (a thread that runs the kit's calls from one kit thread), or -1. */
static __thread int lane_fd = -1;
static void serve_call(int fd, pthread_mutex_t *lock, wire_hdr h, uint8_t *payload);

/* On a lane: sends the message and serves what comes on the lane (calls the kit makes from inside the
 * completion) until the answer with the same id arrives. Returns its payload, or exits when the kit is gone. */
static uint8_t *ask_on_lane(uint16_t type, uint16_t code, const wbuf *b, uint32_t *len) {
    int fd = lane_fd;
    uint64_t id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    if (wire_send(fd, NULL, type, code, id, b->p, (uint32_t)b->len) != 0) _exit(0);
    for (;;) {
        wire_hdr h;
        uint8_t *payload;
        if (wire_recv(fd, &h, &payload) != 0) _exit(0); /* the kit is gone */
        if ((h.type == MSG_FRAME_REPLY || h.type == MSG_COMPLETE_DONE) && h.id == id) {
                    *len = h.len;
            return payload;
        }
        if (h.type == MSG_CALL) {
            serve_call(fd, NULL, h, payload);
        } else {
            free(payload);
        }
    }
}

/* Sends a message and waits for the answer with the same id. Returns its payload (free it), or exits when the
 * kit is gone. */
static uint8_t *ask(uint16_t type, uint16_t code, const wbuf *b, uint32_t *len) {
    if (lane_fd >= 0) return ask_on_lane(type, code, b, len);
    waiter w;
    memset(&w, 0, sizeof w);
    pthread_cond_init(&w.cv, NULL);
    pthread_mutex_lock(&wait_lock);
    w.id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    w.next = waiters;
    waiters = &w;
    pthread_mutex_unlock(&wait_lock);
    if (wire_send(FD, &wlock, type, code, w.id, b->p, (uint32_t)b->len) != 0) _exit(0);
    wire_spin(&w.done);
    pthread_mutex_lock(&wait_lock);
    while (!w.done) pthread_cond_wait(&w.cv, &wait_lock);
    pthread_mutex_unlock(&wait_lock);
    pthread_cond_destroy(&w.cv);
    *len = w.len;
    return w.payload;
}

static void answered(uint64_t id, uint8_t *payload, uint32_t len) {
    pthread_mutex_lock(&wait_lock);
    for (waiter **p = &waiters; *p; p = &(*p)->next) {
        if ((*p)->id == id) {
            waiter *w = *p;
            *p = w->next;
            w->payload = payload;
            w->len = len;
            __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
            pthread_cond_signal(&w->cv);
            pthread_mutex_unlock(&wait_lock);
            return;
        }
    }
    pthread_mutex_unlock(&wait_lock);
    free(payload);
}

/* ------------------------------------------------------------------------------------- host services */
static NTSTATUS frame(PVOID ctx, PFN_NUMBER pfn, ULONG offset, PVOID buffer, ULONG length, int write) {
    if (buffer == NULL || length > page_size || offset > page_size - length) return STATUS_INVALID_PARAMETER;
    wbuf b = {0};
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u64(&b, pfn);
    wb_u32(&b, offset);
    wb_u32(&b, length);
    if (write) wb_bytes(&b, buffer, length);
    uint32_t len;
    uint8_t *p = ask(MSG_FRAME, (uint16_t)write, &b, &len);
    wb_free(&b);
    rbuf r = {p, len, 0, 0};
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    if (!write && st == STATUS_SUCCESS) rb_bytes(&r, buffer, length);
    free(p);
    return st;
}
static NTSTATUS read_frame(PVOID ctx, PFN_NUMBER pfn, ULONG offset, PVOID buffer, ULONG length) {
    return frame(ctx, pfn, offset, buffer, length, 0);
}
static NTSTATUS write_frame(PVOID ctx, PFN_NUMBER pfn, ULONG offset, const VOID *buffer, ULONG length) {
    return frame(ctx, pfn, offset, (PVOID)buffer, length, 1);
}

/* ------------------------------------------------------------------------------------------- objects */
typedef struct {
    NDK_OBJECT_HEADER Header;
    void *const *Dispatch;
} any_object;

static const int TABLE_SIZE[] = {0, 7, 4, 6, 9, 3}; /* members per kind, indexed by K_* */

/* An object as the relay needs it: pointer, header, whether it has a table and which members are NULL. */
static void put_object(wbuf *b, const void *o, int kind) {
    wb_u64(b, (uint64_t)(uintptr_t)o);
    if (!o) return;
    const any_object *a = o;
    wb_bytes(b, &a->Header, sizeof a->Header);
    wb_u8(b, a->Dispatch != NULL);
    uint32_t nulls = 0;
    for (int i = 0; a->Dispatch && i < TABLE_SIZE[kind]; i++) {
        if (a->Dispatch[i] == NULL) nulls |= 1u << i;
    }
    wb_u32(b, nulls);
}

static void *member(uint64_t object, int index) {
    const any_object *a = (const any_object *)(uintptr_t)object;
    return a->Dispatch[index];
}

/* ----------------------------------------------------------------- MDLs and LAMs kept for pending calls */
typedef struct {
    uint32_t n;
    NDK_TCK_MDL **nodes;
} mdl_chain;

static mdl_chain *get_mdls(rbuf *r) {
    uint32_t n = rb_u32(r);
    if (n == 0 || n > WIRE_MAX_MDLS) return NULL;
    mdl_chain *c = calloc(1, sizeof *c);
    c->n = n;
    c->nodes = calloc(n, sizeof *c->nodes);
    int32_t *next = calloc(n, sizeof *next);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t va = rb_u64(r);
        uint32_t count = rb_u32(r), offset = rb_u32(r), pfns = rb_u32(r), reserved = rb_u32(r);
        next[i] = (int32_t)rb_u32(r);
        if (r->bad || pfns > (r->len - r->pos) / 8) pfns = 0, r->bad = 1;
        NDK_TCK_MDL *m = calloc(1, sizeof *m + 8u * (pfns ? pfns : 1));
        m->StartVa = (PVOID)(uintptr_t)va;
        m->ByteCount = count;
        m->ByteOffset = offset;
        m->PfnCount = pfns;
        m->Reserved = reserved;
        rb_bytes(r, m->PfnArray, 8u * pfns);
        c->nodes[i] = m;
    }
    for (uint32_t i = 0; i < n; i++) {
        c->nodes[i]->Next = next[i] >= 0 && (uint32_t)next[i] < n ? c->nodes[next[i]] : NULL;
    }
    free(next);
    return c;
}

static void free_mdls(mdl_chain *c) {
    if (!c) return;
    for (uint32_t i = 0; i < c->n; i++) free(c->nodes[i]);
    free(c->nodes);
    free(c);
}

/* What a call that may complete later keeps: its MDL chain, and for NdkBuildLam the LAM and its out values. */
typedef struct pending {
    uint64_t ctx;
    mdl_chain *mdls;
    int returned, completed;
    int lam;
    uint8_t *lam_buf;
    uint32_t lam_size, fbo, cap;
    uint64_t java_buf, java_size, java_fbo;
    struct pending *next;
} pending;
static pthread_mutex_t pend_lock = PTHREAD_MUTEX_INITIALIZER;
static pending *pendings;

/* LAM buffers by the kit's buffer address, for NdkReleaseLam (kept: the provider may look at a LAM again). */
typedef struct lam_entry {
    uint64_t key;
    uint8_t *buf;
    struct lam_entry *next;
} lam_entry;
static lam_entry *lams;

static void put_lam(wbuf *b, pending *p) {
    wb_u64(b, p->java_buf);
    wb_u64(b, p->java_size);
    wb_u64(b, p->java_fbo);
    wb_u32(b, p->lam_size);
    wb_u32(b, p->fbo);
    wb_u32(b, p->cap);
    wb_bytes(b, p->lam_buf, p->cap);
}

/* Unlinks p when both the call returned and (for STATUS_PENDING) the completion came; the caller frees it. */
static int finished(pending *p, int pending_status) {
    if (!p->returned || (pending_status && !p->completed)) return 0;
    for (pending **q = &pendings; *q; q = &(*q)->next) {
        if (*q == p) {
            *q = p->next;
            return 1;
        }
    }
    return 0;
}

/* -------------------------------------------------------------------------------------- completions */
static void wait_done(uint16_t kind, wbuf *b) {
    uint32_t len;
    free(ask(MSG_COMPLETE, kind, b, &len));
    wb_free(b);
}

static void request_done(PVOID ctx, NTSTATUS status) {
    wbuf b = {0};
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u32(&b, (uint32_t)status);
    pending *found = NULL;
    pthread_mutex_lock(&pend_lock);
    for (pending *p = pendings; p; p = p->next) {
        if (p->ctx == (uint64_t)(uintptr_t)ctx && !p->completed) {
            found = p;
            break;
        }
    }
    if (found) {
        found->completed = 1;
        wb_u8(&b, (uint8_t)found->lam);
        if (found->lam) put_lam(&b, found);
        if (!finished(found, 1)) found = NULL;
    } else {
        wb_u8(&b, 0);
    }
    pthread_mutex_unlock(&pend_lock);
    if (found) {
        free_mdls(found->mdls);
        free(found);
    }
    wait_done(C_REQUEST, &b);
}

static void create_done(PVOID ctx, NTSTATUS status, NDK_OBJECT_HEADER *object, int kind) {
    wbuf b = {0};
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u32(&b, (uint32_t)status);
    wb_u8(&b, (uint8_t)kind);
    put_object(&b, object, kind);
    wait_done(C_CREATE, &b);
}
static void created_pd(PVOID c, NTSTATUS s, NDK_OBJECT_HEADER *o) { create_done(c, s, o, K_PD); }
static void created_cq(PVOID c, NTSTATUS s, NDK_OBJECT_HEADER *o) { create_done(c, s, o, K_CQ); }
static void created_mr(PVOID c, NTSTATUS s, NDK_OBJECT_HEADER *o) { create_done(c, s, o, K_MR); }
static void created_qp(PVOID c, NTSTATUS s, NDK_OBJECT_HEADER *o) { create_done(c, s, o, K_QP); }

static void close_done(PVOID ctx) {
    wbuf b = {0};
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wait_done(C_CLOSE, &b);
}

/* ------------------------------------------------------------------------------------------- calls */
#define CB(has, fn) ((has) ? (fn) : NULL)

/* Runs one call; writes the reply payload into out. */
static void serve(uint16_t code, rbuf *r, wbuf *out) {
    switch (code) {
    case F_CONFIGURE: {
        uint32_t n = rb_u32(r);
        if (n > 4096) n = 0;
        NDK_TCK_SETTING *s = calloc(n ? n : 1, sizeof *s);
        for (uint32_t i = 0; i < n; i++) {
            s[i].Key = rb_str(r);
            s[i].Value = rb_str(r);
        }
        char message[512] = {0};
        ULONG ps = 0;
        PVOID config = NULL;
        NTSTATUS st = p_configure(s, n, message, sizeof message, &ps, &config);
        message[sizeof message - 1] = 0;
        if (st == STATUS_SUCCESS) page_size = ps;
        wb_u32(out, (uint32_t)st);
        wb_str(out, message);
        wb_u32(out, ps);
        wb_u64(out, (uint64_t)(uintptr_t)config);
        /* the strings stay: the provider may keep pointers to them (settings are few and made once) */
        return;
    }
    case F_OPEN_ADAPTER: {
        uint64_t config = rb_u64(r), ctx = rb_u64(r);
        NDK_TCK_HOST *h = calloc(1, sizeof *h); /* valid until NdkCloseAdapter returns: kept */
        h->HeaderVersion = rb_u32(r);
        h->PageSize = rb_u32(r);
        h->HostContext = (PVOID)(uintptr_t)ctx;
        h->ReadFrame = read_frame;
        h->WriteFrame = write_frame;
        NDK_ADAPTER *a = NULL;
        NTSTATUS st = p_open((PVOID)(uintptr_t)config, h, &a);
        wb_u32(out, (uint32_t)st);
        put_object(out, a, K_ADAPTER);
        return;
    }
    case F_CLOSE: {
        uint64_t o = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        NTSTATUS st = ((NDK_FN_CLOSE_OBJECT)member(o, 0))((NDK_OBJECT_HEADER *)(uintptr_t)o, CB(has, close_done),
                                                          (PVOID)(uintptr_t)ctx);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_QUERY_INFO: {
        uint64_t o = rb_u64(r);
        uint8_t has_info = rb_u8(r), has_size = rb_u8(r);
        uint32_t size = rb_u32(r);
        uint32_t room = size > (1u << 20) ? (1u << 20) : size;
        uint8_t *info = calloc(1, room + sizeof(NDK_ADAPTER_INFO));
        ULONG sz = size;
        NTSTATUS st = ((NDK_FN_QUERY_ADAPTER_INFO)member(o, 1))((NDK_ADAPTER *)(uintptr_t)o,
                                                                has_info ? (NDK_ADAPTER_INFO *)info : NULL,
                                                                has_size ? &sz : NULL);
        wb_u32(out, (uint32_t)st);
        wb_u32(out, sz);
        wb_u32(out, room);
        wb_bytes(out, info, room);
        free(info);
        return;
    }
    case F_CREATE_CQ: {
        uint64_t o = rb_u64(r);
        uint32_t depth = rb_u32(r);
        uint64_t nctx = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        uint8_t has_out = rb_u8(r);
        NDK_CQ *cq = NULL;
        NTSTATUS st = ((NDK_FN_CREATE_CQ)member(o, 2))((NDK_ADAPTER *)(uintptr_t)o, depth, NULL, (PVOID)(uintptr_t)nctx,
                                                       NULL, CB(has, created_cq), (PVOID)(uintptr_t)ctx,
                                                       has_out ? &cq : NULL);
        wb_u32(out, (uint32_t)st);
        put_object(out, cq, K_CQ);
        return;
    }
    case F_CREATE_PD: {
        uint64_t o = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        uint8_t has_out = rb_u8(r);
        NDK_PD *pd = NULL;
        NTSTATUS st = ((NDK_FN_CREATE_PD)member(o, 3))((NDK_ADAPTER *)(uintptr_t)o, CB(has, created_pd),
                                                       (PVOID)(uintptr_t)ctx, has_out ? &pd : NULL);
        wb_u32(out, (uint32_t)st);
        put_object(out, pd, K_PD);
        return;
    }
    case F_BUILD_LAM: {
        uint64_t o = rb_u64(r);
        mdl_chain *mdls = get_mdls(r);
        uint64_t length = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        pending *p = calloc(1, sizeof *p);
        p->ctx = ctx;
        p->mdls = mdls;
        p->lam = 1;
        p->java_buf = rb_u64(r);
        p->java_size = rb_u64(r);
        p->java_fbo = rb_u64(r);
        p->lam_size = rb_u32(r);
        p->cap = rb_u32(r);
        uint32_t room = p->lam_size > (64u << 20) ? p->cap : (p->lam_size > p->cap ? p->lam_size : p->cap);
        p->lam_buf = calloc(1, room ? room : 1);
        pthread_mutex_lock(&pend_lock);
        lam_entry *e = calloc(1, sizeof *e);
        e->key = p->java_buf;
        e->buf = p->lam_buf;
        e->next = lams;
        lams = e;
        if (has) {
            p->next = pendings;
            pendings = p;
        }
        pthread_mutex_unlock(&pend_lock);
        NTSTATUS st = ((NDK_FN_BUILD_LAM)member(o, 4))((NDK_ADAPTER *)(uintptr_t)o, mdls ? mdls->nodes[0] : NULL,
                                                       (SIZE_T)length, CB(has, request_done), (PVOID)(uintptr_t)ctx,
                                                       p->java_buf ? (NDK_LOGICAL_ADDRESS_MAPPING *)p->lam_buf : NULL,
                                                       p->java_size ? &p->lam_size : NULL,
                                                       p->java_fbo ? &p->fbo : NULL);
        wb_u32(out, (uint32_t)st);
        int done;
        pthread_mutex_lock(&pend_lock);
        put_lam(out, p);
        p->returned = 1;
        done = has ? finished(p, st == STATUS_PENDING) : 1;
        pthread_mutex_unlock(&pend_lock);
        if (done) {
            free_mdls(p->mdls);
            free(p);
        }
        return;
    }
    case F_RELEASE_LAM: {
        uint64_t o = rb_u64(r), key = rb_u64(r);
        uint8_t *buf = NULL;
        pthread_mutex_lock(&pend_lock);
        for (lam_entry *e = lams; e; e = e->next) {
            if (e->key == key) {
                buf = e->buf;
                break;
            }
        }
        pthread_mutex_unlock(&pend_lock);
        static uint8_t blank[24];
        ((NDK_FN_RELEASE_LAM)member(o, 5))((NDK_ADAPTER *)(uintptr_t)o,
                                           (NDK_LOGICAL_ADDRESS_MAPPING *)(key == 0 ? NULL : buf ? buf : blank));
        return;
    }
    case F_CONNECT: {
        uint64_t o = rb_u64(r), a = rb_u64(r), b = rb_u64(r);
        NTSTATUS st = ((NDK_TCK_FN_CONNECT_LOOPBACK)member(o, 6))((NDK_QP *)(uintptr_t)a, (NDK_QP *)(uintptr_t)b);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_CREATE_QP: {
        uint64_t o = rb_u64(r), rcq = rb_u64(r), icq = rb_u64(r), qctx = rb_u64(r);
        uint32_t v[5];
        for (int i = 0; i < 5; i++) v[i] = rb_u32(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        uint8_t has_out = rb_u8(r);
        NDK_QP *qp = NULL;
        NTSTATUS st = ((NDK_FN_CREATE_QP)member(o, 1))((NDK_PD *)(uintptr_t)o, (NDK_CQ *)(uintptr_t)rcq,
                                                       (NDK_CQ *)(uintptr_t)icq, (PVOID)(uintptr_t)qctx, v[0], v[1],
                                                       v[2], v[3], v[4], CB(has, created_qp), (PVOID)(uintptr_t)ctx,
                                                       has_out ? &qp : NULL);
        wb_u32(out, (uint32_t)st);
        put_object(out, qp, K_QP);
        return;
    }
    case F_CREATE_MR: {
        uint64_t o = rb_u64(r);
        uint8_t fast = rb_u8(r), has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        uint8_t has_out = rb_u8(r);
        NDK_MR *mr = NULL;
        NTSTATUS st = ((NDK_FN_CREATE_MR)member(o, 2))((NDK_PD *)(uintptr_t)o, fast, CB(has, created_mr),
                                                       (PVOID)(uintptr_t)ctx, has_out ? &mr : NULL);
        wb_u32(out, (uint32_t)st);
        put_object(out, mr, K_MR);
        return;
    }
    case F_PRIV_TOKEN:
    case F_LOCAL_TOKEN:
    case F_REMOTE_TOKEN: {
        uint64_t o = rb_u64(r);
        int index = code == F_PRIV_TOKEN ? 3 : code == F_LOCAL_TOKEN ? 4 : 5;
        UINT32 (*fn)(void *) = (UINT32(*)(void *))member(o, index);
        wb_u32(out, fn((void *)(uintptr_t)o));
        return;
    }
    case F_INIT_FR: {
        uint64_t o = rb_u64(r);
        uint32_t count = rb_u32(r);
        uint8_t remote = rb_u8(r), has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        NTSTATUS st = ((NDK_FN_INITIALIZE_FAST_REGISTER_MR)member(o, 1))((NDK_MR *)(uintptr_t)o, count, remote,
                                                                         CB(has, request_done), (PVOID)(uintptr_t)ctx);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_REGISTER: {
        uint64_t o = rb_u64(r);
        mdl_chain *mdls = get_mdls(r);
        uint64_t length = rb_u64(r);
        uint32_t flags = rb_u32(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        pending *p = calloc(1, sizeof *p);
        p->ctx = ctx;
        p->mdls = mdls;
        if (has) {
            pthread_mutex_lock(&pend_lock);
            p->next = pendings;
            pendings = p;
            pthread_mutex_unlock(&pend_lock);
        }
        NTSTATUS st = ((NDK_FN_REGISTER_MR)member(o, 2))((NDK_MR *)(uintptr_t)o, mdls ? mdls->nodes[0] : NULL,
                                                         (SIZE_T)length, flags, CB(has, request_done),
                                                         (PVOID)(uintptr_t)ctx);
        wb_u32(out, (uint32_t)st);
        int done;
        pthread_mutex_lock(&pend_lock);
        p->returned = 1;
        done = has ? finished(p, st == STATUS_PENDING) : 1;
        pthread_mutex_unlock(&pend_lock);
        if (done) {
            free_mdls(p->mdls);
            free(p);
        }
        return;
    }
    case F_DEREGISTER: {
        uint64_t o = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint64_t ctx = rb_u64(r);
        NTSTATUS st = ((NDK_FN_DEREGISTER_MR)member(o, 3))((NDK_MR *)(uintptr_t)o, CB(has, request_done),
                                                           (PVOID)(uintptr_t)ctx);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_GET_RESULTS:
    case F_GET_RESULTS_EX: {
        uint64_t o = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint32_t n = rb_u32(r);
        size_t size = code == F_GET_RESULTS ? sizeof(NDK_RESULT) : sizeof(NDK_RESULT_EX);
        uint32_t room = n > (1u << 20) ? (1u << 20) : n;
        uint8_t *buf = calloc(room ? room : 1, size);
        ULONG k = code == F_GET_RESULTS
                      ? ((NDK_FN_GET_CQ_RESULTS)member(o, 1))((NDK_CQ *)(uintptr_t)o, has ? (NDK_RESULT *)buf : NULL, n)
                      : ((NDK_FN_GET_CQ_RESULTS_EX)member(o, 2))((NDK_CQ *)(uintptr_t)o,
                                                                 has ? (NDK_RESULT_EX *)buf : NULL, n);
        uint32_t send = k < room ? k : room;
        wb_u32(out, k);
        wb_u32(out, send);
        wb_bytes(out, buf, send * size);
        free(buf);
        return;
    }
    case F_FLUSH: {
        uint64_t o = rb_u64(r);
        ((NDK_FN_FLUSH)member(o, 1))((NDK_QP *)(uintptr_t)o);
        return;
    }
    case F_SEND:
    case F_RECEIVE:
    case F_READ:
    case F_WRITE:
    case F_SEND_INV: {
        uint64_t o = rb_u64(r), ctx = rb_u64(r);
        uint8_t has = rb_u8(r);
        uint32_t n = rb_u32(r);
        uint32_t carried = rb_u32(r);
        NDK_SGE *sgl = NULL;
        if (has) {
            sgl = calloc(carried ? carried : 1, sizeof *sgl);
            rb_bytes(r, sgl, (size_t)carried * sizeof *sgl);
        }
        uint64_t remote = rb_u64(r);
        uint32_t token = rb_u32(r), flags = rb_u32(r);
        NDK_QP *qp = (NDK_QP *)(uintptr_t)o;
        PVOID c = (PVOID)(uintptr_t)ctx;
        NTSTATUS st;
        switch (code) {
        case F_SEND: st = ((NDK_FN_SEND)member(o, 2))(qp, c, sgl, n, flags); break;
        case F_RECEIVE: st = ((NDK_FN_RECEIVE)member(o, 3))(qp, c, sgl, n); break;
        case F_READ: st = ((NDK_FN_READ)member(o, 6))(qp, c, sgl, n, remote, token, flags); break;
        case F_WRITE: st = ((NDK_FN_WRITE)member(o, 7))(qp, c, sgl, n, remote, token, flags); break;
        default: st = ((NDK_FN_SEND_AND_INVALIDATE)member(o, 8))(qp, c, sgl, n, token, flags); break;
        }
        free(sgl);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_FAST_REGISTER: {
        uint64_t o = rb_u64(r), ctx = rb_u64(r), mr = rb_u64(r);
        uint32_t count = rb_u32(r), carried = rb_u32(r);
        NDK_LOGICAL_ADDRESS *pages = calloc(carried ? carried : 1, sizeof *pages);
        rb_bytes(r, pages, (size_t)carried * sizeof *pages);
        uint32_t fbo = rb_u32(r);
        uint64_t length = rb_u64(r), bva = rb_u64(r);
        uint32_t flags = rb_u32(r);
        NTSTATUS st = ((NDK_FN_FAST_REGISTER)member(o, 4))((NDK_QP *)(uintptr_t)o, (PVOID)(uintptr_t)ctx,
                                                           (NDK_MR *)(uintptr_t)mr, count, pages, fbo, (SIZE_T)length,
                                                           (PVOID)(uintptr_t)bva, flags);
        free(pages);
        wb_u32(out, (uint32_t)st);
        return;
    }
    case F_INVALIDATE: {
        uint64_t o = rb_u64(r), ctx = rb_u64(r), mr = rb_u64(r);
        uint32_t flags = rb_u32(r);
        NTSTATUS st = ((NDK_FN_INVALIDATE)member(o, 5))((NDK_QP *)(uintptr_t)o, (PVOID)(uintptr_t)ctx,
                                                        (NDK_MR *)(uintptr_t)mr, flags);
        wb_u32(out, (uint32_t)st);
        return;
    }
    default:
        wb_u32(out, (uint32_t)STATUS_INTERNAL_ERROR);
    }
}

/* ------------------------------------------------------------------------------------ worker threads */
typedef struct job {
    wire_hdr h;
    uint8_t *payload;
    struct job *next;
} job;
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_cv = PTHREAD_COND_INITIALIZER;
static job *jobs_head, *jobs_tail;
static int idle, queued; /* waiting workers, jobs not taken yet */

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&job_lock);
        idle++;
        if (!jobs_head) {
            pthread_mutex_unlock(&job_lock);
            wire_spin(&queued);
            pthread_mutex_lock(&job_lock);
        }
        while (!jobs_head) pthread_cond_wait(&job_cv, &job_lock);
        idle--;
        job *j = jobs_head;
        __atomic_fetch_sub(&queued, 1, __ATOMIC_RELAXED);
        jobs_head = j->next;
        if (!jobs_head) jobs_tail = NULL;
        pthread_mutex_unlock(&job_lock);
        serve_call(FD, &wlock, j->h, j->payload);
        free(j);
    }
    return NULL;
}

/* Runs one CALL and sends its REPLY on fd (frees the payload). */
static void serve_call(int fd, pthread_mutex_t *lock, wire_hdr h, uint8_t *payload) {
    rbuf r = {payload, h.len, 0, 0};
    wbuf out = {0};
    serve(h.code, &r, &out);
    if (wire_send(fd, lock, MSG_REPLY, h.code, h.id, out.p, (uint32_t)out.len) != 0) _exit(0);
    wb_free(&out);
    free(payload);
}

/* A lane's thread: runs the calls of one kit thread, in order, until the kit closes the lane. */
static void *lane_main(void *arg) {
    lane_fd = (int)(intptr_t)arg;
    for (;;) {
        wire_hdr h;
        uint8_t *payload;
        if (wire_recv(lane_fd, &h, &payload) != 0) break;
        if (h.type == MSG_CALL) {
            serve_call(lane_fd, NULL, h, payload);
        } else {
            free(payload);
        }
    }
    close(lane_fd);
    return NULL;
}

static void start_lane(int fd) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, lane_main, (void *)(intptr_t)fd) != 0) {
        fprintf(stderr, "ndk-tck-host: cannot start a lane thread\n");
        _exit(70);
    }
    pthread_attr_destroy(&attr);
}

static void submit(wire_hdr h, uint8_t *payload) {
    job *j = calloc(1, sizeof *j);
    j->h = h;
    j->payload = payload;
    pthread_mutex_lock(&job_lock);
    if (jobs_tail) jobs_tail->next = j; else jobs_head = j;
    jobs_tail = j;
    int start = __atomic_add_fetch(&queued, 1, __ATOMIC_RELEASE) > idle; /* every waiting worker has a job already: one more thread */
    pthread_cond_signal(&job_cv);
    pthread_mutex_unlock(&job_lock);
    if (start) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, worker, NULL) != 0) {
            fprintf(stderr, "ndk-tck-host: cannot start a worker thread\n");
            _exit(70);
        }
        pthread_attr_destroy(&attr);
    }
}

/* ------------------------------------------------------------------------------------------- main */
static void on_fatal(int sig) {
    void *frames[64];
    int n = backtrace(frames, 64);
    char line[160];
    int k = snprintf(line, sizeof line, "ndk-tck-host: fatal signal %d (%s) in the provider's process; backtrace:\n", sig,
                     strsignal(sig));
    if (k > 0) (void)!write(2, line, (size_t)k);
    backtrace_symbols_fd(frames, n, 2);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void hello_error(const char *fmt, const char *a, const char *b) {
    char line[1024];
    snprintf(line, sizeof line, fmt, a, b);
    wbuf w = {0};
    wb_u32(&w, 0);
    wb_str(&w, line);
    wire_send(FD, &wlock, MSG_HELLO, 0, 0, w.p, (uint32_t)w.len);
    wb_free(&w);
    _exit(3);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: ndk-tck-host LIBRARY.so (started by the kit with its socket as descriptor 3)\n");
        return 2;
    }
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigaction(sigs[i], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) hello_error("cannot load native provider library %s: %s", argv[1], dlerror());
    const char *names[] = {"NdkTckGetProviderInfo", "NdkTckConfigure", "NdkTckOpenAdapter"};
    void *fns[3];
    for (int i = 0; i < 3; i++) {
        fns[i] = dlsym(lib, names[i]);
        if (!fns[i])
            hello_error("native provider library %s lacks the symbol %s (a C provider exports NdkTckGetProviderInfo, "
                        "NdkTckConfigure and NdkTckOpenAdapter; see native/include/ndk_tck_provider.h)",
                        argv[1], names[i]);
    }
    p_info = (const NDK_TCK_PROVIDER_INFO *(*)(void))fns[0];
    p_configure = (NTSTATUS(*)(const NDK_TCK_SETTING *, ULONG, char *, ULONG, ULONG *, PVOID *))fns[1];
    p_open = (NTSTATUS(*)(PVOID, const NDK_TCK_HOST *, NDK_ADAPTER **))fns[2];
    const NDK_TCK_PROVIDER_INFO *info = p_info();
    if (!info) hello_error("native provider library %s: NdkTckGetProviderInfo returned NULL%s", argv[1], "");
    wbuf w = {0};
    wb_u32(&w, 1);
    wb_u32(&w, info->HeaderVersion);
    wb_str(&w, info->Name);
    wb_str(&w, info->Description);
    uint32_t n = info->Settings ? (info->SettingCount < 1024 ? info->SettingCount : 1024) : 0;
    wb_u32(&w, n);
    for (uint32_t i = 0; i < n; i++) {
        wb_str(&w, info->Settings[i].Key);
        wb_str(&w, info->Settings[i].DefaultValue);
        wb_str(&w, info->Settings[i].Description);
    }
    if (wire_send(FD, &wlock, MSG_HELLO, LANES, 0, w.p, (uint32_t)w.len) != 0) return 0;
    wb_free(&w);
    for (;;) {
        wire_hdr h;
        uint8_t *payload;
        int passed;
        if (wire_recv_fd(FD, &h, &payload, &passed) != 0) _exit(0); /* the kit is gone or done */
        if (passed >= 0 && h.type != MSG_LANE) close(passed);
        if (h.type == MSG_LANE) { /* a kit thread's own socket: a host thread of its own */
            if (passed >= 0) start_lane(passed);
            free(payload);
        } else if (h.type == MSG_CALL) {
            submit(h, payload);
        } else if (h.type == MSG_FRAME_REPLY || h.type == MSG_COMPLETE_DONE) {
            answered(h.id, payload, h.len);
        } else {
            free(payload);
        }
    }
}
