/* pattern_rows: the rows r(e) of one pattern model, or of the mean of several (an ensemble),
 * each refined or not, as a row source (common/method/rowsource.h) that computes a row on
 * demand — a background plus the entities sharing a feature with e
 * (pattern_model_sparse_row), the mean of the models' rows column by column in double
 * (sparse_row_mean, the same floats as score-models' dense ensemble) — and keeps it until
 * pattern_rows_forget — what the stages that read a `patmodel` artifact use
 * (common/model/entity_rows.h); the same numbers as the engine's rows (common/engine), which
 * also keep unrefined rows across requests.
 *
 * Cost of a row: O(sum over e's features of their entities) per model; memory O(E) for the
 * scratch plus the rows kept. One set of rows belongs to one thread (its cache and scratch
 * are mutable); the models and refinements are only read. */
#ifndef PROBEXPAN_PATTERN_ROWS_H
#define PROBEXPAN_PATTERN_ROWS_H

#include <stdint.h>

#include "method/rowsource.h"
#include "method/sparse_row.h"
#include "model/pattern_model.h"

#define PATTERN_ROWS_MAX 16 /* models in one mean */

typedef struct {
    int k;
    const pattern_model *m[PATTERN_ROWS_MAX];
    const pattern_refinement *ref[PATTERN_ROWS_MAX];
    int64_t E;
    sparse_row **cache;       /* [E], NULL until computed */
    int64_t *kept, nkept;     /* the rows computed, in order */
    pattern_scratch *scratch;
    int32_t *mark;            /* sparse_row_mean's scratch, all -1 */
    sparse_row_getter getter; /* rows_get over this struct */
    row_source src;           /* the rows; this struct must not move */
} pattern_rows;

/* The mean of models m[0..k-1] (1 <= k <= PATTERN_ROWS_MAX, same entities), model i refined by
 * ref[i] (ref or ref[i] NULL: unrefined). Kept by pointer. */
void pattern_rows_init(pattern_rows *r, int k, const pattern_model *const *m, const pattern_refinement *const *ref);
/* Drops the rows computed so far (memory back to O(E)). */
void pattern_rows_forget(pattern_rows *r);
void pattern_rows_free(pattern_rows *r);

#endif
