/* sparse_row: an entity distribution r(e) over n entities stored as a constant background
 * plus the columns that differ from it — the shape of a pattern model's rows (r(e)[v] =
 * softmax(cos / T) is the same value exp(-max)/Z wherever e and v share no feature) and of
 * means of such rows. Every quantity the method needs from a row (a value, the sums the
 * anchor KL uses, the element-wise mean of K rows) is computed here in time linear in the
 * listed columns.
 *
 * Values are float32 like a dense `dists` row; expanding a row (sparse_row_dense) gives the
 * dense row bit for bit, and sparse_row_mean gives the same floats as averaging the dense
 * rows column by column in double (score-models --ensemble), so the index path and the dense
 * path see identical numbers. Sums over all n columns are accumulated as (n - nnz) times the
 * background plus the listed values, so they may differ from a dense left-to-right sum in the
 * last bits (KL figures agree to ~1e-12 relative). */
#ifndef PROBEXPAN_SPARSE_ROW_H
#define PROBEXPAN_SPARSE_ROW_H

#include <stdint.h>

#include "method/rowsource.h"

typedef struct {
    int64_t n;         /* row length (entities) */
    float background;  /* value of every column not listed */
    int64_t nnz;       /* listed columns */
    int32_t *col;      /* ascending */
    float *val;
    double sum;        /* sum of all n values */
    double logsum;     /* sum of kl_log of all n values (common/method/kl.h) */
} sparse_row;

/* Fills sum and logsum from background and the listed values. */
void sparse_row_finish(sparse_row *r);
void sparse_row_free(sparse_row *r);
/* r[j] (binary search). */
float sparse_row_at(const sparse_row *r, int64_t j);
/* The n values into out. */
void sparse_row_dense(const sparse_row *r, float *out);
/* out = element-wise mean of rows[0..k-1] (same n): each column is the double sum of the k
 * values in row order divided by k, rounded to float; listed columns = union of the inputs'.
 * `mark` is scratch of n int32 set to -1 (left so). */
void sparse_row_mean(const sparse_row *const *rows, int k, sparse_row *out, int32_t *mark);

/* Rows that get(ctx, e) returns (computed or kept by its owner, valid while the source is used). */
typedef struct {
    const sparse_row *(*get)(void *ctx, int64_t e);
    void *ctx;
} sparse_row_getter;
/* The rows of `g` (n entities) as a row source; g is kept by pointer and must not move. */
row_source sparse_row_source(int64_t n, const sparse_row_getter *g);

#endif
