/* engine_expander: requests of `probexpan serve` answered by the query engine (contract in
 * engine_expander.h). */
#include "serve/engine_expander.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"

static const char *const figure_names[] = {"order", "kl_rank", "kl_score", "search_score"};
#define NFIGURES 4

/* The rows of a list as eid strings, the way the engine takes what a person typed. */
static const char **as_eids(const engine *g, const int64_t *rows, int n) {
    const corpus_index *x = engine_index(g);
    const char **v = xmalloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) v[i] = xasprintf("%lld", (long long)x->ent.eid[rows[i]]);
    return v;
}

static void free_list(const char *const *v, int n) {
    for (int i = 0; i < n; i++) free((char *)v[i]);
    free((void *)v);
}

static int run(void *state, const expand_job *job, expand_result *out, char *err, size_t errlen) {
    const engine *g = state;
    engine_request q = engine_request_defaults();
    q.seeds = as_eids(g, job->seeds, job->nseeds);
    q.nseeds = job->nseeds;
    q.accepted = as_eids(g, job->accepted, job->naccepted);
    q.naccepted = job->naccepted;
    q.negatives = as_eids(g, job->negatives, job->nnegatives);
    q.nnegatives = job->nnegatives;
    q.variant = (engine_variant)engine_variant_parse(variant_names[job->variant]);
    q.size = job->size;
    char explain[24];
    snprintf(explain, sizeof explain, "%lld", job->explain >= 0 ? (long long)engine_index(g)->ent.eid[job->explain] : -1LL);
    q.explain = job->explain >= 0 ? explain : NULL;
    engine_result r;
    char msg[1024];
    int rc = engine_query(g, &q, &r, msg, sizeof msg);
    free_list(q.seeds, q.nseeds);
    free_list(q.accepted, q.naccepted);
    free_list(q.negatives, q.nnegatives);
    if (rc) { /* stopped by the server's budget: not the request's fault */
        snprintf(err, errlen, "%s", msg);
        return rc == ENGINE_STOPPED ? 503 : 422;
    }
    out->n = r.n;
    out->place = r.place;
    out->rows = xmalloc(sizeof(int64_t) * (size_t)(r.n + 1));
    out->score = xmalloc(sizeof(double) * (size_t)(r.n + 1));
    out->figures = xmalloc(sizeof(double) * NFIGURES * (size_t)(r.n + 1));
    for (int i = 0; i < r.n; i++) {
        const engine_item *it = &r.items[i];
        out->rows[i] = it->row;
        out->score[i] = it->score;
        double *f = out->figures + (size_t)i * NFIGURES;
        f[0] = it->order;
        f[1] = it->kl_rank;
        f[2] = it->kl_score;
        f[3] = it->search_score;
    }
    engine_result_free(&r);
    return 0;
}

serve_expander engine_expander(const engine *g) {
    return (serve_expander){(void *)g, {1, 1, 1, 1}, VARIANT_FULL, NFIGURES, figure_names, run};
}
