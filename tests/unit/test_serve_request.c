/* test_serve_request: routes and request parsers of `probexpan serve`
 * (common/serve/request.h) — what is accepted, and that each refusal names its problem. */
#include <string.h>

#include "check.h"
#include "serve/request.h"

static char err[REQUEST_ERR];

static int route_of(const char *method, const char *path, route *r) { return request_route(method, path, r, err, sizeof err); }

static void test_routes(void) {
    route r;
    CHECK_EQ_INT(route_of("GET", "/", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_STATIC);
    CHECK_STR(static_files[r.static_file].file, "index.html");
    CHECK_EQ_INT(route_of("GET", "/app.js", &r), 0);
    CHECK_STR(static_files[r.static_file].file, "app.js");
    CHECK_EQ_INT(route_of("HEAD", "/style.css", &r), 0);
    CHECK_EQ_INT(route_of("GET", "/api/info", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_INFO);
    CHECK_EQ_INT(route_of("GET", "/api/entities", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_ENTITIES);
    CHECK_EQ_INT(route_of("POST", "/api/expand", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_EXPAND);
    CHECK_EQ_INT(route_of("GET", "/api/export", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_EXPORT);
    CHECK_EQ_INT(route_of("GET", "/api/entity/1234/contexts", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_CONTEXTS);
    CHECK_EQ_INT(r.eid, 1234);
    CHECK_EQ_INT(route_of("GET", "/api/entity/77/why", &r), 0);
    CHECK_EQ_INT(r.kind, ROUTE_WHY);
    CHECK_EQ_INT(r.eid, 77);
    CHECK_EQ_INT(route_of("POST", "/api/entity/77/why", &r), 405);
    CHECK_EQ_INT(route_of("GET", "/api/entity/7x/why", &r), 404);
    CHECK(strstr(err, "/why must be digits"));
    CHECK_EQ_INT(route_of("GET", "/api/entity//why", &r), 404);
}

/* why: the expansion's parameters but format, and features. */
static void test_why_params(void) {
    expand_request q;
    int features;
    const query_param ok[] = {{"seed", "Ohio"}, {"seed", "5"}, {"negative", "Utah"}, {"size", "20"}, {"variant", "noclen"}};
    CHECK_EQ_INT(why_request_from_params(ok, 5, &q, &features, err, sizeof err), 0);
    CHECK_EQ_INT(q.nseeds, 2);
    CHECK_EQ_INT(q.nnegatives, 1);
    CHECK_EQ_INT(q.size, 20);
    CHECK_EQ_INT(q.variant, VARIANT_NOCLEN);
    CHECK_EQ_INT(features, REQUEST_DEFAULT_FEATURES);
    expand_request_free(&q);
    const query_param some[] = {{"seed", "Ohio"}, {"features", "0"}};
    CHECK_EQ_INT(why_request_from_params(some, 2, &q, &features, err, sizeof err), 0);
    CHECK_EQ_INT(features, 0);
    expand_request_free(&q);
    static const struct { query_param p; const char *says; } bad[] = {
        {{"format", "tsv"}, "unknown parameter 'format'"}, {{"features", "101"}, "features"}, {{"features", "-1"}, "features"},
        {{"size", "0"}, "size"}, {{"limit", "3"}, "unknown parameter 'limit'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        query_param two[2] = {{"seed", "Ohio"}, bad[i].p};
        int rc = why_request_from_params(two, 2, &q, &features, err, sizeof err);
        CHECK_MSG(rc == 400 && strstr(err, bad[i].says), "%s=%s: %d \"%s\"", bad[i].p.key, bad[i].p.value, rc, err);
    }
    const query_param none[] = {{"features", "3"}};
    CHECK_EQ_INT(why_request_from_params(none, 1, &q, &features, err, sizeof err), 400);
    CHECK(strstr(err, "seed: missing"));
}

static void test_route_refusals(void) {
    route r;
    const char *unknown[] = {"/../etc/passwd", "/web/index.html", "/index.html/", "/api", "/api/entities/",
                             "/app.js?x", "/samples.mp", "//", ""};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        CHECK_MSG(route_of("GET", unknown[i], &r) == 404, "%s should be 404", unknown[i]);
        CHECK(strstr(err, "unknown route"));
    }
    const char *bad_eid[] = {"/api/entity//contexts", "/api/entity/-1/contexts", "/api/entity/1a/contexts",
                             "/api/entity/ 1/contexts", "/api/entity/1234567890123456789/contexts"};
    for (size_t i = 0; i < sizeof bad_eid / sizeof bad_eid[0]; i++) CHECK_MSG(route_of("GET", bad_eid[i], &r) == 404, "%s", bad_eid[i]);
    CHECK_EQ_INT(route_of("GET", "/api/expand", &r), 405);
    CHECK(strstr(err, "use POST"));
    CHECK_EQ_INT(route_of("POST", "/api/entities", &r), 405);
    CHECK_EQ_INT(route_of("DELETE", "/", &r), 405);
    CHECK_EQ_INT(route_of("GET", "/\xff\xfe", &r), 404); /* not UTF-8: named without quoting it */
    CHECK(strstr(err, "not UTF-8"));
}

static int from_json(const char *body, expand_request *q) {
    return expand_request_from_json(body, strlen(body), q, err, sizeof err);
}

static void test_expand_json(void) {
    expand_request q;
    CHECK_EQ_INT(from_json("{\"seeds\": [\"Ohio\", 5, \"Sun Microsystems, Inc.\"], \"negative_seeds\": [\"Chicago\"],"
                           " \"accepted\": [7], \"size\": 120, \"variant\": \"noclen\"}", &q), 0);
    CHECK_EQ_INT(q.nseeds, 3);
    CHECK_STR(q.seeds[0].name, "Ohio");
    CHECK(q.seeds[1].name == NULL);
    CHECK_EQ_INT(q.seeds[1].eid, 5);
    CHECK_STR(q.seeds[2].name, "Sun Microsystems, Inc.");
    CHECK_EQ_INT(q.nnegatives, 1);
    CHECK_EQ_INT(q.naccepted, 1);
    CHECK_EQ_INT(q.accepted[0].eid, 7);
    CHECK_EQ_INT(q.size, 120);
    CHECK_EQ_INT(q.variant, VARIANT_NOCLEN);
    expand_request_free(&q);
    CHECK_EQ_INT(from_json("{\"seeds\": []}", &q), 0); /* the API checks the count against the entities */
    CHECK_EQ_INT(q.size, REQUEST_DEFAULT_SIZE);
    CHECK_EQ_INT(q.variant, VARIANT_FULL);
    CHECK_EQ_INT(q.cut_auto, 0);
    expand_request_free(&q);
    CHECK_EQ_INT(from_json("{\"seeds\": [\"a\"], \"cut\": \"auto\"}", &q), 0);
    CHECK_EQ_INT(q.cut_auto, 1);
    expand_request_free(&q);
}

static void test_expand_json_refusals(void) {
    static const struct { const char *body, *says; } cases[] = {
        {"", "malformed JSON"},
        {"{\"seeds\": [\"Ohio\"", "malformed JSON"},
        {"[1, 2]", "expected a JSON object"},
        {"{\"size\": 5}", "seeds: missing"},
        {"{\"seeds\": \"Ohio,Texas\"}", "seeds: expected an array"},
        {"{\"seeds\": [1.5]}", "seeds[0]"},
        {"{\"seeds\": [\"a\", -3]}", "seeds[1]"},
        {"{\"seeds\": [\"a\", null]}", "seeds[1]"},
        {"{\"seeds\": [\"\"]}", "seeds[0]: empty name"},
        {"{\"seeds\": [\"a\"], \"negative_seeds\": {}}", "negative_seeds: expected an array"},
        {"{\"seeds\": [\"a\"], \"size\": 0}", "size"},
        {"{\"seeds\": [\"a\"], \"size\": 1001}", "size"},
        {"{\"seeds\": [\"a\"], \"size\": \"10\"}", "size"},
        {"{\"seeds\": [\"a\"], \"variant\": \"best\"}", "variant: expected full"},
        {"{\"seeds\": [\"a\"], \"variant\": 1}", "variant: expected a string"},
        {"{\"seeds\": [\"a\"], \"cut\": \"maybe\"}", "cut: expected none or auto"},
        {"{\"seeds\": [\"a\"], \"cut\": true}", "cut: expected a string"},
        {"{\"seeds\": [\"a\"], \"negatives\": []}", "unknown key 'negatives'"},
        {"{\"seeds\": [\"a\"], \"seeds\": [\"b\"]}", "malformed JSON"},
        {"{\"seeds\": [\"a\\u0000b\"]}", "malformed JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expand_request q;
        int rc = from_json(cases[i].body, &q);
        CHECK_MSG(rc == 400 && strstr(err, cases[i].says), "body %s: status %d, message \"%s\", expected 400 with \"%s\"",
                  cases[i].body, rc, err, cases[i].says);
        CHECK(q.seeds == NULL && q.nseeds == 0); /* nothing left allocated */
    }
    /* too many entities, and a body over the limit */
    char big[REQUEST_MAX_BODY + 2];
    char *o = big + sprintf(big, "{\"seeds\": [");
    for (int i = 0; i <= REQUEST_MAX_LIST; i++) o += sprintf(o, "%s%d", i ? "," : "", i);
    strcpy(o, "]}");
    expand_request q;
    CHECK_EQ_INT(from_json(big, &q), 400);
    CHECK(strstr(err, "more than"));
    memset(big, ' ', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK_EQ_INT(from_json(big, &q), 413);
    /* an embedded NUL byte ends nothing early: the whole length is parsed */
    CHECK_EQ_INT(expand_request_from_json("{\"seeds\":[1,2]}\0junk", 20, &q, err, sizeof err), 400);
}

static void test_export_params(void) {
    const query_param p[] = {{"seed", "Sun Microsystems, Inc."}, {"seed", "42"}, {"negative", "Chicago"},
                             {"accepted", "0"}, {"size", "7"}, {"variant", "nocl"}, {"format", "json"}, {"cut", "auto"}};
    expand_request q;
    CHECK_EQ_INT(expand_request_from_params(p, 8, &q, err, sizeof err), 0);
    CHECK_EQ_INT(q.cut_auto, 1);
    CHECK_EQ_INT(q.nseeds, 2);
    CHECK_STR(q.seeds[0].name, "Sun Microsystems, Inc."); /* commas stay inside one name */
    CHECK_EQ_INT(q.seeds[1].eid, 42);
    CHECK_EQ_INT(q.accepted[0].eid, 0);
    CHECK_STR(q.negatives[0].name, "Chicago");
    CHECK_EQ_INT(q.size, 7);
    CHECK_EQ_INT(q.variant, VARIANT_NOCL);
    CHECK_EQ_INT(q.format, EXPORT_JSON);
    expand_request_free(&q);

    static const struct { query_param p; const char *says; } bad[] = {
        {{"format", "csv"}, "format"}, {{"size", "-1"}, "size"}, {{"size", "1e3"}, "size"}, {{"size", " 5"}, "size"},
        {{"seed", ""}, "empty name"}, {{"seed", NULL}, "empty name"}, {{"sed", "a"}, "unknown parameter 'sed'"},
        {{"seed", "\xc3\x28"}, "not valid UTF-8"}, {{"variant", "x"}, "variant"}, {{"cut", "half"}, "cut: expected none or auto"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        query_param two[2] = {{"seed", "Ohio"}, bad[i].p};
        int rc = expand_request_from_params(two, 2, &q, err, sizeof err);
        CHECK_MSG(rc == 400 && strstr(err, bad[i].says), "%s=%s: %d \"%s\"", bad[i].p.key, bad[i].p.value ? bad[i].p.value : "(none)", rc, err);
    }
    const query_param none[] = {{"format", "tsv"}};
    CHECK_EQ_INT(expand_request_from_params(none, 1, &q, err, sizeof err), 400);
    CHECK(strstr(err, "seed: missing"));
}

static void test_param_int(void) {
    const query_param p[] = {{"limit", "5"}, {"limit", "9"}, {"x", "99999999999999999999"}};
    int v;
    CHECK_EQ_INT(request_param_int(p, 3, "limit", 1, 1, 10, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v, 9); /* the last one wins */
    CHECK_EQ_INT(request_param_int(p, 3, "absent", 4, 1, 10, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v, 4);
    CHECK_EQ_INT(request_param_int(p, 3, "x", 1, 1, 10, &v, err, sizeof err), 400);
    CHECK_EQ_INT(request_param_int(p, 3, "limit", 1, 1, 8, &v, err, sizeof err), 400);
}

int main(void) {
    check_prog_ = "test_serve_request";
    RUN(test_routes);
    RUN(test_route_refusals);
    RUN(test_expand_json);
    RUN(test_expand_json_refusals);
    RUN(test_export_params);
    RUN(test_why_params);
    RUN(test_param_int);
    return check_any_failed_;
}
