/*
 * libndk_tck_relay.so: the kit's side of process isolation. Loaded in the kit's JVM by the provider `native`
 * (setting isolation=process) in place of the provider's library, it implements ndk_tck_provider.h by relaying
 * every call to ndk-tck-host, a process that runs the provider's library (ndk_tck_host.c; messages in
 * ndk_tck_wire.h). The kit's bridge talks to it exactly as to a provider's library.
 *
 * Objects the kit sees are proxies: the provider's NDK_OBJECT_HEADER copied when the object came back, a
 * dispatch table with the relay's functions (NULL where the provider's member is NULL), and the object's
 * address in the host. One proxy per host object, so the kit always gets the same pointer back.
 *
 * When the host process ends (a crash, a sanitizer's report, or the kit's kill after a call outlived its
 * bound), every call in flight and every later call on that process's objects returns
 * NDK_TCK_RELAY_HOST_LOST; NdkTckRelayLost tells the bridge why (the signal and the crash log). The next
 * NdkTckOpenAdapter starts a fresh host, configured with the same settings: a few milliseconds.
 */
#include "ndk_tck_provider.h"
#include "ndk_tck_wire.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

/* How the account of a host killed for a call that outlived its bound says so (the bridge charges GEN-TIME-1). */
#define KILLED_FOR_HANG "the relay killed the host process and its threads"

/* Returned by every call that the host process cannot answer (customer bit set: never an NDKPI status). */
#define NDK_TCK_RELAY_HOST_LOST ((NTSTATUS)0xE0DE0001L)

typedef struct proxy {
    NDK_OBJECT_HEADER Header;
    const void *Dispatch;
    void *table[9];
    uint64_t remote;
    uint64_t adapter; /* the host adapter this object belongs to (for NdkTckConnectLoopback) */
    uint32_t gen;
    int kind;
    struct proxy *next;
} proxy;

/* ------------------------------------------------------------------------------------------ state */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* everything below */
static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER; /* writes to the socket */
static char *host_exe, *library, *log_dir, *env_extra;
static int fd = -1;
static pid_t pid = -1;
static uint32_t gen;     /* the live host's generation; 0 before the first start */
static int alive;
static char lost[16384];  /* why the host of generation lost_gen ended */
static uint32_t lost_gen;
static char kill_why[256]; /* why the relay killed the live host, if it did */
static char log_path[4096];
static long call_bound_ms; /* a call that outlives this is abandoned: the host is killed */
static uint64_t next_id = 1;
static int lanes; /* whether the host takes lanes (its HELLO says) */
static NDK_TCK_PROVIDER_INFO info;
static NDK_TCK_SETTING_INFO *info_settings;
/* One NdkTckConfigure's result: its settings (for a restarted host) and the host's configuration pointer. */
typedef struct relay_config {
    NDK_TCK_SETTING *settings;
    ULONG count;
    uint64_t remote;
    uint32_t gen; /* the host generation that made remote */
} relay_config;
static uint32_t frmr_page_count = 1u << 20;
static NDK_FN_REQUEST_COMPLETION request_cb;
static NDK_FN_CREATE_COMPLETION create_cb;
static NDK_FN_CLOSE_COMPLETION close_cb;
static NDK_TCK_FN_READ_FRAME read_cb;
static NDK_TCK_FN_WRITE_FRAME write_cb;

#define PROXY_BUCKETS 4096
static proxy *proxies[PROXY_BUCKETS];

typedef struct waiter {
    uint64_t id;
    uint32_t gen;
    int done;
    uint8_t *payload;
    uint32_t len;
    pthread_cond_t cv;
    struct waiter *next;
} waiter;
static waiter *waiters;

/* create calls in flight: the request context -> the adapter of the object that will come back */
typedef struct creating {
    uint64_t ctx, adapter;
    struct creating *next;
} creating;
static creating *creatings;

static const NDK_ADAPTER_DISPATCH adapter_table;
static const NDK_PD_DISPATCH pd_table;
static const NDK_MR_DISPATCH mr_table;
static const NDK_QP_DISPATCH qp_table;
static const NDK_CQ_DISPATCH cq_table;

/* ------------------------------------------------------------------------------------------ proxies */
static const void *table_of(int kind) {
    switch (kind) {
    case K_ADAPTER: return &adapter_table;
    case K_PD: return &pd_table;
    case K_MR: return &mr_table;
    case K_QP: return &qp_table;
    default: return &cq_table;
    }
}
static const int TABLE_SIZE[] = {0, 7, 4, 6, 9, 3};

/* The proxy of an object in a reply (NULL for NULL). Call with the lock held. */
static proxy *object_locked(rbuf *r, int kind, uint32_t g, uint64_t adapter) {
    uint64_t remote = rb_u64(r);
    if (remote == 0 || r->bad) return NULL;
    NDK_OBJECT_HEADER h;
    rb_bytes(r, &h, sizeof h);
    uint8_t has_table = rb_u8(r);
    uint32_t nulls = rb_u32(r);
    size_t b = (size_t)((remote >> 4) ^ ((uint64_t)g * 2654435761u)) % PROXY_BUCKETS;
    proxy *p;
    for (p = proxies[b]; p; p = p->next) {
        if (p->remote == remote && p->gen == g && p->kind == kind) break;
    }
    if (!p) {
        p = calloc(1, sizeof *p);
        p->remote = remote;
        p->gen = g;
        p->kind = kind;
        p->next = proxies[b];
        proxies[b] = p;
    }
    p->Header = h;
    p->adapter = kind == K_ADAPTER ? remote : adapter;
    void *const *t = table_of(kind);
    for (int i = 0; i < TABLE_SIZE[kind]; i++) p->table[i] = (nulls & (1u << i)) ? NULL : t[i];
    p->Dispatch = has_table ? (const void *)p->table : NULL;
    return p;
}

static proxy *object(rbuf *r, int kind, uint32_t g, uint64_t adapter) {
    pthread_mutex_lock(&lock);
    proxy *p = object_locked(r, kind, g, adapter);
    pthread_mutex_unlock(&lock);
    return p;
}

static uint64_t remote_of(const void *o) {
    return o ? ((const proxy *)o)->remote : 0;
}

/* ------------------------------------------------------------------------------------ the host process */
static void *reader(void *arg);

static void describe_end(int status) {
    char how[256];
    if (WIFSIGNALED(status)) {
        snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (WIFEXITED(status)) {
        snprintf(how, sizeof how, "exited with code %d", WEXITSTATUS(status));
    } else {
        snprintf(how, sizeof how, "ended");
    }
    snprintf(lost, sizeof lost, "%sthe provider's host process %d %s; crash log %s", kill_why, (int)pid, how, log_path);
    size_t n;
    FILE *f = fopen(log_path, "r");
    if (f) {
        n = strlen(lost);
        if (n + 2 < sizeof lost) {
            lost[n++] = '\n';
            size_t k = fread(lost + n, 1, sizeof lost - n - 1, f);
            lost[n + k] = 0;
        }
        fclose(f);
    }
}

/* The host of generation g is gone: fail every waiting call. Call with the lock held. */
static void host_ended_locked(uint32_t g) {
    if (g != gen || !alive) return;
    alive = 0;
    for (waiter *w = waiters; w; w = w->next) {
        if (w->gen == g) {
            __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
            pthread_cond_signal(&w->cv);
        }
    }
}

static int start_host_locked(char *message, size_t size) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(message, size, "cannot make a socket for the provider's host process: %s", strerror(errno));
        return -1;
    }
    static unsigned serial;
    snprintf(log_path, sizeof log_path, "%s/ndk-tck-host-%d-%u.log", log_dir, (int)getpid(), ++serial);
    int log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) {
        snprintf(message, size, "cannot write the host's crash log %s: %s", log_path, strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 3);
    posix_spawn_file_actions_adddup2(&fa, log, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, log, 1);
    /* the environment: the kit's, plus the sanitizer options (NUL-separated KEY=VALUE in env_extra) */
    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + 16, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) env[k++] = environ[i];
    for (char *e = env_extra; e && *e && k < n + 15; e += strlen(e) + 1) env[k++] = e;
    char *argv[] = {host_exe, library, NULL};
    pid_t child;
    int rc = posix_spawn(&child, host_exe, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(sv[1]);
    close(log);
    if (rc != 0) {
        snprintf(message, size, "cannot start the provider's host process %s: %s", host_exe, strerror(rc));
        close(sv[0]);
        return -1;
    }
    fd = sv[0];
    pid = child;
    gen++;
    alive = 1;
    kill_why[0] = 0;
    /* HELLO */
    wire_hdr h;
    uint8_t *p;
    if (wire_recv(fd, &h, &p) != 0 || h.type != MSG_HELLO) {
        int status = 0;
        waitpid(pid, &status, 0);
        alive = 0;
        describe_end(status);
        snprintf(message, size, "the host process for %s ended before it was ready: %s", library, lost);
        close(fd);
        fd = -1;
        return -1;
    }
    __atomic_store_n(&lanes, h.code == 1, __ATOMIC_RELAXED);
    rbuf r = {p, h.len, 0, 0};
    if (rb_u32(&r) != 1) {
        char *why = rb_str(&r);
        snprintf(message, size, "%s", why ? why : "the host process cannot use the library");
        free(why);
        free(p);
        int status;
        waitpid(pid, &status, 0);
        alive = 0;
        close(fd);
        fd = -1;
        return -1;
    }
    if (info.Name == NULL) { /* the first host: keep NDK_TCK_PROVIDER_INFO */
        info.HeaderVersion = rb_u32(&r);
        info.Name = rb_str(&r);
        info.Description = rb_str(&r);
        info.SettingCount = rb_u32(&r);
        if (info.SettingCount > 1024) info.SettingCount = 0;
        info_settings = calloc(info.SettingCount + 1, sizeof *info_settings);
        for (ULONG i = 0; i < info.SettingCount; i++) {
            info_settings[i].Key = rb_str(&r);
            info_settings[i].DefaultValue = rb_str(&r);
            info_settings[i].Description = rb_str(&r);
        }
        info.Settings = info_settings;
    }
    free(p);
    pthread_t t;
    uintptr_t g = gen;
    pthread_create(&t, NULL, reader, (void *)g);
    pthread_detach(t);
    return 0;
}

/* Kills the host of generation g (a call outlived its bound). */
static void kill_host(uint32_t g, const char *why) {
    pthread_mutex_lock(&lock);
    if (g == gen && alive) {
        snprintf(kill_why, sizeof kill_why, "%s; ", why);
        kill(pid, SIGKILL);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------------------------ lanes */
/* This thread's lane (ndk_tck_wire.h): its socket and the host generation it leads to (-1: none yet). */
static __thread int lane_fd = -1;
static __thread uint32_t lane_gen;
static pthread_key_t lane_key;
static pthread_once_t lane_once = PTHREAD_ONCE_INIT;

/* A kit thread that ends closes its lane; the host thread behind it then ends too. */
static void lane_thread_ended(void *v) { close((int)(intptr_t)v - 1); }
static void lane_key_make(void) { pthread_key_create(&lane_key, lane_thread_ended); }

static void lane_drop(void) {
    if (lane_fd >= 0) close(lane_fd);
    lane_fd = -1;
    pthread_setspecific(lane_key, NULL);
}

/* This thread's lane to the host of generation g: made on its first call there. -1 when none can be made. */
static int lane_for(uint32_t g) {
    if (lane_fd >= 0 && lane_gen == g) return lane_fd;
    if (!__atomic_load_n(&lanes, __ATOMIC_RELAXED)) return -1;
    pthread_once(&lane_once, lane_key_make);
    lane_drop();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return -1;
    pthread_mutex_lock(&lock);
    int ok = alive && g == gen && wire_send_lane(fd, &wlock, sv[1]) == 0;
    pthread_mutex_unlock(&lock);
    close(sv[1]);
    if (!ok) {
        close(sv[0]);
        return -1;
    }
    lane_fd = sv[0];
    lane_gen = g;
    pthread_setspecific(lane_key, (void *)(intptr_t)(lane_fd + 1));
    return lane_fd;
}

static void run_completion_on(wire_hdr h, uint8_t *payload, uint32_t g, int sock, pthread_mutex_t *wl);
static void serve_frame(wire_hdr h, uint8_t *payload, int sock, pthread_mutex_t *wl);

/* A CALL on this thread's lane: sends it, then serves the completions and frame accesses the provider makes
 * from inside the call on this thread until the REPLY comes. Kills the host when the call outlives the bound. */
static uint8_t *lane_call(int lf, uint32_t g, uint16_t code, wbuf *b, uint32_t *len) {
    uint64_t id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    int sent = wire_send(lf, NULL, MSG_CALL, code, id, b->p, (uint32_t)b->len);
    wb_free(b);
    long bound = call_bound_ms > 0 ? call_bound_ms : 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int timed_out = 0;
    while (sent == 0) {
        int wait = -1;
        if (bound > 0 && !timed_out) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            long spent = (t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L;
            wait = spent >= bound ? 0 : (int)(bound - spent);
        }
        struct pollfd p = {lf, POLLIN, 0};
        int n = poll(&p, 1, wait);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) {
            char why[160];
            snprintf(why, sizeof why, "a call (code %u) did not return within %ld ms, the kit's call bound: " KILLED_FOR_HANG,
                     code, bound);
            kill_host(g, why);
            timed_out = 1;
            continue;
        }
        wire_hdr h;
        uint8_t *payload;
        if (n < 0 || wire_recv(lf, &h, &payload) != 0) break;
        if (h.type == MSG_REPLY && h.id == id) {
            *len = h.len;
            return payload;
        }
        if (h.type == MSG_COMPLETE) {
            run_completion_on(h, payload, g, lf, NULL);
        } else if (h.type == MSG_FRAME) {
            serve_frame(h, payload, lf, NULL);
        }
        free(payload);
    }
    /* the lane broke: the host process ended; the reader describes why */
    lane_drop();
    pthread_mutex_lock(&lock);
    host_ended_locked(g);
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ calls */
/* Sends a CALL and waits for its REPLY. Returns the payload (free it), or NULL when the host is gone. */
static uint8_t *call(uint32_t g, uint16_t code, wbuf *b, uint32_t *len) {
    int lf = lane_for(g);
    if (lf >= 0) return lane_call(lf, g, code, b, len);
    waiter w;
    memset(&w, 0, sizeof w);
    pthread_cond_init(&w.cv, NULL);
    pthread_mutex_lock(&lock);
    if (!alive || g != gen) {
        pthread_mutex_unlock(&lock);
        wb_free(b);
        return NULL;
    }
    w.id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    w.gen = g;
    w.next = waiters;
    waiters = &w;
    int sock = fd;
    pthread_mutex_unlock(&lock);
    int sent = wire_send(sock, &wlock, MSG_CALL, code, w.id, b->p, (uint32_t)b->len);
    wb_free(b);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    long bound = call_bound_ms > 0 ? call_bound_ms : 0;
    deadline.tv_sec += bound / 1000;
    deadline.tv_nsec += (bound % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    int timed_out = 0;
    if (sent == 0) wire_spin(&w.done);
    pthread_mutex_lock(&lock);
    if (sent != 0) host_ended_locked(g);
    while (!w.done) {
        if (bound > 0 && !timed_out) {
            if (pthread_cond_timedwait(&w.cv, &lock, &deadline) == ETIMEDOUT && !w.done) {
                timed_out = 1;
                pthread_mutex_unlock(&lock);
                char why[160];
                snprintf(why, sizeof why, "a call (code %u) did not return within %ld ms, the kit's call bound: " KILLED_FOR_HANG,
                         code, bound);
                kill_host(g, why);
                pthread_mutex_lock(&lock);
            }
        } else {
            pthread_cond_wait(&w.cv, &lock);
        }
    }
    for (waiter **p = &waiters; *p; p = &(*p)->next) {
        if (*p == &w) {
            *p = w.next;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    pthread_cond_destroy(&w.cv);
    *len = w.len;
    return w.payload;
}

/* The generation an object belongs to, or 0 when its host is gone. */
static uint32_t live(const void *o) {
    uint32_t g = o ? ((const proxy *)o)->gen : 0;
    pthread_mutex_lock(&lock);
    if (!alive || g != gen) g = 0;
    pthread_mutex_unlock(&lock);
    return g;
}

#define BEGIN(obj)                                                                                                     \
    uint32_t g = live(obj);                                                                                            \
    if (g == 0) return NDK_TCK_RELAY_HOST_LOST;                                                                        \
    wbuf b = {0};                                                                                                      \
    wb_u64(&b, remote_of(obj))

#define ASK(code)                                                                                                      \
    uint32_t len = 0;                                                                                                  \
    uint8_t *payload = call(g, code, &b, &len);                                                                        \
    if (!payload) return NDK_TCK_RELAY_HOST_LOST;                                                                      \
    rbuf r = {payload, len, 0, 0}

static NTSTATUS status_reply(uint32_t g, uint16_t code, wbuf b) {
    ASK(code);
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    free(payload);
    return st;
}

/* Writes an MDL chain: each MDL once, Next as an index (a cycle is a link back). Returns the frame count. */
static uint64_t put_mdls(wbuf *b, const MDL *first) {
    const MDL **seen = NULL;
    uint32_t n = 0, cap = 0;
    for (const MDL *m = first; m && n < WIRE_MAX_MDLS; m = m->Next) {
        int again = 0;
        for (uint32_t i = 0; i < n; i++) again |= seen[i] == m;
        if (again) break;
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            seen = realloc(seen, cap * sizeof *seen);
        }
        seen[n++] = m;
    }
    wb_u32(b, n);
    uint64_t frames = 0;
    for (uint32_t i = 0; i < n; i++) {
        const MDL *m = seen[i];
        int32_t next = -1;
        for (uint32_t j = 0; m->Next && j < n; j++) {
            if (seen[j] == m->Next) next = (int32_t)j;
        }
        wb_u64(b, (uint64_t)(uintptr_t)m->StartVa);
        wb_u32(b, m->ByteCount);
        wb_u32(b, m->ByteOffset);
        wb_u32(b, m->PfnCount);
        wb_u32(b, m->Reserved);
        wb_u32(b, (uint32_t)next);
        wb_bytes(b, m->PfnArray, 8u * m->PfnCount);
        frames += m->PfnCount;
    }
    free(seen);
    return frames;
}

static void remember_creating(uint64_t ctx, uint64_t adapter) {
    creating *c = calloc(1, sizeof *c);
    c->ctx = ctx;
    c->adapter = adapter;
    pthread_mutex_lock(&lock);
    c->next = creatings;
    creatings = c;
    pthread_mutex_unlock(&lock);
}

/* The adapter of an object created with context ctx (forgotten once asked). Call with the lock held. */
static uint64_t creating_adapter_locked(uint64_t ctx) {
    for (creating **p = &creatings; *p; p = &(*p)->next) {
        if ((*p)->ctx == ctx) {
            creating *c = *p;
            uint64_t a = c->adapter;
            *p = c->next;
            free(c);
            return a;
        }
    }
    return 0;
}

static NTSTATUS create_reply(uint32_t g, uint16_t code, wbuf b, int kind, uint64_t adapter, uint64_t ctx, void **out) {
    ASK(code);
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    pthread_mutex_lock(&lock);
    proxy *p = object_locked(&r, kind, g, adapter);
    if (st != STATUS_PENDING) creating_adapter_locked(ctx);
    pthread_mutex_unlock(&lock);
    if (out) *out = p;
    free(payload);
    return st;
}

static NTSTATUS r_close(NDK_OBJECT_HEADER *o, NDK_FN_CLOSE_COMPLETION cb, PVOID ctx) {
    BEGIN(o);
    if (cb) close_cb = cb;
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    return status_reply(g, F_CLOSE, b);
}

static NTSTATUS r_query_info(NDK_ADAPTER *a, NDK_ADAPTER_INFO *info_out, ULONG *size) {
    BEGIN(a);
    wb_u8(&b, info_out != NULL);
    wb_u8(&b, size != NULL);
    wb_u32(&b, size ? *size : 0);
    ASK(F_QUERY_INFO);
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    uint32_t sz = rb_u32(&r), room = rb_u32(&r);
    const uint8_t *bytes = rb_view(&r, room);
    if (info_out && bytes) {
        memcpy(info_out, bytes, room);
        if (room >= offsetof(NDK_ADAPTER_INFO, FRMRPageCount) + 4) frmr_page_count = info_out->FRMRPageCount;
    }
    if (size) *size = sz;
    free(payload);
    return st;
}

static NTSTATUS r_create_cq(NDK_ADAPTER *a, ULONG depth, NDK_FN_CQ_NOTIFICATION_CALLBACK notify, PVOID nctx,
                            PVOID affinity, NDK_FN_CREATE_COMPLETION cb, PVOID ctx, NDK_CQ **out) {
    (void)notify;
    (void)affinity;
    BEGIN(a);
    if (cb) create_cb = cb;
    wb_u32(&b, depth);
    wb_u64(&b, (uint64_t)(uintptr_t)nctx);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u8(&b, out != NULL);
    uint64_t adapter = ((proxy *)a)->adapter;
    remember_creating((uint64_t)(uintptr_t)ctx, adapter);
    return create_reply(g, F_CREATE_CQ, b, K_CQ, adapter, (uint64_t)(uintptr_t)ctx, (void **)out);
}

static NTSTATUS r_create_pd(NDK_ADAPTER *a, NDK_FN_CREATE_COMPLETION cb, PVOID ctx, NDK_PD **out) {
    BEGIN(a);
    if (cb) create_cb = cb;
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u8(&b, out != NULL);
    uint64_t adapter = ((proxy *)a)->adapter;
    remember_creating((uint64_t)(uintptr_t)ctx, adapter);
    return create_reply(g, F_CREATE_PD, b, K_PD, adapter, (uint64_t)(uintptr_t)ctx, (void **)out);
}

/* Writes a LAM that came back into the kit's buffers (the sizes the kit gave bound every copy). */
static void take_lam(rbuf *r) {
    uint64_t buf = rb_u64(r), size = rb_u64(r), fbo = rb_u64(r);
    uint32_t lam_size = rb_u32(r), f = rb_u32(r), cap = rb_u32(r);
    const uint8_t *bytes = rb_view(r, cap);
    if (r->bad) return;
    if (buf && bytes) memcpy((void *)(uintptr_t)buf, bytes, cap);
    if (size) *(ULONG *)(uintptr_t)size = lam_size;
    if (fbo) *(ULONG *)(uintptr_t)fbo = f;
}

static NTSTATUS r_build_lam(NDK_ADAPTER *a, MDL *mdl, SIZE_T length, NDK_FN_REQUEST_COMPLETION cb, PVOID ctx,
                            NDK_LOGICAL_ADDRESS_MAPPING *lam, ULONG *lam_size, ULONG *fbo) {
    BEGIN(a);
    if (cb) request_cb = cb;
    uint64_t frames = put_mdls(&b, mdl);
    wb_u64(&b, length);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u64(&b, (uint64_t)(uintptr_t)lam);
    wb_u64(&b, (uint64_t)(uintptr_t)lam_size);
    wb_u64(&b, (uint64_t)(uintptr_t)fbo);
    uint32_t offered = lam_size ? *lam_size : 0;
    /* what the kit's bridge allocated: the offered size, never more than the chain can fill, at least 24 */
    uint64_t usable = 16 + 8 * (frames + 1);
    uint64_t cap = offered < usable ? offered : usable;
    if (cap < 24) cap = 24;
    if (!lam) cap = 0;
    wb_u32(&b, offered);
    wb_u32(&b, (uint32_t)cap);
    ASK(F_BUILD_LAM);
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    if (st != STATUS_PENDING) take_lam(&r);
    free(payload);
    return st;
}

static VOID r_release_lam(NDK_ADAPTER *a, NDK_LOGICAL_ADDRESS_MAPPING *lam) {
    uint32_t g = live(a);
    if (g == 0) return;
    wbuf b = {0};
    wb_u64(&b, remote_of(a));
    wb_u64(&b, (uint64_t)(uintptr_t)lam);
    uint32_t len;
    free(call(g, F_RELEASE_LAM, &b, &len));
}

static NTSTATUS r_connect(NDK_QP *qa, NDK_QP *qb) {
    const proxy *any = qa ? (const proxy *)qa : (const proxy *)qb;
    uint32_t g = any ? live(any) : 0;
    if (g == 0) return NDK_TCK_RELAY_HOST_LOST;
    wbuf b = {0};
    wb_u64(&b, any->adapter);
    wb_u64(&b, remote_of(qa));
    wb_u64(&b, remote_of(qb));
    return status_reply(g, F_CONNECT, b);
}

static NTSTATUS r_create_qp(NDK_PD *pd, NDK_CQ *rcq, NDK_CQ *icq, PVOID qctx, ULONG rdepth, ULONG idepth, ULONG rsge,
                            ULONG isge, ULONG inl, NDK_FN_CREATE_COMPLETION cb, PVOID ctx, NDK_QP **out) {
    BEGIN(pd);
    if (cb) create_cb = cb;
    wb_u64(&b, remote_of(rcq));
    wb_u64(&b, remote_of(icq));
    wb_u64(&b, (uint64_t)(uintptr_t)qctx);
    wb_u32(&b, rdepth);
    wb_u32(&b, idepth);
    wb_u32(&b, rsge);
    wb_u32(&b, isge);
    wb_u32(&b, inl);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u8(&b, out != NULL);
    uint64_t adapter = ((proxy *)pd)->adapter;
    remember_creating((uint64_t)(uintptr_t)ctx, adapter);
    return create_reply(g, F_CREATE_QP, b, K_QP, adapter, (uint64_t)(uintptr_t)ctx, (void **)out);
}

static NTSTATUS r_create_mr(NDK_PD *pd, BOOLEAN fast, NDK_FN_CREATE_COMPLETION cb, PVOID ctx, NDK_MR **out) {
    BEGIN(pd);
    if (cb) create_cb = cb;
    wb_u8(&b, fast);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u8(&b, out != NULL);
    uint64_t adapter = ((proxy *)pd)->adapter;
    remember_creating((uint64_t)(uintptr_t)ctx, adapter);
    return create_reply(g, F_CREATE_MR, b, K_MR, adapter, (uint64_t)(uintptr_t)ctx, (void **)out);
}

static UINT32 token(const void *o, uint16_t code) {
    uint32_t g = live(o);
    if (g == 0) return (UINT32)NDK_TCK_RELAY_HOST_LOST;
    wbuf b = {0};
    wb_u64(&b, remote_of(o));
    uint32_t len = 0;
    uint8_t *payload = call(g, code, &b, &len);
    if (!payload) return (UINT32)NDK_TCK_RELAY_HOST_LOST;
    rbuf r = {payload, len, 0, 0};
    UINT32 t = rb_u32(&r);
    free(payload);
    return t;
}
static UINT32 r_priv_token(NDK_PD *pd) { return token(pd, F_PRIV_TOKEN); }
static UINT32 r_local_token(NDK_MR *mr) { return token(mr, F_LOCAL_TOKEN); }
static UINT32 r_remote_token(NDK_MR *mr) { return token(mr, F_REMOTE_TOKEN); }

static NTSTATUS r_init_fr(NDK_MR *mr, ULONG count, BOOLEAN remote, NDK_FN_REQUEST_COMPLETION cb, PVOID ctx) {
    BEGIN(mr);
    if (cb) request_cb = cb;
    wb_u32(&b, count);
    wb_u8(&b, remote);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    return status_reply(g, F_INIT_FR, b);
}

static NTSTATUS r_register(NDK_MR *mr, MDL *mdl, SIZE_T length, ULONG flags, NDK_FN_REQUEST_COMPLETION cb, PVOID ctx) {
    BEGIN(mr);
    if (cb) request_cb = cb;
    put_mdls(&b, mdl);
    wb_u64(&b, length);
    wb_u32(&b, flags);
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    return status_reply(g, F_REGISTER, b);
}

static NTSTATUS r_deregister(NDK_MR *mr, NDK_FN_REQUEST_COMPLETION cb, PVOID ctx) {
    BEGIN(mr);
    if (cb) request_cb = cb;
    wb_u8(&b, cb != NULL);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    return status_reply(g, F_DEREGISTER, b);
}

static ULONG results(NDK_CQ *cq, void *out, ULONG n, uint16_t code, size_t size) {
    uint32_t g = live(cq);
    if (g == 0) return (ULONG)NDK_TCK_RELAY_HOST_LOST;
    wbuf b = {0};
    wb_u64(&b, remote_of(cq));
    wb_u8(&b, out != NULL);
    wb_u32(&b, n);
    uint32_t len = 0;
    uint8_t *payload = call(g, code, &b, &len);
    if (!payload) return (ULONG)NDK_TCK_RELAY_HOST_LOST;
    rbuf r = {payload, len, 0, 0};
    ULONG k = rb_u32(&r);
    uint32_t sent = rb_u32(&r);
    const uint8_t *bytes = rb_view(&r, (size_t)sent * size);
    if (out && bytes && sent <= n) memcpy(out, bytes, (size_t)sent * size);
    free(payload);
    return k;
}
static ULONG r_get_results(NDK_CQ *cq, NDK_RESULT *out, ULONG n) {
    return results(cq, out, n, F_GET_RESULTS, sizeof(NDK_RESULT));
}
static ULONG r_get_results_ex(NDK_CQ *cq, NDK_RESULT_EX *out, ULONG n) {
    return results(cq, out, n, F_GET_RESULTS_EX, sizeof(NDK_RESULT_EX));
}

static VOID r_flush(NDK_QP *qp) {
    uint32_t g = live(qp);
    if (g == 0) return;
    wbuf b = {0};
    wb_u64(&b, remote_of(qp));
    uint32_t len;
    free(call(g, F_FLUSH, &b, &len));
}

static NTSTATUS wr(uint16_t code, NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT64 remote, UINT32 tok,
                   ULONG flags) {
    BEGIN(qp);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u8(&b, sgl != NULL);
    wb_u32(&b, n);
    /* the kit's bridge gives exactly nSge entries (one when nSge is 0) */
    wb_u32(&b, sgl ? n : 0);
    if (sgl) wb_bytes(&b, sgl, (size_t)n * sizeof *sgl);
    wb_u64(&b, remote);
    wb_u32(&b, tok);
    wb_u32(&b, flags);
    return status_reply(g, code, b);
}
static NTSTATUS r_send(NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n, ULONG flags) {
    return wr(F_SEND, qp, ctx, sgl, n, 0, 0, flags);
}
static NTSTATUS r_receive(NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n) {
    return wr(F_RECEIVE, qp, ctx, sgl, n, 0, 0, 0);
}
static NTSTATUS r_read(NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT64 ra, UINT32 t, ULONG flags) {
    return wr(F_READ, qp, ctx, sgl, n, ra, t, flags);
}
static NTSTATUS r_write(NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT64 ra, UINT32 t, ULONG flags) {
    return wr(F_WRITE, qp, ctx, sgl, n, ra, t, flags);
}
static NTSTATUS r_send_inv(NDK_QP *qp, PVOID ctx, const NDK_SGE *sgl, ULONG n, UINT32 t, ULONG flags) {
    return wr(F_SEND_INV, qp, ctx, sgl, n, 0, t, flags);
}

static NTSTATUS r_fast_register(NDK_QP *qp, PVOID ctx, NDK_MR *mr, ULONG count, const NDK_LOGICAL_ADDRESS *pages,
                                ULONG fbo, SIZE_T length, PVOID bva, ULONG flags) {
    BEGIN(qp);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u64(&b, remote_of(mr));
    wb_u32(&b, count);
    /* the kit's bridge gives at least min(AdapterPageCount, FRMRPageCount) entries */
    uint32_t carried = pages ? (count < frmr_page_count ? count : frmr_page_count) : 0;
    wb_u32(&b, carried);
    if (carried) wb_bytes(&b, pages, (size_t)carried * sizeof *pages);
    wb_u32(&b, fbo);
    wb_u64(&b, length);
    wb_u64(&b, (uint64_t)(uintptr_t)bva);
    wb_u32(&b, flags);
    return status_reply(g, F_FAST_REGISTER, b);
}

static NTSTATUS r_invalidate(NDK_QP *qp, PVOID ctx, NDK_MR *mr, ULONG flags) {
    BEGIN(qp);
    wb_u64(&b, (uint64_t)(uintptr_t)ctx);
    wb_u64(&b, remote_of(mr));
    wb_u32(&b, flags);
    return status_reply(g, F_INVALIDATE, b);
}

static const NDK_ADAPTER_DISPATCH adapter_table = {(NDK_FN_CLOSE_OBJECT)r_close, r_query_info, r_create_cq, r_create_pd,
                                                   r_build_lam, r_release_lam, r_connect};
static const NDK_PD_DISPATCH pd_table = {(NDK_FN_CLOSE_OBJECT)r_close, r_create_qp, r_create_mr, r_priv_token};
static const NDK_MR_DISPATCH mr_table = {(NDK_FN_CLOSE_OBJECT)r_close, r_init_fr, r_register, r_deregister,
                                         r_local_token, r_remote_token};
static const NDK_QP_DISPATCH qp_table = {(NDK_FN_CLOSE_OBJECT)r_close, r_flush, r_send, r_receive, r_fast_register,
                                         r_invalidate, r_read, r_write, r_send_inv};
static const NDK_CQ_DISPATCH cq_table = {(NDK_FN_CLOSE_OBJECT)r_close, r_get_results, r_get_results_ex};

/* ------------------------------------------------------------------- messages from the host process */
typedef struct completion_job {
    wire_hdr h;
    uint8_t *payload;
    uint32_t gen;
    int sock;
    struct completion_job *next;
} completion_job;
static pthread_mutex_t cj_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cj_cv = PTHREAD_COND_INITIALIZER;
static completion_job *cj_head, *cj_tail;
static int cj_idle, cj_queued;

static void run_completion(completion_job *j) { run_completion_on(j->h, j->payload, j->gen, j->sock, &wlock); }

/* Runs the kit's completion for a COMPLETE message, then answers COMPLETE_DONE on sock. */
static void run_completion_on(wire_hdr h, uint8_t *payload, uint32_t g, int sock, pthread_mutex_t *wl) {
    rbuf r = {payload, h.len, 0, 0};
    uint64_t ctx = rb_u64(&r);
    if (h.code == C_REQUEST) {
        NTSTATUS st = (NTSTATUS)rb_u32(&r);
        if (rb_u8(&r)) take_lam(&r);
        if (request_cb && !r.bad) request_cb((PVOID)(uintptr_t)ctx, st);
    } else if (h.code == C_CREATE) {
        NTSTATUS st = (NTSTATUS)rb_u32(&r);
        int kind = rb_u8(&r);
        pthread_mutex_lock(&lock);
        uint64_t adapter = creating_adapter_locked(ctx);
        proxy *p = kind >= K_ADAPTER && kind <= K_CQ ? object_locked(&r, kind, g, adapter) : NULL;
        pthread_mutex_unlock(&lock);
        if (create_cb && !r.bad) create_cb((PVOID)(uintptr_t)ctx, st, (NDK_OBJECT_HEADER *)p);
    } else if (h.code == C_CLOSE) {
        if (close_cb && !r.bad) close_cb((PVOID)(uintptr_t)ctx);
    }
    wire_send(sock, wl, MSG_COMPLETE_DONE, 0, h.id, NULL, 0);
}

static void *completion_worker(void *unused) {
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&cj_lock);
        cj_idle++;
        if (!cj_head) {
            pthread_mutex_unlock(&cj_lock);
            wire_spin(&cj_queued);
            pthread_mutex_lock(&cj_lock);
        }
        while (!cj_head) pthread_cond_wait(&cj_cv, &cj_lock);
        cj_idle--;
        __atomic_fetch_sub(&cj_queued, 1, __ATOMIC_RELAXED);
        completion_job *j = cj_head;
        cj_head = j->next;
        if (!cj_head) cj_tail = NULL;
        pthread_mutex_unlock(&cj_lock);
        run_completion(j);
        free(j->payload);
        free(j);
    }
    return NULL;
}

/* Completions run on a pool thread: the kit's completion may call the provider, whose reply this reader reads. */
static void submit_completion(wire_hdr h, uint8_t *payload, uint32_t g, int sock) {
    completion_job *j = calloc(1, sizeof *j);
    j->h = h;
    j->payload = payload;
    j->gen = g;
    j->sock = sock;
    pthread_mutex_lock(&cj_lock);
    if (cj_tail) cj_tail->next = j; else cj_head = j;
    cj_tail = j;
    int start = __atomic_add_fetch(&cj_queued, 1, __ATOMIC_RELEASE) > cj_idle;
    pthread_cond_signal(&cj_cv);
    pthread_mutex_unlock(&cj_lock);
    if (start) {
        pthread_t t;
        pthread_create(&t, NULL, completion_worker, NULL);
        pthread_detach(t);
    }
}

static void serve_frame(wire_hdr h, uint8_t *payload, int sock, pthread_mutex_t *wl) {
    rbuf r = {payload, h.len, 0, 0};
    uint64_t ctx = rb_u64(&r), pfn = rb_u64(&r);
    uint32_t offset = rb_u32(&r), length = rb_u32(&r);
    wbuf out = {0};
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    if (h.code == 1) {
        const uint8_t *bytes = rb_view(&r, length);
        if (bytes && write_cb) st = write_cb((PVOID)(uintptr_t)ctx, pfn, offset, bytes, length);
        wb_u32(&out, (uint32_t)st);
    } else {
        uint8_t *buf = malloc(length ? length : 1);
        if (!r.bad && read_cb) st = read_cb((PVOID)(uintptr_t)ctx, pfn, offset, buf, length);
        wb_u32(&out, (uint32_t)st);
        if (st == STATUS_SUCCESS) wb_bytes(&out, buf, length);
        free(buf);
    }
    wire_send(sock, wl, MSG_FRAME_REPLY, 0, h.id, out.p, (uint32_t)out.len);
    wb_free(&out);
}

static void *reader(void *arg) {
    uint32_t g = (uint32_t)(uintptr_t)arg;
    pthread_mutex_lock(&lock);
    int sock = fd;
    pid_t child = pid;
    pthread_mutex_unlock(&lock);
    for (;;) {
        wire_hdr h;
        uint8_t *payload;
        if (wire_recv(sock, &h, &payload) != 0) break;
        if (h.type == MSG_REPLY) {
            pthread_mutex_lock(&lock);
            waiter *w = waiters;
            while (w && w->id != h.id) w = w->next;
            if (w) {
                w->payload = payload;
                w->len = h.len;
                __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
                pthread_cond_signal(&w->cv);
                payload = NULL;
            }
            pthread_mutex_unlock(&lock);
            free(payload);
        } else if (h.type == MSG_COMPLETE) {
            submit_completion(h, payload, g, sock);
        } else if (h.type == MSG_FRAME) {
            serve_frame(h, payload, sock, &wlock);
            free(payload);
        } else {
            free(payload);
        }
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    pthread_mutex_lock(&lock);
    if (g == gen) {
        describe_end(status);
        lost_gen = g;
        host_ended_locked(g);
    }
    pthread_mutex_unlock(&lock);
    close(sock);
    return NULL;
}

/* ------------------------------------------------------------------------------------- entry points */
/*
 * The bridge's first call: starts the host process for a library. hostExe: ndk-tck-host (or a sanitizer's
 * build of it); logDir: where each host's stderr goes (its crash log); env: NUL-separated KEY=VALUE pairs added
 * to the host's environment, ending in an empty string (or NULL); callBoundMillis: a call that has not
 * returned after this long is abandoned and the host killed (0: never). Returns STATUS_SUCCESS, or
 * STATUS_INVALID_PARAMETER with one line in Message. One library per process: a second, different one is
 * refused.
 */
NDK_TCK_EXPORT NTSTATUS NdkTckRelayStart(const char *hostExe, const char *lib, const char *logDir, const char *env,
                                         ULONG envSize, ULONG callBoundMillis, char *message, ULONG messageSize) {
    pthread_mutex_lock(&lock);
    call_bound_ms = callBoundMillis;
    if (library) {
        int same = strcmp(library, lib) == 0;
        pthread_mutex_unlock(&lock);
        if (!same) snprintf(message, messageSize, "the relay runs one library per process (%s already)", library);
        return same ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    }
    host_exe = strdup(hostExe);
    library = strdup(lib);
    log_dir = strdup(logDir);
    env_extra = calloc(1, (size_t)envSize + 2);
    if (env && envSize) memcpy(env_extra, env, envSize);
    signal(SIGPIPE, SIG_IGN);
    int rc = start_host_locked(message, messageSize);
    if (rc != 0) {
        free(library);
        library = NULL;
    }
    pthread_mutex_unlock(&lock);
    return rc == 0 ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/*
 * A later run in the same process that uses the same library: where its hosts' crash logs go from now on, and its
 * call bound (both as NdkTckRelayStart takes them). The host running now keeps its log; the next one started (after a
 * crash, a hang or a retirement) writes to the new directory. Returns STATUS_SUCCESS.
 */
NDK_TCK_EXPORT NTSTATUS NdkTckRelayRefresh(const char *logDir, ULONG callBoundMillis) {
    pthread_mutex_lock(&lock);
    call_bound_ms = callBoundMillis;
    if (logDir && *logDir) {
        free(log_dir);
        log_dir = strdup(logDir);
    }
    pthread_mutex_unlock(&lock);
    return STATUS_SUCCESS;
}

/*
 * Whether the host process behind an object (or any, for NULL) has ended, and why: returns 1 and writes one
 * text (the exit, the crash log's path and its contents, truncated to MessageSize) when the object's host is
 * gone, 0 when it is alive.
 */
NDK_TCK_EXPORT int NdkTckRelayLost(const void *object, char *message, ULONG messageSize) {
    pthread_mutex_lock(&lock);
    uint32_t g = object ? ((const proxy *)object)->gen : gen;
    int gone = !(alive && g == gen);
    /* the reader describes the end once it has reaped the process: wait for it a little (at most a second) */
    for (int i = 0; gone && g == gen && lost_gen != g && i < 200; i++) {
        pthread_mutex_unlock(&lock);
        struct timespec pause = {0, 5000000L};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&lock);
    }
    if (gone && message && messageSize) {
        snprintf(message, messageSize, "%s", g == lost_gen && lost[0] ? lost
                 : "the provider's host process of this object had ended earlier (a fresh one has started since)");
    }
    pthread_mutex_unlock(&lock);
    return gone;
}

/*
 * Ends the live host process (the kit's request before it reruns a property alone to confirm a crash: the next
 * NdkTckOpenAdapter starts a fresh host with no state of earlier calls). Waits, at most a second, until the reader
 * has reaped it. Returns 1 when a host was ended, 0 when none was alive.
 */
NDK_TCK_EXPORT int NdkTckRelayRetire(void) {
    pthread_mutex_lock(&lock);
    if (!alive) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    uint32_t g = gen;
    snprintf(kill_why, sizeof kill_why, "the kit ended the host process for a fresh start; ");
    kill(pid, SIGKILL);
    for (int i = 0; alive && g == gen && i < 200; i++) {
        pthread_mutex_unlock(&lock);
        struct timespec pause = {0, 5000000L};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&lock);
    }
    if (alive && g == gen) host_ended_locked(g); /* not reaped yet: the next open starts a fresh host anyway */
    pthread_mutex_unlock(&lock);
    return 1;
}

/* The process id of the live host (0 when none): for the kit's tests and its report. */
NDK_TCK_EXPORT int NdkTckRelayHostPid(void) {
    pthread_mutex_lock(&lock);
    int p = alive ? (int)pid : 0;
    pthread_mutex_unlock(&lock);
    return p;
}

NDK_TCK_EXPORT const NDK_TCK_PROVIDER_INFO *NdkTckGetProviderInfo(void) {
    return info.Name ? &info : NULL;
}

static NTSTATUS configure_locked(const NDK_TCK_SETTING *s, ULONG n, char *message, ULONG size, ULONG *ps,
                                 uint64_t *remote) {
    uint32_t g = gen;
    wbuf b = {0};
    wb_u32(&b, n);
    for (ULONG i = 0; i < n; i++) {
        wb_str(&b, s[i].Key);
        wb_str(&b, s[i].Value);
    }
    pthread_mutex_unlock(&lock);
    uint32_t len = 0;
    uint8_t *payload = call(g, F_CONFIGURE, &b, &len);
    pthread_mutex_lock(&lock);
    if (!payload) {
        if (message && size) snprintf(message, size, "the provider's host process ended in NdkTckConfigure: %s", lost);
        return STATUS_INVALID_PARAMETER;
    }
    rbuf r = {payload, len, 0, 0};
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    char *m = rb_str(&r);
    ULONG page = rb_u32(&r);
    uint64_t config = rb_u64(&r);
    if (message && size && m) snprintf(message, size, "%s", m);
    free(m);
    free(payload);
    if (ps) *ps = page;
    if (st == STATUS_SUCCESS) *remote = config;
    return st;
}

NDK_TCK_EXPORT NTSTATUS NdkTckConfigure(const NDK_TCK_SETTING *s, ULONG n, char *message, ULONG size, ULONG *ps,
                                        PVOID *config) {
    pthread_mutex_lock(&lock);
    char why[512];
    if (library && !alive && start_host_locked(why, sizeof why) != 0) { /* the last host ended: a fresh one */
        if (message && size) snprintf(message, size, "the provider's host process did not start again: %s", why);
        pthread_mutex_unlock(&lock);
        return STATUS_INVALID_PARAMETER;
    }
    uint64_t remote = 0;
    NTSTATUS st = configure_locked(s, n, message, size, ps, &remote);
    if (st == STATUS_SUCCESS) { /* kept for the process's life: the kit configures a library a few times at most */
        relay_config *c = calloc(1, sizeof *c);
        c->settings = calloc(n ? n : 1, sizeof *c->settings);
        for (ULONG i = 0; i < n; i++) {
            c->settings[i].Key = strdup(s[i].Key ? s[i].Key : "");
            c->settings[i].Value = strdup(s[i].Value ? s[i].Value : "");
        }
        c->count = n;
        c->remote = remote;
        c->gen = gen;
        if (config) *config = c;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

NDK_TCK_EXPORT NTSTATUS NdkTckOpenAdapter(PVOID config, const NDK_TCK_HOST *host, NDK_ADAPTER **out) {
    relay_config *c = config;
    if (c == NULL) return STATUS_INVALID_PARAMETER;
    pthread_mutex_lock(&lock);
    char message[512];
    if (!alive && start_host_locked(message, sizeof message) != 0) { /* the last host ended: a fresh one */
        size_t n = strlen(lost);
        snprintf(lost + n, sizeof lost - n, "; restart failed: %s", message);
        pthread_mutex_unlock(&lock);
        return NDK_TCK_RELAY_HOST_LOST;
    }
    if (c->gen != gen) { /* configured on an earlier host: configure this one the same way */
        ULONG ps;
        uint64_t remote = 0;
        if (configure_locked(c->settings, c->count, message, sizeof message, &ps, &remote) != STATUS_SUCCESS) {
            pthread_mutex_unlock(&lock);
            return NDK_TCK_RELAY_HOST_LOST;
        }
        c->remote = remote;
        c->gen = gen;
    }
    uint64_t remote_config = c->remote;
    uint32_t g = gen;
    if (host) {
        read_cb = host->ReadFrame;
        write_cb = host->WriteFrame;
    }
    wbuf b = {0};
    wb_u64(&b, remote_config);
    wb_u64(&b, host ? (uint64_t)(uintptr_t)host->HostContext : 0);
    wb_u32(&b, host ? host->HeaderVersion : 0);
    wb_u32(&b, host ? host->PageSize : 0);
    pthread_mutex_unlock(&lock);
    ASK(F_OPEN_ADAPTER);
    NTSTATUS st = (NTSTATUS)rb_u32(&r);
    proxy *p = object(&r, K_ADAPTER, g, 0);
    if (out) *out = (NDK_ADAPTER *)p;
    free(payload);
    return st;
}
