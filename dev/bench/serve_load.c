/* serve_load: load test of `probexpan serve` — N clients on keep-alive HTTP/1.1
 * connections for D seconds, each repeating a user's rhythm: four autocomplete requests (a
 * prefix of 1-4 letters of a known name) then one expansion (three seeds drawn from the
 * most-mentioned entities, the given variant and size). Prints requests served, errors
 * (anything but 200, or a broken connection) and the p50/p99/max latency of each kind.
 * --only autocomplete|expand sends that kind alone; --requests N stops each client after N
 * requests (with --seconds as a time limit) — a fixed amount of work, for measuring the
 * server's CPU time per request.
 *
 * --slow N is the attacker instead: N sockets, each sending a request head one byte every
 * 500 ms and never finishing it; a socket the server answers or closes is opened again at once.
 * Prints how many answers were 408 and 503 and how many closed without one.
 *
 *   serve_load HOST PORT [--clients 8] [--seconds 60] [--variant noclen] [--size 50] [--random-seed 1]
 *                        [--only autocomplete|expand] [--requests N] [--slow N]
 *
 * The seeds are drawn from the server's own /api/entities answer, so the load fits any run. */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define POOL 200

typedef struct {
    double *ms;
    int64_t n, cap;
} latencies;

static const char *host;
static int port, clients = 8, seconds = 60, size = 50, slow = 0;
static const char *variant = "noclen", *only = NULL;
static int64_t max_requests = INT64_MAX;
static unsigned seed = 1;
static int64_t pool_eid[POOL];
static char *pool_name[POOL];
static int pool_n;
static double t_end;

typedef struct {
    int id;
    latencies ac, ex;
    int64_t errors;
} client;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int connect_server(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, host, &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) { close(fd); return -1; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* One request on the connection *fd (re-opened when the server closed it); the body goes to
 * *body (malloc'd) when body != NULL. Returns the HTTP status, or -1 on a broken connection. */
static int request(int *fd, const char *head, const char *payload, char **body) {
    char req[4096];
    int n = snprintf(req, sizeof req, "%sHost: %s:%d\r\n%s%s", head, host, port,
                     payload ? "Content-Type: application/json\r\n" : "", "");
    if (payload) n += snprintf(req + n, sizeof req - (size_t)n, "Content-Length: %zu\r\n\r\n%s", strlen(payload), payload);
    else n += snprintf(req + n, sizeof req - (size_t)n, "\r\n");
    for (int attempt = 0; attempt < 2; attempt++) {
        if (*fd < 0 && (*fd = connect_server()) < 0) return -1;
        if (write(*fd, req, (size_t)n) != n) { close(*fd); *fd = -1; continue; }
        size_t cap = 1 << 16, len = 0;
        char *buf = malloc(cap), *hdr_end = NULL;
        long clen = -1;
        for (;;) {
            if (len + 1 >= cap) buf = realloc(buf, cap *= 2);
            ssize_t k = read(*fd, buf + len, cap - len - 1);
            if (k <= 0) break;
            len += (size_t)k;
            buf[len] = 0;
            if (!hdr_end && (hdr_end = strstr(buf, "\r\n\r\n"))) {
                char *cl = strcasestr(buf, "\r\nContent-Length:");
                clen = cl && cl < hdr_end ? strtol(cl + 17, NULL, 10) : -1;
            }
            if (hdr_end && clen >= 0 && len >= (size_t)(hdr_end + 4 - buf) + (size_t)clen) break;
        }
        if (!hdr_end || clen < 0 || len < (size_t)(hdr_end + 4 - buf) + (size_t)clen) {
            free(buf);
            close(*fd);
            *fd = -1;
            if (len == 0 && attempt == 0) continue; /* a kept-alive connection the server had closed */
            return -1;
        }
        int status = atoi(buf + 9);
        if (body) *body = strndup(hdr_end + 4, (size_t)clen);
        free(buf);
        return status;
    }
    return -1;
}

static void record(latencies *l, double ms) {
    if (l->n == l->cap) l->ms = realloc(l->ms, sizeof(double) * (size_t)(l->cap = l->cap ? 2 * l->cap : 4096));
    l->ms[l->n++] = ms;
}

static void *run_client(void *arg) {
    client *c = arg;
    unsigned r = seed * 7919u + (unsigned)c->id;
    int fd = -1;
    char head[1024], payload[512];
    int64_t sent = 0;
    while (now_ms() < t_end && sent < max_requests) {
        for (int k = 0; k < 5 && now_ms() < t_end && sent < max_requests; k++) {
            int status, autocomplete = only ? !strcmp(only, "autocomplete") : k < 4;
            double t0 = now_ms();
            sent++;
            if (autocomplete) {
                const char *name = pool_name[rand_r(&r) % (unsigned)pool_n];
                int plen = 1 + (int)(rand_r(&r) % 4);
                char prefix[16] = "";
                for (int i = 0, o = 0; name[i] && i < plen && o < 12; i++) {
                    unsigned char ch = (unsigned char)name[i];
                    o += ch < 128 && ch != ' ' ? snprintf(prefix + o, sizeof prefix - (size_t)o, "%c", ch)
                                                : snprintf(prefix + o, sizeof prefix - (size_t)o, "%%%02X", ch);
                }
                snprintf(head, sizeof head, "GET /api/entities?limit=8&prefix=%s HTTP/1.1\r\n", prefix);
                status = request(&fd, head, NULL, NULL);
                record(&c->ac, now_ms() - t0);
            } else {
                int64_t a = pool_eid[rand_r(&r) % (unsigned)pool_n], b, d;
                do b = pool_eid[rand_r(&r) % (unsigned)pool_n]; while (b == a);
                do d = pool_eid[rand_r(&r) % (unsigned)pool_n]; while (d == a || d == b);
                snprintf(payload, sizeof payload, "{\"seeds\":[%lld,%lld,%lld],\"size\":%d,\"variant\":\"%s\"}", (long long)a,
                         (long long)b, (long long)d, size, variant);
                status = request(&fd, "POST /api/expand HTTP/1.1\r\n", payload, NULL);
                record(&c->ex, now_ms() - t0);
            }
            if (status != 200) c->errors++;
        }
    }
    if (fd >= 0) close(fd);
    return NULL;
}

/* The slow clients of --slow n for --seconds: one byte of an endless request head per socket every
 * 500 ms. Returns 0 (the figures are printed). */
static int run_slow(int n) {
    static const char head_start[] = "GET /api/info HTTP/1.1\r\nX-Slow: ";
    int *fd = malloc(sizeof(int) * (size_t)n);
    int64_t opened = 0, got408 = 0, got503 = 0, closed = 0, failed = 0;
    for (int i = 0; i < n; i++) fd[i] = -1;
    while (now_ms() < t_end) {
        double tick = now_ms();
        for (int i = 0; i < n; i++) {
            if (fd[i] >= 0) { /* answered or closed since the last byte? */
                struct pollfd p = {fd[i], POLLIN, 0};
                if (poll(&p, 1, 0) == 1) {
                    char buf[64] = "";
                    ssize_t k = recv(fd[i], buf, sizeof buf - 1, MSG_DONTWAIT);
                    if (k > 12 && !strncmp(buf + 9, "408", 3)) got408++;
                    else if (k > 12 && !strncmp(buf + 9, "503", 3)) got503++;
                    else closed++;
                    close(fd[i]);
                    fd[i] = -1;
                }
            }
            if (fd[i] < 0) {
                if ((fd[i] = connect_server()) < 0) { failed++; continue; }
                opened++;
                if (send(fd[i], head_start, sizeof head_start - 1, MSG_NOSIGNAL) < 0) { close(fd[i]); fd[i] = -1; }
            } else if (send(fd[i], "x", 1, MSG_NOSIGNAL) < 0) {
                closed++;
                close(fd[i]);
                fd[i] = -1;
            }
        }
        double left = 500 - (now_ms() - tick);
        if (left > 0) usleep((useconds_t)(left * 1000));
    }
    int held = 0;
    for (int i = 0; i < n; i++)
        if (fd[i] >= 0) held++, close(fd[i]);
    printf("%d slow clients, %d s: %lld connections opened, %lld answered 408, %lld answered 503, %lld closed without "
           "an answer, %lld connects failed, %d held at the end\n", n, seconds, (long long)opened, (long long)got408,
           (long long)got503, (long long)closed, (long long)failed, held);
    free(fd);
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, latencies *l) {
    if (!l->n) { printf("%-13s %8d requests\n", what, 0); return; }
    qsort(l->ms, (size_t)l->n, sizeof(double), cmp_double);
    printf("%-13s %8lld requests  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms\n", what, (long long)l->n,
           l->ms[(l->n - 1) / 2], l->ms[(int64_t)((double)(l->n - 1) * 0.99)], l->ms[l->n - 1]);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: serve_load HOST PORT [--clients N] [--seconds S] [--variant V] [--size N] [--random-seed N] [--only autocomplete|expand] [--requests N] [--slow N]\n");
        return 2;
    }
    host = argv[1];
    port = atoi(argv[2]);
    for (int i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--clients")) clients = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds")) seconds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--variant")) variant = argv[i + 1];
        else if (!strcmp(argv[i], "--size")) size = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--random-seed")) seed = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--only")) only = argv[i + 1];
        else if (!strcmp(argv[i], "--requests")) max_requests = atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--slow")) slow = atoi(argv[i + 1]);
        else { fprintf(stderr, "serve_load: unknown option %s\n", argv[i]); return 2; }
    }
    if (clients < 1 || clients > 256 || seconds < 1 || max_requests < 1 || slow < 0 || slow > 4096 ||
        (only && strcmp(only, "autocomplete") && strcmp(only, "expand"))) {
        fprintf(stderr, "serve_load: bad --clients, --seconds, --requests, --slow or --only\n");
        return 2;
    }
    if (slow) {
        t_end = now_ms() + 1e3 * seconds;
        return run_slow(slow);
    }
    int fd = -1;
    char *body = NULL, head[128];
    snprintf(head, sizeof head, "GET /api/entities?limit=%d HTTP/1.1\r\n", POOL);
    if (request(&fd, head, NULL, &body) != 200) { fprintf(stderr, "serve_load: no answer from %s:%d\n", host, port); return 1; }
    close(fd);
    json_t *root = json_loads(body, 0, NULL), *list = json_object_get(root, "entities"), *e;
    size_t i;
    json_array_foreach(list, i, e) {
        pool_eid[pool_n] = json_integer_value(json_object_get(e, "eid"));
        pool_name[pool_n++] = strdup(json_string_value(json_object_get(e, "name")));
    }
    json_decref(root);
    free(body);
    if (pool_n < 3) { fprintf(stderr, "serve_load: the run has fewer than 3 entities\n"); return 1; }

    client *c = calloc((size_t)clients, sizeof *c);
    pthread_t *th = calloc((size_t)clients, sizeof *th);
    t_end = now_ms() + 1e3 * seconds;
    double t0 = now_ms();
    for (int k = 0; k < clients; k++) {
        c[k].id = k;
        pthread_create(&th[k], NULL, run_client, &c[k]);
    }
    latencies ac = {0}, ex = {0};
    int64_t errors = 0;
    for (int k = 0; k < clients; k++) {
        pthread_join(th[k], NULL);
        for (int64_t j = 0; j < c[k].ac.n; j++) record(&ac, c[k].ac.ms[j]);
        for (int64_t j = 0; j < c[k].ex.n; j++) record(&ex, c[k].ex.ms[j]);
        errors += c[k].errors;
    }
    double secs = (now_ms() - t0) / 1e3;
    printf("%d clients, %.1f s, expand variant %s size %d: %lld requests served (%.1f/s), %lld errors\n", clients, secs,
           variant, size, (long long)(ac.n + ex.n), (double)(ac.n + ex.n) / secs, (long long)errors);
    report("autocomplete", &ac);
    report("expand", &ex);
    return errors ? 1 : 0;
}
