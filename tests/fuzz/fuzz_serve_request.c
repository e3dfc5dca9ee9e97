/* fuzz_serve_request: libFuzzer target for the request parsers of `probexpan serve`
 * (common/serve/request.h) — no sockets, no files. The first byte picks the parser:
 *   0: the POST /api/expand body (the rest of the input, as sent);
 *   1: request_route: method, a newline, the URL path;
 *   2: a query string "k=v&k=v..." split as libmicrohttpd would (already decoded), through
 *      expand_request_from_params, why_request_from_params, contexts_request_from_params,
 *      request_params_check and request_param_int.
 * Contract checked: every input ends in 0 or a 4xx status with a message, and an accepted
 * request satisfies the documented limits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/request.h"

#define FUZZ_ASSERT(c) do { if (!(c)) abort(); } while (0)

static void check_request(const expand_request *q) {
    FUZZ_ASSERT(q->size >= 1 && q->size <= REQUEST_MAX_SIZE);
    FUZZ_ASSERT(q->nseeds <= REQUEST_MAX_LIST && q->nnegatives <= REQUEST_MAX_LIST && q->naccepted <= REQUEST_MAX_LIST);
    FUZZ_ASSERT(q->variant >= 0 && q->variant < VARIANT_COUNT);
    for (int i = 0; i < q->nseeds; i++)
        FUZZ_ASSERT(q->seeds[i].name ? strlen(q->seeds[i].name) > 0 && strlen(q->seeds[i].name) <= REQUEST_MAX_NAME
                                     : q->seeds[i].eid >= 0);
}

static void check_status(int rc, const char *err) {
    FUZZ_ASSERT(rc == 0 || (rc >= 400 && rc < 500 && err[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char err[REQUEST_ERR] = "";
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    char *text = malloc(len + 1);
    memcpy(text, body, len);
    text[len] = 0;
    if (data[0] % 3 == 0) {
        expand_request q;
        int rc = expand_request_from_json(body, len, &q, err, sizeof err);
        check_status(rc, err);
        if (rc == 0) check_request(&q);
        expand_request_free(&q);
    } else if (data[0] % 3 == 1) {
        char *nl = strchr(text, '\n');
        route r;
        int rc = nl ? (*nl = 0, request_route(text, nl + 1, &r, err, sizeof err)) : request_route("GET", text, &r, err, sizeof err);
        check_status(rc, err);
        if (rc == 0 && r.kind == ROUTE_STATIC) FUZZ_ASSERT(r.static_file >= 0 && r.static_file < static_file_count);
        if (rc == 0 && r.kind == ROUTE_CONTEXTS) FUZZ_ASSERT(r.eid >= 0);
    } else {
        query_param p[64];
        int n = 0;
        for (char *save = NULL, *pair = strtok_r(text, "&", &save); pair && n < 64; pair = strtok_r(NULL, "&", &save)) {
            char *eq = strchr(pair, '=');
            if (eq) *eq = 0;
            p[n++] = (query_param){pair, eq ? eq + 1 : NULL};
        }
        expand_request q;
        int rc = expand_request_from_params(p, n, &q, err, sizeof err);
        check_status(rc, err);
        if (rc == 0) check_request(&q);
        expand_request_free(&q);
        int features;
        rc = why_request_from_params(p, n, &q, &features, err, sizeof err);
        check_status(rc, err);
        if (rc == 0) {
            check_request(&q);
            FUZZ_ASSERT(features >= 0 && features <= REQUEST_MAX_FEATURES);
            expand_request_free(&q);
        }
        contexts_request cq;
        rc = contexts_request_from_params(p, n, 20, &cq, err, sizeof err);
        check_status(rc, err);
        if (rc == 0) FUZZ_ASSERT(cq.limit >= 1 && cq.limit <= 20 && cq.features >= 0 && cq.features <= REQUEST_MAX_FEATURES &&
                                 cq.nseeds <= REQUEST_MAX_LIST);
        contexts_request_free(&cq);
        static const char *const allowed[] = {"prefix", "limit", NULL};
        check_status(request_params_check(p, n, allowed, err, sizeof err), err);
        int v;
        rc = request_param_int(p, n, "limit", 20, 1, 1000, &v, err, sizeof err);
        check_status(rc, err);
        if (rc == 0) FUZZ_ASSERT(v >= 1 && v <= 1000);
    }
    free(text);
    return 0;
}
