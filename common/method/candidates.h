/* candidates: candidate ordering for the window search (docs/design.md §3 Expansion 1).
 *
 * The order is by a score kept incrementally: each new member of the current set
 * adds its row once (O(V_e)), nothing is recomputed over the whole set.
 *  - CAND_MEAN (default, paper): score = sum of the members' mean_prob rows, i.e.
 *    r(L_cur) up to the factor 1/|L_cur|, which does not change the order.
 *  - CAND_LOGZ (official code): score = sum of the members' log-probability rows
 *    log(max(p, 1e-30)), each standardised over its V_e entries ((x - mean) /
 *    population std). The log is taken here, from the mean_prob rows.
 * Descending score; equal scores keep the lower row first. */
#ifndef PROBEXPAN_CANDIDATES_H
#define PROBEXPAN_CANDIDATES_H

#include <stdint.h>

#include "method/rowsource.h"

typedef enum { CAND_MEAN, CAND_LOGZ } candidates_mode;

typedef struct {
    const row_source *rows; /* mean_prob rows */
    candidates_mode mode;
    int64_t n;
    double *score;
    float *scratch;         /* one row */
    double *log_row;        /* LOGZ: the log of the row being added */
} candidates_order;

/* `rows` is kept by pointer (must outlive c). */
void candidates_init(candidates_order *c, const row_source *rows, candidates_mode mode);
void candidates_free(candidates_order *c);
/* Adds member row `row` to the running score. */
void candidates_add_member(candidates_order *c, int64_t row);
/* The first (up to) w rows in candidate order with blocked[row] == 0, into out[];
 * returns how many were found. */
int candidates_top(const candidates_order *c, const unsigned char *blocked, int w, int64_t *out);
/* Parses "mean" / "logz"; returns -1 otherwise. */
int candidates_mode_parse(const char *s);

#endif
