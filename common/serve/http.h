/* http: the socket side of `probexpan serve` on libmicrohttpd — one thread per connection,
 * routes (common/serve/request.h) to the API handlers (common/serve/api.h) or to the web
 * page's files, which are read once at start-up from a fixed list (no request names a path; a
 * %00 in the request line is 400, never a path cut at the NUL).
 *
 * Limits and safety: POST bodies over REQUEST_MAX_BODY bytes get 413; connections are guarded
 * by common/serve/connections.h (a deadline for each request's head and body, a capacity with
 * 503 beyond it); expansions take turns (http_expansion_begin), and one waiting longer than
 * its allowance, or whose client hung up, or that would start after SIGTERM gets 503, and one
 * running past its budget (http_options.budget_ms) or whose client hangs up while it runs is
 * stopped (503); a request target over 64 KiB is 414, one with over 512 parameters 400; POST needs
 * Content-Type application/json (a cross-site HTML form cannot send that) and an Origin
 * header, when present, must be this server's; when bound to a loopback address the Host
 * header must name loopback too (no DNS rebinding). Every response carries a restrictive
 * Content-Security-Policy, nosniff, no-referrer and frame-ancestors 'none'; no CORS header
 * is ever sent. SIGINT/SIGTERM stop accepting, let the requests in flight finish (up to
 * HTTP_DRAIN_SECONDS), then return; when some still run after that, the process ends with exit 1
 * without them. */
#ifndef PROBEXPAN_SERVE_HTTP_H
#define PROBEXPAN_SERVE_HTTP_H

#include "serve/api.h"

#define HTTP_IDLE_SECONDS 30
#define HTTP_DRAIN_SECONDS 60

typedef struct {
    const char *bind;    /* IPv4 or IPv6 address */
    int port;            /* 0 = any free port */
    const char *web_dir; /* folder with the files of request.h's static_files */
    int max_connections; /* the guard's capacity */
    int request_ms;      /* the guard's deadline for a request's head and body */
    int expansions;      /* expansions at once */
    int turn_wait_ms;    /* the longest an expansion waits for its turn */
    int budget_ms;       /* the longest an expansion runs once it has its turn (then 503) */
} http_options;

/* 1 when `bind` is an IPv4 or IPv6 address http_serve can listen on. */
int http_address_ok(const char *bind);
/* Serves until SIGINT or SIGTERM; prints "listening on http://ADDR:PORT/" on stdout once
 * ready. Dies (exit 1) when the address cannot be bound or a web file cannot be read;
 * returns 0 after a clean shutdown. */
int http_serve(const serve_ctx *ctx, const http_options *o);
/* serve_ctx's expansion_begin/expansion_end while http_serve runs: a turn among
 * http_options.expansions, waited for up to turn_wait_ms; once the turn is taken, the calling
 * thread's budget (common/base/budget.h) is spent after budget_ms or when the client hangs up,
 * which stops the expansion (the engine returns ENGINE_STOPPED, answered 503). */
int http_expansion_begin(char *err, size_t errlen);
void http_expansion_end(void);

#endif
