/* rowsource: the dense implementation over a mapped row matrix. */
#include "method/rowsource.h"

#include "method/kl.h"

static const float *dense_row(void *ctx, int64_t e, float *scratch) {
    (void)scratch;
    return row_matrix_row(ctx, e);
}

static float dense_at(void *ctx, int64_t e, int64_t j) { return row_matrix_row(ctx, e)[j]; }

static void dense_sums(void *ctx, int64_t e, double *sum, double *logsum) {
    const row_matrix *m = ctx;
    *logsum = kl_sum_log(row_matrix_row(m, e), (size_t)m->cols, sum);
}

row_source row_source_dense(const row_matrix *m) {
    row_source s = {m->cols, (void *)m, dense_row, dense_at, dense_sums};
    return s;
}
