/* rerank: entity re-ranking (docs/design.md §3 Re-ranking).
 *
 * For each expanded entity e_i (i = 1-based expansion order, seeds excluded),
 * s(e_i) = -KL(d || r(e_i)) with the whole final set (seeds first) as anchor
 * members (common/method/anchor.h; e_i is itself a member there). Sorting by s
 * descending gives rank(e_i) (1-based; ties keep expansion order). Aggregate:
 *   RERANK_GEO  sqrt(1/i * 1/rank(e_i))   (paper, default)
 *   RERANK_SUM  mu/i + 1/rank(e_i)         (official code, --aggregate sum --mu 9)
 * The result is sorted by aggregate descending; ties keep expansion order. Once the
 * calling thread's budget is spent (common/base/budget.h) the remaining entities get
 * s = -inf (the caller discards such a result). */
#ifndef PROBEXPAN_RERANK_H
#define PROBEXPAN_RERANK_H

#include <stdint.h>

#include "method/anchor.h"

typedef enum { RERANK_GEO, RERANK_SUM } rerank_agg;

typedef struct {
    int order;       /* 1-based expansion order i */
    int rank;        /* rank by s(e) */
    double s;        /* -KL against the final set */
    double score;    /* aggregate */
} rerank_item;

/* rows[0..n-1]: the final set, seeds first (nseeds). Fills out[0..n-nseeds-1]
 * in final order. */
void rerank_set(anchor_scorer *scorer, const int64_t *rows, int n, int nseeds, const anchor_weighting *w,
                rerank_agg agg, double mu, rerank_item *out);
/* Parses "geo" / "sum"; -1 otherwise. */
int rerank_agg_parse(const char *s);

#endif
