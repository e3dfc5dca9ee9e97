/* modelscore: model selection by seed consistency (docs/design.md §3 "Model selection").
 *
 * Class score: over every ordered pair (a, b), a != b, of the class's seed rows,
 * copy the two distributions, set r_a[b] <- r_b[b] and r_b[a] <- r_a[a] (each
 * loses its own peak, which every entity predicts for itself), and take
 * KL(r_a || r_b) (common/method/kl.h); the class score is the mean over the pairs.
 * Model score: geometric mean of its class scores. Lower is more consistent. */
#ifndef PROBEXPAN_MODELSCORE_H
#define PROBEXPAN_MODELSCORE_H

#include <stdint.h>

#include "method/rowsource.h"

/* Mean swapped KL over the ordered pairs of rows[0..m-1] of `prob` (m >= 2). */
double modelscore_class(const row_source *prob, const int64_t *rows, int m);
/* Geometric mean of n > 0 positive values (exp of the mean log). */
double modelscore_geomean(const double *v, int n);

#endif
