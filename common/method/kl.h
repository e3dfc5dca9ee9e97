/* kl: Kullback-Leibler divergence between entity distributions (docs/design.md §3).
 *
 * Conventions (those of scipy.stats.entropy, which the official code calls):
 * both vectors are normalised to sum 1 before the divergence, terms with
 * p_j = 0 contribute 0, and — to keep a single underflowed probability from
 * turning a score into infinity — every q_j (and every value whose log is
 * taken) is floored at KL_FLOOR. Sums are accumulated in double. */
#ifndef PROBEXPAN_KL_H
#define PROBEXPAN_KL_H

#include <stddef.h>

#define KL_FLOOR 1e-30

/* log(max(x, KL_FLOOR)). */
double kl_log(double x);
/* KL(p^ || q^) of the normalised vectors p^ = p / sum p, q^ = q / sum q. */
double kl_divergence(const float *p, const float *q, size_t n);
/* Sum over j of log(max(x_j, KL_FLOOR)), and the plain sum of x in *sum. */
double kl_sum_log(const float *x, size_t n, double *sum);

#endif
