/* sparse_row: background + listed columns; values, sums, means and KL in O(listed). */
#include "method/sparse_row.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"
#include "method/kl.h"

void sparse_row_finish(sparse_row *r) {
    double s = 0, l = 0;
    for (int64_t i = 0; i < r->nnz; i++) {
        s += r->val[i];
        l += kl_log(r->val[i]);
    }
    double rest = (double)(r->n - r->nnz);
    r->sum = s + rest * r->background;
    r->logsum = l + rest * kl_log(r->background);
}

void sparse_row_free(sparse_row *r) {
    free(r->col);
    free(r->val);
    r->col = NULL;
    r->val = NULL;
    r->nnz = 0;
}

float sparse_row_at(const sparse_row *r, int64_t j) {
    if (r->nnz == r->n) return r->val[j]; /* every column listed (ascending): col[j] = j */
    int64_t lo = 0, hi = r->nnz;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (r->col[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return lo < r->nnz && r->col[lo] == j ? r->val[lo] : r->background;
}

void sparse_row_dense(const sparse_row *r, float *out) {
    for (int64_t j = 0; j < r->n; j++) out[j] = r->background;
    for (int64_t i = 0; i < r->nnz; i++) out[r->col[i]] = r->val[i];
}

void sparse_row_mean(const sparse_row *const *rows, int k, sparse_row *out, int32_t *mark) {
    int64_t n = rows[0]->n, cap = 0;
    for (int i = 0; i < k; i++) cap += rows[i]->nnz;
    out->n = n;
    out->col = xmalloc(sizeof(int32_t) * (size_t)(cap + 1));
    out->val = xmalloc(sizeof(float) * (size_t)(cap + 1));
    int64_t m = 0;
    for (int i = 0; i < k; i++)
        for (int64_t q = 0; q < rows[i]->nnz; q++)
            if (mark[rows[i]->col[q]] < 0) {
                mark[rows[i]->col[q]] = 0;
                out->col[m++] = rows[i]->col[q];
            }
    if (m * 16 < n) { /* few: sort them; many: a scan of the marks is cheaper */
        qsort(out->col, (size_t)m, sizeof(int32_t), cmp_i32);
    } else {
        for (int64_t j = 0, q = 0; j < n; j++)
            if (mark[j] >= 0) out->col[q++] = (int32_t)j;
    }
    for (int64_t q = 0; q < m; q++) mark[out->col[q]] = -1;
    out->nnz = m;
    /* each column: the values of the rows in row order, summed in double (as a dense mean) */
    double *acc = xcalloc((size_t)(m + 1), sizeof(double)), bg = 0;
    for (int i = 0; i < k; i++) {
        const sparse_row *r = rows[i];
        for (int64_t q = 0, p = 0; q < m; q++) {
            while (p < r->nnz && r->col[p] < out->col[q]) p++;
            acc[q] += p < r->nnz && r->col[p] == out->col[q] ? r->val[p] : r->background;
        }
        bg += r->background;
    }
    for (int64_t q = 0; q < m; q++) {
        out->val[q] = (float)(acc[q] / k);
    }
    out->background = (float)(bg / k);
    free(acc);
    sparse_row_finish(out);
}

static const sparse_row *getter_row(void *ctx, int64_t e) {
    const sparse_row_getter *g = ctx;
    return g->get(g->ctx, e);
}

static const float *source_row(void *ctx, int64_t e, float *scratch) {
    sparse_row_dense(getter_row(ctx, e), scratch);
    return scratch;
}

static float source_at(void *ctx, int64_t e, int64_t j) { return sparse_row_at(getter_row(ctx, e), j); }

static void source_sums(void *ctx, int64_t e, double *sum, double *logsum) {
    const sparse_row *r = getter_row(ctx, e);
    *sum = r->sum;
    *logsum = r->logsum;
}

row_source sparse_row_source(int64_t n, const sparse_row_getter *g) {
    return (row_source){n, (void *)g, source_row, source_at, source_sums};
}
