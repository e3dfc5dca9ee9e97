/* windowsearch: the expansion loop of ProbExpan (docs/design.md §3 Expansion).
 *
 * Per query, L_cur = seeds; each step orders the candidates (common/method/candidates.h),
 * scores the first w with the anchor distribution (common/method/anchor.h) and appends
 * the best (ties: the earlier candidate), until `size` entities were added or no
 * candidate is left. Window:
 *   default   w = floor(w0 + g * floor(|L_cur| / s))
 *   official  r = entities added so far: w0 while r < s; w0 + g*r/s while r < 50;
 *             w0 + 1.25*g*r/s while r < 100; then 1 — truncated to an integer.
 * A group of queries is expanded round by round (one entity per query per round,
 * in group order). Exclusive groups (--exclusive, the official code's joint
 * expansion) share one pool: every query's seeds and every entity taken by one
 * query leave all the others' candidates. Negative seeds are blocked for their
 * own query only. A spent budget of the calling thread (common/base/budget.h) ends
 * the search after the current round, with fewer entities. */
#ifndef PROBEXPAN_WINDOWSEARCH_H
#define PROBEXPAN_WINDOWSEARCH_H

#include <stdint.h>

#include "method/anchor.h"
#include "method/candidates.h"

typedef struct {
    int size;            /* entities to add beyond the seeds */
    double w0, g;        /* initial window, growth per step */
    int s;               /* growth step (set size) */
    int official;        /* official window schedule */
    candidates_mode cand;
    anchor_weighting weights;
} windowsearch_params;

typedef struct {
    /* input */
    int nseeds;
    const int64_t *seeds;     /* rows */
    int nneg;
    const int64_t *negatives; /* rows kept out of the candidates */
    /* output: rows[0..n-1] = seeds then the expanded entities; score[k] is the
     * window-search score of rows[nseeds + k] (malloc'd, capacity nseeds + size) */
    int n;
    int64_t *rows;
    double *score;
} windowsearch_query;

/* Window size for a set of `set_size` entities of which `added` were expanded. */
int windowsearch_window(const windowsearch_params *p, int set_size, int added);

/* Expands the nq queries of a group (see above). `scorer` reads the mean_prob rows,
 * `cand_rows` are the rows the candidate order reads (mean_prob in both modes; CAND_LOGZ
 * takes their log, common/method/candidates.h); `scorer` caches row statistics across calls. */
void windowsearch_group(anchor_scorer *scorer, const row_source *cand_rows, windowsearch_query *q, int nq,
                  const windowsearch_params *p, int exclusive);
void windowsearch_query_free(windowsearch_query *q);

#endif
