/* anchor: the anchor distribution of the window search and re-ranking and the
 * score s(e) = -KL(d || r(e)) (docs/design.md §3 Expansion 2, Re-ranking).
 *
 * For candidate row e and the current set's members m_0..m_{n-1} (expansion
 * order, seeds first): d = p = 1/V_e everywhere; d[e] = r(e)[e]; d[m_i] =
 * p * c_i (a member assignment wins when e itself is a member, as in re-ranking);
 * d is then normalised to sum 1, and so is r(e) (common/method/kl.h conventions).
 * Member multipliers c_i:
 *   ANCHOR_GEOMETRIC   alpha * 2^-floor(i / tau)                (default)
 *   ANCHOR_EXPAND_BANDS  x1000 for i <= 40, x500 for 41..74, x300 beyond (--official)
 *   ANCHOR_RERANK_BANDS  x1600 for i < 20, x900 < 35, x600 < 70, x150 beyond (--official)
 *
 * Cost: the bulk of d is constant, so the divergence needs the row's sum of logs
 * (computed once per row and cached) plus O(n) terms for the members; no V_e-long
 * anchor vector is ever built. */
#ifndef PROBEXPAN_ANCHOR_H
#define PROBEXPAN_ANCHOR_H

#include <stdint.h>

#include "method/rowsource.h"

typedef enum { ANCHOR_GEOMETRIC, ANCHOR_EXPAND_BANDS, ANCHOR_RERANK_BANDS } anchor_kind;

typedef struct {
    anchor_kind kind;
    double alpha; /* ANCHOR_GEOMETRIC */
    int tau;
} anchor_weighting;

/* Defaults and the --alpha/--tau options of expand and rerank (the table needs
 * cli.h): ANCHOR_CLI_OPTIONS(w) for an anchor_weighting w. */
#define ANCHOR_DEFAULT {ANCHOR_GEOMETRIC, 1000, 40}
#define ANCHOR_CLI_OPTIONS(w)                                                                              \
    {"alpha", OPT_DOUBLE, &(w).alpha, "A", "anchor scale alpha of the first members", 1e-9, 1e12},       \
    {"tau", OPT_INT, &(w).tau, "T", "anchor stage step tau: member i weighs alpha*2^-floor(i/tau)", 1, 1000000}

/* Multiplier c_i of member i (0-based). */
double anchor_multiplier(const anchor_weighting *w, int64_t i);

typedef struct {
    const row_source *prob;
    int64_t n;
    double p, log_p;
    double *row_logsum; /* per row: sum_j log r[j] (NAN until first needed) */
    double *row_sum;    /* per row: sum_j r[j] */
} anchor_scorer;

/* Scores against the rows of `prob` (kept by pointer; must outlive the scorer). */
void anchor_init(anchor_scorer *s, const row_source *prob);
void anchor_free(anchor_scorer *s);
/* s(e) = -KL(d^ || r^(e)) for members[0..n-1] with multipliers mult[0..n-1].
 * e_pos: index of e among the members, or -1 when e is a candidate outside. */
double anchor_score(anchor_scorer *s, int64_t e, int e_pos, const int64_t *members, const double *mult, int n);

#endif
