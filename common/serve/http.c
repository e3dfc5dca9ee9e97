/* http: libmicrohttpd glue of `probexpan serve` (contract in http.h). */
#include "serve/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/budget.h"
#include "base/error.h"
#include "base/log.h"
#include "serve/connections.h"

#define CSP "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " \
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
#define MAX_PARAMS 512
/* The longest request target (path and query string), and each connection's memory for its
 * request head: MHD's default, 32 KiB, held a query string of about 300 parameters, beyond which
 * MHD closed the connection without an answer. This holds a MAX_TARGET line and MAX_PARAMS
 * parameters (MHD keeps each in a record of its own); pages are touched only as a head fills them. */
#define MAX_TARGET (64 * 1024)
#define CONNECTION_MEMORY (256 * 1024)

typedef struct {
    char *data;
    size_t len;
} web_file;

typedef struct {
    const serve_ctx *ctx;
    web_file files[16];     /* by index of static_files[] */
    int loopback;           /* bound to a loopback address: check Host */
    atomic_int in_flight;
    atomic_int stopping;    /* SIGINT/SIGTERM came: no expansion starts any more */
    sem_t turns;            /* expansions at once */
    int turn_wait_ms;
    int budget_ms;          /* the longest an expansion may run once it has its turn */
} server;

/* The server and the connection whose request this thread answers (one thread per connection),
 * for the expansion turns the API asks for. */
static server *the_server;
static _Thread_local struct MHD_Connection *answering;

/* Per-request state (MHD's con_cls). */
typedef struct {
    route rt;
    int status;             /* != 0: the request is refused with this status and message */
    char message[REQUEST_ERR];
    char *body;
    size_t len;
} request_state;

static void load_web_files(server *s, const char *dir) {
    for (int i = 0; i < static_file_count; i++) {
        char *path = xasprintf("%s/%s", dir, static_files[i].file);
        FILE *f = fopen(path, "rb");
        if (!f) die_errno("cannot read the web page's file %s (--web names the folder)", path);
        web_file *w = &s->files[i];
        size_t cap = 65536;
        w->data = xmalloc(cap);
        size_t k;
        while ((k = fread(w->data + w->len, 1, cap - w->len, f)) > 0)
            if ((w->len += k) == cap) w->data = xrealloc(w->data, cap *= 2);
        if (ferror(f)) die_errno("cannot read %s", path);
        fclose(f);
        free(path);
    }
}

static void add_security_headers(struct MHD_Response *resp) {
    MHD_add_response_header(resp, "Content-Security-Policy", CSP);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
}

static enum MHD_Result send_buffer(struct MHD_Connection *conn, int status, const char *data, size_t len,
                                   enum MHD_ResponseMemoryMode mode, const char *type, const char *filename,
                                   const char *cache) {
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)data, mode);
    if (!resp) return MHD_NO;
    add_security_headers(resp);
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "Cache-Control", cache);
    if (filename) {
        char disp[128];
        snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", filename);
        MHD_add_response_header(resp, "Content-Disposition", disp);
    }
    enum MHD_Result rc = MHD_queue_response(conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    return rc;
}

static enum MHD_Result send_api(struct MHD_Connection *conn, api_response *r) {
    return send_buffer(conn, r->status, r->body, r->len, MHD_RESPMEM_MUST_FREE, r->content_type, r->filename, "no-store");
}

static enum MHD_Result send_error(struct MHD_Connection *conn, int status, const char *message) {
    api_response r;
    api_error(&r, status, message);
    return send_api(conn, &r);
}

/* ---- query parameters ---- */

typedef struct {
    query_param p[MAX_PARAMS];
    int n;
    int bad; /* a NUL byte in a key or value, or too many */
} param_list;

static enum MHD_Result collect_param(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                     const char *value, size_t value_size) {
    (void)kind;
    param_list *l = cls;
    if (l->n == MAX_PARAMS || strlen(key) != key_size || (value && strlen(value) != value_size)) {
        l->bad = 1;
        return MHD_NO;
    }
    l->p[l->n++] = (query_param){key, value};
    return MHD_YES;
}

/* ---- request checks ---- */

/* Host is loopback (127.x.x.x, localhost, [::1]) with an optional port. */
static int host_is_loopback(const char *host) {
    if (!host) return 0;
    char name[256];
    snprintf(name, sizeof name, "%s", host);
    char *colon = name[0] == '[' ? strstr(name, "]:") : strrchr(name, ':');
    if (colon) colon[name[0] == '['] = 0;
    if (!strcasecmp(name, "localhost") || !strcmp(name, "[::1]")) return 1;
    struct in_addr a;
    return inet_pton(AF_INET, name, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

/* 0, or a refusal status with its message, for the headers of a new request. */
static int check_headers(server *s, struct MHD_Connection *conn, const char *method, request_state *st) {
    const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
    const char *origin = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
    if (s->loopback && !host_is_loopback(host)) {
        snprintf(st->message, sizeof st->message, "Host header must name this machine (localhost or 127.0.0.1)");
        return 403;
    }
    if (origin && strcmp(origin, "null") && (!host || strncmp(origin, "http://", 7) || strcmp(origin + 7, host))) {
        snprintf(st->message, sizeof st->message, "cross-origin requests are not allowed");
        return 403;
    }
    if (!strcmp(method, "POST")) {
        const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
        if (!type || strncasecmp(type, "application/json", 16) || (type[16] && type[16] != ';' && type[16] != ' ')) {
            snprintf(st->message, sizeof st->message, "Content-Type must be application/json");
            return 415;
        }
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > REQUEST_MAX_BODY) {
            snprintf(st->message, sizeof st->message, "body larger than %d bytes", REQUEST_MAX_BODY);
            return 413;
        }
    }
    return 0;
}

/* What stops a running expansion (common/base/budget.h): its client hung up, or it ran past
 * the server's budget. Per thread: the expansion runs on its connection's thread. */
static _Thread_local struct {
    struct MHD_Connection *conn;
    struct timespec deadline;
} running;

static int expansion_must_stop(void *ctx, char *why, size_t whylen) {
    (void)ctx;
    if (running.conn && conn_guard_client_gone(running.conn)) {
        log_info("an expansion stopped: its client closed the connection");
        snprintf(why, whylen, "the client closed the connection");
        return 1;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > running.deadline.tv_sec ||
        (now.tv_sec == running.deadline.tv_sec && now.tv_nsec >= running.deadline.tv_nsec)) {
        int s = the_server->budget_ms / 1000;
        log_info("an expansion stopped: it ran past its budget of %d s", s);
        snprintf(why, whylen, "the expansion ran past its budget of %d s and was stopped; ask for fewer entities "
                 "(size) or give fewer seeds", s);
        return 1;
    }
    return 0;
}

/* The turn is taken: the expansion's budget starts. */
static int expansion_started(void) {
    running.conn = answering;
    clock_gettime(CLOCK_MONOTONIC, &running.deadline);
    running.deadline.tv_sec += the_server->budget_ms / 1000;
    running.deadline.tv_nsec += (the_server->budget_ms % 1000) * 1000000L;
    if (running.deadline.tv_nsec >= 1000000000L) running.deadline.tv_sec++, running.deadline.tv_nsec -= 1000000000L;
    budget_set(expansion_must_stop, NULL);
    return 0;
}

int http_expansion_begin(char *err, size_t errlen) {
    server *s = the_server;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        if (answering && conn_guard_client_gone(answering)) {
            log_info("an expansion not started: its client closed the connection");
            snprintf(err, errlen, "the client closed the connection");
            return 503;
        }
        if (atomic_load(&s->stopping)) { /* a request in flight still gets a free turn, but none waits */
            if (!sem_trywait(&s->turns)) return expansion_started();
            snprintf(err, errlen, "the server is stopping");
            return 503;
        }
        struct timespec now, until;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long waited = (now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L;
        if (waited >= s->turn_wait_ms) {
            snprintf(err, errlen, "the server is busy: every expansion slot was taken for %d ms; try again",
                     s->turn_wait_ms);
            return 503;
        }
        clock_gettime(CLOCK_REALTIME, &until); /* sem_timedwait's clock */
        until.tv_nsec += 100 * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        if (!sem_timedwait(&s->turns, &until)) return expansion_started();
    }
}

void http_expansion_end(void) {
    budget_set(NULL, NULL);
    sem_post(&the_server->turns);
}

/* The POST routes: their request has a JSON body. */
static int route_takes_body(const route *rt) {
    return rt->kind == ROUTE_EXPAND || rt->kind == ROUTE_NAMES_EDIT || (rt->kind == ROUTE_REBUILD && rt->post);
}

static enum MHD_Result dispatch(server *s, struct MHD_Connection *conn, request_state *st) {
    if (!conn_guard_answering(conn)) return MHD_NO; /* cut by the guard just now */
    if (st->rt.kind == ROUTE_STATIC) {
        const web_file *w = &s->files[st->rt.static_file];
        return send_buffer(conn, 200, w->data, w->len, MHD_RESPMEM_PERSISTENT, static_files[st->rt.static_file].mime,
                           NULL, "no-cache");
    }
    api_response r;
    answering = conn;
    if (route_takes_body(&st->rt)) {
        const char *body = st->body ? st->body : "";
        if (st->rt.kind == ROUTE_EXPAND) api_expand(s->ctx, body, st->len, &r);
        else if (st->rt.kind == ROUTE_NAMES_EDIT) api_names_edit(s->ctx, body, st->len, &r);
        else api_rebuild_start(s->ctx, body, st->len, &r);
        answering = NULL;
        return send_api(conn, &r);
    }
    param_list *pl = xcalloc(1, sizeof *pl);
    MHD_get_connection_values_n(conn, MHD_GET_ARGUMENT_KIND, collect_param, pl);
    if (pl->bad) api_error(&r, 400, "query string: a NUL byte, or more than 512 parameters");
    else if (st->rt.kind == ROUTE_INFO) api_info(s->ctx, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_ENTITIES) api_entities(s->ctx, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_CONTEXTS) api_contexts(s->ctx, st->rt.eid, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_WHY) api_why(s->ctx, st->rt.eid, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_CLASSES) api_classes(s->ctx, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_RESOLVE) api_resolve(s->ctx, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_NAMES) api_names(s->ctx, pl->p, pl->n, &r);
    else if (st->rt.kind == ROUTE_REBUILD) api_rebuild_status(s->ctx, pl->p, pl->n, &r);
    else api_export(s->ctx, pl->p, pl->n, &r);
    answering = NULL;
    free(pl);
    return send_api(conn, &r);
}

/* MHD's unescaping of the request line, noting a decoded NUL (%00): the router would otherwise see
 * /app.js%00.html cut at the NUL, as /app.js. Per thread: one thread per connection, and the
 * request line is unescaped on it just before on_request's first call for that request. */
static _Thread_local int request_line_nul;
static size_t unescape_noting_nul(void *cls, struct MHD_Connection *conn, char *s) {
    (void)cls;
    (void)conn;
    size_t n = MHD_http_unescape(s);
    if (memchr(s, 0, n)) request_line_nul = 1;
    return n;
}

/* MHD_OPTION_URI_LOG_CALLBACK: the request line's target, before MHD splits its query string. A
 * target longer than MAX_TARGET or with more than MAX_PARAMS parameters is answered here: MHD
 * would need more of the connection's memory than the line left it, and close the connection
 * without an answer. */
static void *check_target(void *cls, const char *uri, struct MHD_Connection *conn) {
    (void)cls;
    size_t len = strlen(uri);
    int params = 0;
    for (const char *q = strchr(uri, '?'); q && params <= MAX_PARAMS; q = strchr(q + 1, '&')) params++;
    char message[128];
    if (len > MAX_TARGET) {
        snprintf(message, sizeof message, "the request's URL is longer than %d bytes", MAX_TARGET);
        conn_guard_refuse(conn, 414, "URI Too Long", message);
    } else if (params > MAX_PARAMS) {
        snprintf(message, sizeof message, "query string: more than %d parameters", MAX_PARAMS);
        conn_guard_refuse(conn, 400, "Bad Request", message);
    }
    return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls) {
    (void)version;
    server *s = cls;
    request_state *st = *con_cls;
    if (!st) { /* headers complete: route and check before any body arrives */
        if (conn_guard_refused(conn)) return MHD_NO; /* already answered 503 or 408 */
        st = xcalloc(1, sizeof *st);
        *con_cls = st;
        atomic_fetch_add(&s->in_flight, 1);
        if (request_line_nul) {
            st->status = 400;
            snprintf(st->message, sizeof st->message, "a NUL byte (%%00) in the request line");
        } else st->status = request_route(method, url, &st->rt, st->message, sizeof st->message);
        request_line_nul = 0;
        if (!st->status) st->status = check_headers(s, conn, method, st);
        /* refuse at once; MHD closes the connection instead of reading the unwanted body */
        if (st->status == 413 || st->status == 415 || st->status == 403)
            return conn_guard_answering(conn) ? send_error(conn, st->status, st->message) : MHD_NO;
        return MHD_YES;
    }
    if (*upload_data_size) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (st->status) return MHD_YES; /* discarded */
        if (!route_takes_body(&st->rt)) {
            st->status = 400;
            snprintf(st->message, sizeof st->message, "this route takes no request body");
        } else if (st->len + n > REQUEST_MAX_BODY) {
            st->status = 413;
            snprintf(st->message, sizeof st->message, "body larger than %d bytes", REQUEST_MAX_BODY);
        } else {
            st->body = xrealloc(st->body, st->len + n + 1);
            memcpy(st->body + st->len, upload_data, n);
            st->len += n;
        }
        return MHD_YES;
    }
    if (st->status) return conn_guard_answering(conn) ? send_error(conn, st->status, st->message) : MHD_NO;
    return dispatch(s, conn, st);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe) {
    (void)toe;
    server *s = cls;
    request_state *st = *con_cls;
    conn_guard_answered(conn);
    request_line_nul = 0;
    if (!st) return;
    free(st->body);
    free(st);
    *con_cls = NULL;
    atomic_fetch_sub(&s->in_flight, 1);
}

static void on_mhd_error(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\n")] = 0;
    log_warn("http: %s", msg);
}

int http_address_ok(const char *bind) {
    unsigned char buf[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, bind, buf) == 1 || inet_pton(AF_INET6, bind, buf) == 1;
}

int http_serve(const serve_ctx *ctx, const http_options *o) {
    server s = {.ctx = ctx, .turn_wait_ms = o->turn_wait_ms, .budget_ms = o->budget_ms};
    atomic_init(&s.in_flight, 0);
    atomic_init(&s.stopping, 0);
    sem_init(&s.turns, 0, (unsigned)o->expansions);
    the_server = &s;
    load_web_files(&s, o->web_dir);

    struct sockaddr_in v4 = {0};
    struct sockaddr_in6 v6 = {0};
    struct sockaddr *addr;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (!http_address_ok(o->bind)) die_usage("--bind: expected an IPv4 or IPv6 address, found '%s'", o->bind);
    if (inet_pton(AF_INET, o->bind, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons((uint16_t)o->port);
        addr = (struct sockaddr *)&v4;
        s.loopback = (ntohl(v4.sin_addr.s_addr) >> 24) == 127;
    } else {
        inet_pton(AF_INET6, o->bind, &v6.sin6_addr);
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons((uint16_t)o->port);
        addr = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
        s.loopback = IN6_IS_ADDR_LOOPBACK(&v6.sin6_addr);
    }

    /* SIGINT/SIGTERM are taken by sigwait below; MHD's threads inherit the blocked mask */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* MHD's limit is above the guard's capacity so that the guard sees, and answers, the connections
     * beyond it; MHD's idle timeout stays as a backstop behind the guard's deadline */
    conn_guard *guard = conn_guard_start(o->max_connections, o->request_ms);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)o->port, NULL, NULL, on_request, &s, MHD_OPTION_EXTERNAL_LOGGER, on_mhd_error, NULL,
        MHD_OPTION_SOCK_ADDR, addr, MHD_OPTION_NOTIFY_COMPLETED, on_completed, &s, MHD_OPTION_NOTIFY_CONNECTION,
        conn_guard_notify, guard, MHD_OPTION_CONNECTION_LIMIT, (unsigned)(2 * o->max_connections + 16),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_SECONDS,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY, MHD_OPTION_UNESCAPE_CALLBACK, unescape_noting_nul,
        NULL, MHD_OPTION_URI_LOG_CALLBACK, check_target, NULL, MHD_OPTION_END);
    if (!d) die("cannot listen on %s port %d (in use? try --port 0 for any free port)", o->bind, o->port);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    int port = info ? info->port : o->port;
    int v6addr = addr->sa_family == AF_INET6;
    printf("listening on http://%s%s%s:%d/\n", v6addr ? "[" : "", o->bind, v6addr ? "]" : "", port);
    fflush(stdout);

    int sig;
    sigwait(&stop, &sig);
    log_info("%s: finishing %d request(s) in flight", sig == SIGINT ? "SIGINT" : "SIGTERM", atomic_load(&s.in_flight));
    atomic_store(&s.stopping, 1);
    MHD_socket listener = MHD_quiesce_daemon(d);
    for (int waited = 0; atomic_load(&s.in_flight) > 0 && waited < HTTP_DRAIN_SECONDS * 100; waited++) usleep(10000);
    if (atomic_load(&s.in_flight) > 0) { /* MHD_stop_daemon would wait for them: leave them */
        log_warn("%d request(s) still running after %d s: stopping without them", atomic_load(&s.in_flight),
                 HTTP_DRAIN_SECONDS);
        _exit(1);
    }
    MHD_stop_daemon(d);
    conn_guard_stop(guard);
    sem_destroy(&s.turns);
    if (listener != MHD_INVALID_SOCKET) close(listener);
    for (int i = 0; i < static_file_count; i++) free(s.files[i].data);
    log_done("served until %s", sig == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
