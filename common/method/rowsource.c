/* rowsource: the dense implementation over a mapped row matrix, and over the rows of some
 * entities only. */
#include "method/rowsource.h"

#include "base/error.h"
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

int64_t row_subset_slot(const row_subset *s, int64_t e) {
    int64_t lo = 0, hi = s->m->rows;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (s->rows[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->m->rows && s->rows[lo] == e ? lo : -1;
}

static const float *subset_row(void *ctx, int64_t e, float *scratch) {
    (void)scratch;
    const row_subset *s = ctx;
    int64_t i = row_subset_slot(s, e);
    if (i < 0) die("internal: row_source: no row for entity row %lld in %s", (long long)e, s->m->path ? s->m->path : "(memory)");
    return row_matrix_row(s->m, i);
}

static float subset_at(void *ctx, int64_t e, int64_t j) { return subset_row(ctx, e, NULL)[j]; }

static void subset_sums(void *ctx, int64_t e, double *sum, double *logsum) {
    const row_subset *s = ctx;
    *logsum = kl_sum_log(subset_row(ctx, e, NULL), (size_t)s->m->cols, sum);
}

row_source row_source_subset(const row_subset *s) {
    row_source r = {s->m->cols, (void *)s, subset_row, subset_at, subset_sums};
    return r;
}
