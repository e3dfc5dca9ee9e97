/* rowsource: where the method reads entity distributions r(e) from — a dense `dists` matrix
 * (mmap'd rows) or rows computed on demand (the query engine's sparse rows of a corpus
 * index). The window search, the anchor KL, the candidate order and model selection read
 * rows only through this interface, so the batch stages and the engine run the same code.
 *
 * A source may compute and cache rows (ctx is then mutable state of one query, used by one
 * thread); the dense source is read-only. */
#ifndef PROBEXPAN_ROWSOURCE_H
#define PROBEXPAN_ROWSOURCE_H

#include <stdint.h>

#include "format/artifact.h"

typedef struct {
    int64_t n; /* entities: rows and row length */
    void *ctx;
    /* r(e) as n floats: the stored row, or `scratch` (n floats) filled */
    const float *(*row)(void *ctx, int64_t e, float *scratch);
    /* r(e)[j] */
    float (*at)(void *ctx, int64_t e, int64_t j);
    /* sum_j r(e)[j] and sum_j kl_log(r(e)[j]) (common/method/kl.h) */
    void (*sums)(void *ctx, int64_t e, double *sum, double *logsum);
} row_source;

/* The rows of a dense matrix (n = m->cols). */
row_source row_source_dense(const row_matrix *m);

/* The rows of some entities only: row i of m is r(rows[i]) (rows ascending, m->rows of them;
 * n = m->cols). The caller keeps s alive and asks only for entities in rows: any other is a
 * fatal internal error (check with row_subset_slot first). */
typedef struct {
    const row_matrix *m;
    const int64_t *rows;
} row_subset;
row_source row_source_subset(const row_subset *s);
/* The matrix row of entity e, or -1 when s has no row for it. */
int64_t row_subset_slot(const row_subset *s, int64_t e);

#endif
