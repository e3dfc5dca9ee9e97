/* dists_expander: window search + re-ranking over a run folder's dists artifacts for
 * `probexpan serve` (contract in dists_expander.h). */
#include "serve/dists_expander.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifacts/dists.h"
#include "base/error.h"
#include "base/log.h"
#include "method/rerank.h"
#include "method/windowsearch.h"

static const char *const variant_files[VARIANT_COUNT] = {"ensemble-cl.mp", "dists-noen-cl.mp", "ensemble-mlm.mp",
                                                         "dists-mlm-1.mp"};
static const char *const figure_names[] = {"order", "kl_rank", "kl_score"};
#define NFIGURES 3

typedef struct {
    dists d[VARIANT_COUNT];
    int have[VARIANT_COUNT];
} dists_state;

static int run(void *state, const expand_job *job, expand_result *out, char *err, size_t errlen) {
    dists_state *s = state;
    if (!s->have[job->variant]) {
        snprintf(err, errlen, "variant %s: this run folder has no %s (build it with the pipeline, or choose another variant)",
                 variant_names[job->variant], variant_files[job->variant]);
        return 503;
    }
    const dists *d = &s->d[job->variant];
    int nseeds = job->nseeds + job->naccepted;
    int64_t *seeds = xmalloc(sizeof(int64_t) * (size_t)nseeds);
    memcpy(seeds, job->seeds, sizeof(int64_t) * (size_t)job->nseeds);
    memcpy(seeds + job->nseeds, job->accepted, sizeof(int64_t) * (size_t)job->naccepted);

    anchor_scorer sc; /* its row cache is per call: calls run on several threads at once */
    anchor_init(&sc, &d->prob);
    expand_params p = {job->size, 1, 2.5, 20, 0, CAND_MEAN, ANCHOR_DEFAULT};
    expand_query q = {nseeds, seeds, job->nnegatives, job->negatives, 0, NULL, NULL};
    expand_group(&sc, &d->prob, &q, 1, &p, 0);

    int n = q.n - nseeds;
    rerank_item *it = xmalloc(sizeof *it * (size_t)(n + 1));
    anchor_weighting bands = {ANCHOR_RERANK_BANDS, 0, 1};
    rerank_set(&sc, q.rows, q.n, nseeds, &bands, RERANK_SUM, 9, it);
    out->n = n;
    out->rows = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    out->score = xmalloc(sizeof(double) * (size_t)(n + 1));
    out->figures = xmalloc(sizeof(double) * NFIGURES * (size_t)(n + 1));
    for (int k = 0; k < n; k++) {
        out->rows[k] = q.rows[nseeds + it[k].order - 1];
        out->score[k] = it[k].score;
        out->figures[NFIGURES * k] = it[k].order;
        out->figures[NFIGURES * k + 1] = it[k].rank;
        out->figures[NFIGURES * k + 2] = it[k].s;
    }
    free(it);
    expand_query_free(&q);
    anchor_free(&sc);
    free(seeds);
    return 0;
}

serve_expander dists_expander_open(const char *run_dir, const lexicon *lex) {
    dists_state *s = xcalloc(1, sizeof *s);
    int any = 0;
    for (int v = 0; v < VARIANT_COUNT; v++) {
        char *path = xasprintf("%s/%s", run_dir, variant_files[v]);
        if (access(path, R_OK) == 0) {
            dists_open(&s->d[v], path);
            if (dists_n(&s->d[v]) != lexicon_entities(lex))
                die_input(path, NULL, "%lld entities, but the run's samples have %lld: a dists of another corpus?",
                          (long long)dists_n(&s->d[v]), (long long)lexicon_entities(lex));
            for (int64_t i = 0; i < lexicon_entities(lex); i++)
                if (s->d[v].ent.eid[i] != lexicon_eid(lex, i))
                    die_input(path, NULL, "row %lld is eid %lld, the samples' row is eid %lld: a dists of another corpus?",
                              (long long)i, (long long)s->d[v].ent.eid[i], (long long)lexicon_eid(lex, i));
            s->have[v] = any = 1;
            log_info("variant %s: %s", variant_names[v], path);
        }
        free(path);
    }
    if (!any) die_input(run_dir, NULL, "no dists of any variant (dists-mlm-1.mp, ensemble-cl.mp, ...): run the pipeline first");
    serve_expander e = {s, {0}, VARIANT_FULL, NFIGURES, figure_names, run};
    for (int v = 0; v < VARIANT_COUNT; v++) e.available[v] = s->have[v];
    while (!e.available[e.default_variant]) e.default_variant++; /* full, else the next one present */
    return e;
}

void dists_expander_close(serve_expander *e) {
    dists_state *s = e->state;
    for (int v = 0; v < VARIANT_COUNT; v++)
        if (s->have[v]) dists_close(&s->d[v]);
    free(s);
    e->state = NULL;
}
