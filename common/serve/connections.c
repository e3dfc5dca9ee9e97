/* connections: deadline and capacity of serve's connections (contract in connections.h). */
#include "serve/connections.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "serve/api.h"

#define EVICTABLE_MS 1000 /* a request this long in arriving may be cut to make room */
#define TICK_MS 100       /* how often the watchdog looks */

typedef enum { RECEIVING, ANSWERING, CLOSING } phase;

typedef struct tracked {
    conn_guard *g;
    int fd;          /* our duplicate of the socket, -1 when none could be made */
    phase ph;
    int shut;        /* shut down for reading and writing: MHD closes it on its next read */
    int64_t since;   /* ms: start of the current phase */
    struct tracked *prev, *next;
} tracked;

struct conn_guard {
    pthread_mutex_t mu;
    pthread_cond_t wake;
    pthread_t watchdog;
    int stopping;
    int capacity, deadline_ms;
    tracked *head; /* every connection MHD has open */
};

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Writes a complete JSON error response to the raw socket, without waiting: nothing else writes
 * to it while a request is arriving, and a client too slow to take it loses only the message. */
static void send_canned(int fd, int status, const char *reason, const char *message) {
    api_response r;
    api_error(&r, status, message);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n"
                     "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\r\n",
                     status, reason, r.content_type, r.len);
    struct iovec iov[2] = {{head, (size_t)n}, {r.body, r.len}};
    struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};
    (void)!sendmsg(fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
    free(r.body);
}

/* Answers (status != 0) and shuts down a connection whose request is late or evicted. */
static void cut(tracked *t, int status, const char *reason, const char *message) {
    if (t->fd >= 0) {
        if (status) send_canned(t->fd, status, reason, message);
        shutdown(t->fd, SHUT_RDWR);
    }
    t->shut = 1;
    t->ph = CLOSING;
}

static void *watchdog_main(void *arg) {
    conn_guard *g = arg;
    char message[128];
    snprintf(message, sizeof message, "the request did not arrive in full within %d ms", g->deadline_ms);
    pthread_mutex_lock(&g->mu);
    while (!g->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&g->wake, &g->mu, &until);
        int64_t now = now_ms();
        for (tracked *t = g->head; t; t = t->next)
            if (t->ph != ANSWERING && !t->shut && now - t->since > g->deadline_ms)
                cut(t, t->ph == RECEIVING ? 408 : 0, "Request Timeout", message);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

conn_guard *conn_guard_start(int capacity, int deadline_ms) {
    conn_guard *g = xcalloc(1, sizeof *g);
    g->capacity = capacity;
    g->deadline_ms = deadline_ms;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->wake, NULL);
    if (pthread_create(&g->watchdog, NULL, watchdog_main, g)) die("cannot start the connection watchdog: out of memory?");
    return g;
}

void conn_guard_stop(conn_guard *g) {
    pthread_mutex_lock(&g->mu);
    g->stopping = 1;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->watchdog, NULL);
    while (g->head) { /* MHD reported every close before MHD_stop_daemon returned; this is a safety net */
        tracked *t = g->head;
        g->head = t->next;
        if (t->fd >= 0) close(t->fd);
        free(t);
    }
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* A new connection: make room or refuse it when `capacity` are open. Called with the lock held. */
static void admit(conn_guard *g, tracked *fresh, int64_t now) {
    int open = 0;
    tracked *oldest = NULL;
    for (tracked *t = g->head; t; t = t->next) {
        if (t == fresh || t->ph == CLOSING) continue;
        open++;
        if (t->ph == RECEIVING && now - t->since >= EVICTABLE_MS && (!oldest || t->since < oldest->since)) oldest = t;
    }
    if (open < g->capacity) return;
    if (oldest) {
        cut(oldest, 408, "Request Timeout", "the server is full and this request was the slowest to arrive");
        return;
    }
    /* refused: the answer and a FIN now; MHD drops the request when its head arrives (or the
     * watchdog when it does not) */
    char message[128];
    snprintf(message, sizeof message, "the server is busy: %d connections are being served; try again", g->capacity);
    if (fresh->fd >= 0) {
        send_canned(fresh->fd, 503, "Service Unavailable", message);
        shutdown(fresh->fd, SHUT_WR);
    }
    fresh->ph = CLOSING;
}

void conn_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
                       enum MHD_ConnectionNotificationCode code) {
    conn_guard *g = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        tracked *t = xcalloc(1, sizeof *t);
        t->g = g;
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        t->fd = ci ? fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
        if (t->fd < 0 && ci) shutdown(ci->connect_fd, SHUT_RDWR); /* no descriptor left to guard it with */
        pthread_mutex_lock(&g->mu);
        int64_t now = now_ms();
        t->since = now;
        t->ph = t->fd >= 0 ? RECEIVING : CLOSING;
        t->shut = t->fd < 0;
        t->next = g->head;
        if (g->head) g->head->prev = t;
        g->head = t;
        if (t->ph == RECEIVING) admit(g, t, now);
        pthread_mutex_unlock(&g->mu);
        *socket_context = t;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        tracked *t = *socket_context;
        if (!t) return;
        pthread_mutex_lock(&g->mu);
        if (t->prev) t->prev->next = t->next;
        else g->head = t->next;
        if (t->next) t->next->prev = t->prev;
        pthread_mutex_unlock(&g->mu);
        if (t->fd >= 0) close(t->fd);
        free(t);
        *socket_context = NULL;
    }
}

static tracked *tracked_of(struct MHD_Connection *conn) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

int conn_guard_refused(struct MHD_Connection *conn) {
    tracked *t = tracked_of(conn);
    if (!t) return 0;
    pthread_mutex_lock(&t->g->mu);
    int refused = t->ph == CLOSING;
    pthread_mutex_unlock(&t->g->mu);
    return refused;
}

int conn_guard_answering(struct MHD_Connection *conn) {
    tracked *t = tracked_of(conn);
    if (!t) return 1;
    pthread_mutex_lock(&t->g->mu);
    if (t->ph == RECEIVING) t->ph = ANSWERING;
    int ok = t->ph == ANSWERING;
    pthread_mutex_unlock(&t->g->mu);
    return ok;
}

void conn_guard_answered(struct MHD_Connection *conn) {
    tracked *t = tracked_of(conn);
    if (!t) return;
    pthread_mutex_lock(&t->g->mu);
    if (t->ph == ANSWERING) {
        t->ph = RECEIVING;
        t->since = now_ms();
    }
    pthread_mutex_unlock(&t->g->mu);
}

void conn_guard_refuse(struct MHD_Connection *conn, int status, const char *reason, const char *message) {
    tracked *t = tracked_of(conn);
    if (!t) return;
    pthread_mutex_lock(&t->g->mu);
    if (!t->shut) cut(t, status, reason, message);
    pthread_mutex_unlock(&t->g->mu);
}

int conn_guard_client_gone(struct MHD_Connection *conn) {
    tracked *t = tracked_of(conn);
    if (!t || t->fd < 0) return 0;
    struct pollfd p = {t->fd, POLLRDHUP, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}
