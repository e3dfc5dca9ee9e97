/* test_engine_request: what engine_query refuses as bad user input (common/engine/engine.h) —
 * each check of a request, including the ones the programs' option ranges keep them from
 * sending (negative steps, an unknown variant), answered with -1 and a message, never an
 * exit — on the small index of the fuzz seed corpus (4 entities: Ohio, Texas, New York,
 * Paris). A valid request on the same engine answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/engine.h"

static engine *open_tiny(void) {
    char path[4096];
    const char *root = getenv("PROBEXPAN_ROOT");
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus-index/tiny.mp", root ? root : ".");
    engine_config c = engine_config_defaults();
    return engine_open(path, &c);
}

static const char *ohio_texas[] = {"Ohio", "Texas"}, *ohio[] = {"Ohio"}, *nowhere[] = {"Atlantis"};

static engine_request valid_request(void) {
    engine_request q = engine_request_defaults();
    q.seeds = ohio_texas;
    q.nseeds = 2;
    q.size = 2;
    q.variant = ENGINE_NOCLEN;
    return q;
}

/* engine_query on q must fail with a message containing want. */
static void refused(const engine *g, const engine_request *q, const char *want) {
    engine_result r;
    char err[1024] = "";
    int rc = engine_query(g, q, &r, err, sizeof err);
    CHECK_EQ_INT(rc, -1);
    CHECK_MSG(strstr(err, want) != NULL, "message \"%s\" lacks \"%s\"", err, want);
    if (rc == 0) engine_result_free(&r);
}

static void test_bad_requests(void) {
    engine *g = open_tiny();
    engine_result r;
    char err[1024] = "";
    engine_request q = valid_request();
    CHECK_EQ_INT(engine_query(g, &q, &r, err, sizeof err), 0);
    CHECK_EQ_INT(r.n, 2);
    engine_result_free(&r);

    q = valid_request(), q.size = 0;
    refused(g, &q, "size must be at least 1");
    q = valid_request(), q.size = 3; /* 2 seeds + 3 > 4 entities */
    refused(g, &q, "the index has only 4 entities");
    q = valid_request(), q.top = 4;
    refused(g, &q, "top 4: expected 1..3");
    q = valid_request(), q.bounds.l_neg = q.bounds.u_neg;
    refused(g, &q, "contrastive bounds");
    q = valid_request(), q.variant = (engine_variant)7;
    refused(g, &q, "unknown variant");
    q = valid_request(), q.contrast.steps = -1;
    refused(g, &q, "refinement steps must be >= 0");
    q = valid_request(), q.accepted_steps = -1;
    refused(g, &q, "refinement steps must be >= 0");
    q = valid_request(), q.seeds = nowhere, q.nseeds = 1;
    refused(g, &q, "Atlantis");
    q = valid_request(), q.negatives = ohio, q.nnegatives = 1;
    refused(g, &q, "is both a seed and a negative seed");
    q = valid_request(), q.seeds = ohio, q.nseeds = 1;
    refused(g, &q, "expected at least 2");
    engine_free(g);
}

TEST_MAIN_BEGIN("test_engine_request")
RUN(test_bad_requests);
TEST_MAIN_END
