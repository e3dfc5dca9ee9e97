/* rerank: KL rank of every expanded entity, aggregated with its expansion order. */
#include "method/rerank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/budget.h"
#include "base/error.h"

static int by_s_desc(const void *a, const void *b) {
    const rerank_item *x = a, *y = b;
    if (x->s != y->s) return x->s > y->s ? -1 : 1;
    return x->order - y->order;
}

static int by_score_desc(const void *a, const void *b) {
    const rerank_item *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return x->order - y->order;
}

void rerank_set(anchor_scorer *scorer, const int64_t *rows, int n, int nseeds, const anchor_weighting *w,
                rerank_agg agg, double mu, rerank_item *out) {
    int m = n - nseeds;
    double *mult = xmalloc(sizeof(double) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) mult[i] = anchor_multiplier(w, i);
    for (int k = 0; k < m; k++) {
        out[k].order = k + 1;
        out[k].s = budget_spent() ? -INFINITY : anchor_score(scorer, rows[nseeds + k], nseeds + k, rows, mult, n);
    }
    qsort(out, (size_t)m, sizeof *out, by_s_desc);
    for (int k = 0; k < m; k++) {
        rerank_item *it = &out[k];
        it->rank = k + 1;
        it->score = agg == RERANK_GEO ? sqrt(1.0 / it->order * 1.0 / it->rank) : mu / it->order + 1.0 / it->rank;
    }
    qsort(out, (size_t)m, sizeof *out, by_score_desc);
    free(mult);
}

int rerank_agg_parse(const char *s) {
    if (!strcmp(s, "geo")) return RERANK_GEO;
    if (!strcmp(s, "sum")) return RERANK_SUM;
    return -1;
}
