/*
 * ndk_tck_wire.h: the messages between the kit's relay library (libndk_tck_relay.so, loaded in the kit's JVM)
 * and the host process (ndk-tck-host, which dlopens the provider's library), over one Unix-domain stream
 * socket. Both ends are built from this file by native/build-sample.sh, so the format is private to one build.
 *
 * A message is a 16-byte header (payload length, type, function or kind code, id) and a payload of
 * little-endian fields written with the wb_* and read with the rb_* helpers. Ids match a reply to its call:
 *   CALL (relay -> host)          one dispatch call; the host replies REPLY with the same id
 *   COMPLETE (host -> relay)      the provider called a completion; the relay replies COMPLETE_DONE once the
 *                                 kit's completion returned (so "every callback has returned" keeps its meaning)
 *   FRAME (host -> relay)         NDK_TCK_HOST.ReadFrame / WriteFrame; the relay replies FRAME_REPLY
 *   HELLO (host -> relay)         first message: the library's NDK_TCK_PROVIDER_INFO, or why it cannot be used
 *   LANE (relay -> host)          no payload; carries (SCM_RIGHTS) one end of a fresh socket pair: a lane
 *
 * Lanes: every kit thread that calls the provider gets a socket of its own (a lane) to a host thread of its own.
 * The host thread runs the call itself; a completion or a frame access the provider makes from inside that call
 * goes back on the lane and is served by the calling kit thread, which waits on the lane, so one call costs one
 * message each way and no thread hand-off on either side. A call the kit makes from inside a completion comes
 * on the same lane and is served by the same host thread, as it would be on one thread in-process. Completions
 * and frame accesses from the provider's own threads go on the first socket (descriptor 3), as CALLs do when a
 * lane cannot be made.
 */
#ifndef NDK_TCK_WIRE_H
#define NDK_TCK_WIRE_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

enum {
    MSG_CALL = 1,
    MSG_REPLY = 2,
    MSG_COMPLETE = 3,
    MSG_COMPLETE_DONE = 4,
    MSG_FRAME = 5,
    MSG_FRAME_REPLY = 6,
    MSG_HELLO = 7,
    MSG_LANE = 8
};

/* CALL codes: one per dispatch member or entry point. */
enum {
    F_CONFIGURE = 1, F_OPEN_ADAPTER, F_CLOSE, F_QUERY_INFO, F_CREATE_CQ, F_CREATE_PD, F_BUILD_LAM, F_RELEASE_LAM,
    F_CONNECT, F_CREATE_QP, F_CREATE_MR, F_PRIV_TOKEN, F_INIT_FR, F_REGISTER, F_DEREGISTER, F_LOCAL_TOKEN,
    F_REMOTE_TOKEN, F_GET_RESULTS, F_GET_RESULTS_EX, F_FLUSH, F_SEND, F_RECEIVE, F_FAST_REGISTER, F_INVALIDATE,
    F_READ, F_WRITE, F_SEND_INV, F_COUNT
};

/* COMPLETE kinds. */
enum { C_REQUEST = 1, C_CREATE = 2, C_CLOSE = 3 };

/* Object kinds (the dispatch table a proxy gets). */
enum { K_ADAPTER = 1, K_PD = 2, K_MR = 3, K_QP = 4, K_CQ = 5 };

/* Largest payload either side accepts (a larger length means a broken stream). */
#define WIRE_MAX_PAYLOAD (256u << 20)
/* Most MDLs of one chain carried; a longer chain (or a cycle) ends in a link back or NULL. */
#define WIRE_MAX_MDLS 65536u

typedef struct {
    uint32_t len;
    uint16_t type;
    uint16_t code;
    uint64_t id;
} wire_hdr;

typedef struct {
    uint8_t *p;
    size_t len, cap;
} wbuf;

static inline void wb_need(wbuf *b, size_t n) {
    if (b->len + n > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->len + n) c *= 2;
        uint8_t *q = realloc(b->p, c);
        if (!q) abort();
        b->p = q;
        b->cap = c;
    }
}
static inline void wb_bytes(wbuf *b, const void *v, size_t n) {
    wb_need(b, n);
    if (n) memcpy(b->p + b->len, v, n);
    b->len += n;
}
static inline void wb_u8(wbuf *b, uint8_t v) { wb_bytes(b, &v, 1); }
static inline void wb_u32(wbuf *b, uint32_t v) { wb_bytes(b, &v, 4); }
static inline void wb_u64(wbuf *b, uint64_t v) { wb_bytes(b, &v, 8); }
static inline void wb_str(wbuf *b, const char *s) {
    uint32_t n = s ? (uint32_t)strlen(s) : 0xFFFFFFFFu;
    wb_u32(b, n);
    if (s) wb_bytes(b, s, n);
}
static inline void wb_free(wbuf *b) { free(b->p); b->p = NULL; b->len = b->cap = 0; }

typedef struct {
    const uint8_t *p;
    size_t len, pos;
    int bad;
} rbuf;

static inline int rb_bytes(rbuf *r, void *v, size_t n) {
    if (r->bad || r->len - r->pos < n) { r->bad = 1; if (v && n) memset(v, 0, n); return 0; }
    if (n) memcpy(v, r->p + r->pos, n);
    r->pos += n;
    return 1;
}
static inline const uint8_t *rb_view(rbuf *r, size_t n) {
    if (r->bad || r->len - r->pos < n) { r->bad = 1; return NULL; }
    const uint8_t *v = r->p + r->pos;
    r->pos += n;
    return v;
}
static inline uint8_t rb_u8(rbuf *r) { uint8_t v; rb_bytes(r, &v, 1); return v; }
static inline uint32_t rb_u32(rbuf *r) { uint32_t v; rb_bytes(r, &v, 4); return v; }
static inline uint64_t rb_u64(rbuf *r) { uint64_t v; rb_bytes(r, &v, 8); return v; }
/* A string as a fresh NUL-terminated copy (NULL for a NULL string or a broken payload). */
static inline char *rb_str(rbuf *r) {
    uint32_t n = rb_u32(r);
    if (n == 0xFFFFFFFFu || r->bad) return NULL;
    const uint8_t *v = rb_view(r, n);
    if (!v) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) abort();
    memcpy(s, v, n);
    s[n] = 0;
    return s;
}

/*
 * Waits a little for *flag to become non-zero by yielding, before the caller blocks on a condition variable:
 * waking a blocked thread costs tens of microseconds on a virtual machine, more than most calls take.
 */
static inline int wire_spin(const int *flag) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0;; i++) {
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE)) return 1;
        if ((i & 15) == 15) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 200000L) return 0;
        }
        sched_yield();
    }
}

/* Sends one message; the lock keeps messages of several threads whole (NULL for a lane, which one thread
 * writes). Returns 0, or -1 when the peer is gone. */
static inline int wire_send(int fd, pthread_mutex_t *lock, uint16_t type, uint16_t code, uint64_t id, const void *payload,
                            uint32_t len) {
    wire_hdr h = {len, type, code, id};
    struct iovec iov[2] = {{&h, sizeof h}, {(void *)payload, len}};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = iov;
    m.msg_iovlen = len ? 2 : 1;
    int rc = 0;
    if (lock) pthread_mutex_lock(lock);
    size_t total = sizeof h + len;
    while (total > 0) {
        ssize_t n = sendmsg(fd, &m, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            rc = -1;
            break;
        }
        total -= (size_t)n;
        while (n > 0 && m.msg_iovlen > 0) {
            if ((size_t)n >= m.msg_iov[0].iov_len) {
                n -= (ssize_t)m.msg_iov[0].iov_len;
                m.msg_iov++;
                m.msg_iovlen--;
            } else {
                m.msg_iov[0].iov_base = (uint8_t *)m.msg_iov[0].iov_base + n;
                m.msg_iov[0].iov_len -= (size_t)n;
                n = 0;
            }
        }
    }
    if (lock) pthread_mutex_unlock(lock);
    return rc;
}

/* Sends a LANE message carrying the descriptor passed (header only). Returns 0, or -1. */
static inline int wire_send_lane(int fd, pthread_mutex_t *lock, int passed) {
    wire_hdr h = {0, MSG_LANE, 0, 0};
    struct iovec iov = {&h, sizeof h};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    memset(&u, 0, sizeof u);
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &passed, sizeof(int));
    pthread_mutex_lock(lock);
    ssize_t n;
    do {
        n = sendmsg(fd, &m, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    pthread_mutex_unlock(lock);
    return n == (ssize_t)sizeof h ? 0 : -1;
}

static inline int wire_read_fully(int fd, void *buf, size_t n) {
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Reads a message header with recvmsg, taking a descriptor passed with it (LANE) into *passed (else -1). */
static inline int wire_read_header(int fd, wire_hdr *h, int *passed) {
    *passed = -1;
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } u;
    struct iovec iov = {h, sizeof *h};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    ssize_t k;
    do {
        k = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
    } while (k < 0 && errno == EINTR);
    if (k <= 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len >= CMSG_LEN(sizeof(int)))
            memcpy(passed, CMSG_DATA(c), sizeof(int));
    }
    if ((size_t)k < sizeof *h && wire_read_fully(fd, (uint8_t *)h + k, sizeof *h - (size_t)k) != 0) return -1;
    return 0;
}

/* Receives one message into *payload (malloc'd, the caller frees). Returns 0, or -1 at the end of the stream.
 * passed: where a descriptor sent with the message goes (-1 when none), or NULL where none is expected. */
static inline int wire_recv_fd(int fd, wire_hdr *h, uint8_t **payload, int *passed) {
    *payload = NULL;
    int got = -1;
    if (passed) {
        if (wire_read_header(fd, h, &got) != 0) return -1;
        *passed = got;
    } else if (wire_read_fully(fd, h, sizeof *h) != 0) {
        return -1;
    }
    if (h->len > WIRE_MAX_PAYLOAD) return -1;
    *payload = malloc(h->len ? h->len : 1);
    if (!*payload) abort();
    if (h->len && wire_read_fully(fd, *payload, h->len) != 0) {
        free(*payload);
        *payload = NULL;
        return -1;
    }
    return 0;
}

static inline int wire_recv(int fd, wire_hdr *h, uint8_t **payload) { return wire_recv_fd(fd, h, payload, NULL); }

#endif /* NDK_TCK_WIRE_H */
