/* kl: normalised KL divergence and the row sums it needs. */
#include "method/kl.h"

#include <math.h>

double kl_log(double x) { return log(x > KL_FLOOR ? x : KL_FLOOR); }

double kl_divergence(const float *p, const float *q, size_t n) {
    /* sum p^ log(p^/q^) = (1/P) sum p (log p - log q) + log Q - log P */
    double P = 0, Q = 0, acc = 0;
    for (size_t j = 0; j < n; j++) {
        double pj = p[j], qj = q[j] > KL_FLOOR ? q[j] : KL_FLOOR;
        P += pj;
        Q += qj;
        if (pj > 0) acc += pj * (log(pj) - log(qj));
    }
    return acc / P + log(Q) - log(P);
}

double kl_sum_log(const float *x, size_t n, double *sum) {
    double s = 0, l = 0;
    for (size_t j = 0; j < n; j++) {
        s += x[j];
        l += kl_log(x[j]);
    }
    if (sum) *sum = s;
    return l;
}
