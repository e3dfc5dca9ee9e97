/* modelscore: swapped-peak KL consistency of seed distributions, geometric mean. */
#include "method/modelscore.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "method/kl.h"

double modelscore_class(const row_source *prob, const int64_t *rows, int m) {
    size_t n = (size_t)prob->n;
    float *a = xmalloc(sizeof(float) * n), *b = xmalloc(sizeof(float) * n), *scratch = xmalloc(sizeof(float) * n);
    double total = 0;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++) {
            if (i == k) continue;
            int64_t ra = rows[i], rb = rows[k];
            memcpy(a, prob->row(prob->ctx, ra, scratch), sizeof(float) * n);
            memcpy(b, prob->row(prob->ctx, rb, scratch), sizeof(float) * n);
            a[rb] = b[rb];
            b[ra] = a[ra];
            total += kl_divergence(a, b, n);
        }
    free(a);
    free(b);
    free(scratch);
    return total / ((double)m * (m - 1));
}

double modelscore_geomean(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += log(v[i]);
    return exp(s / n);
}
