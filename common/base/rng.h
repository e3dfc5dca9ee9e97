/* rng: deterministic random numbers (xoshiro256** seeded by splitmix64).
 * The same seed gives the same stream on every machine; no global state. */
#ifndef PROBEXPAN_RNG_H
#define PROBEXPAN_RNG_H

#include <stdint.h>

typedef struct { uint64_t s[4]; } rng_t;

void rng_seed(rng_t *r, uint64_t seed);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t rng_below(rng_t *r, uint64_t n);
/* Uniform in [0, 1). */
double rng_uniform(rng_t *r);
/* Standard normal (Box-Muller). */
double rng_normal(rng_t *r);
/* Fisher-Yates shuffle of n int64 values. */
void rng_shuffle_i64(rng_t *r, int64_t *a, int64_t n);
/* k distinct values from [0, n) (k <= n) in random order, written to out. */
void rng_sample_without_replacement(rng_t *r, int64_t n, int64_t k, int64_t *out);

#endif
