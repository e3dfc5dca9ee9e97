/* rng: xoshiro256** generator with splitmix64 seeding, plus shuffles and samples. */
#include "base/rng.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_u64(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(rng_t *r, uint64_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
    do x = rng_u64(r); while (x >= limit);
    return x % n;
}

double rng_uniform(rng_t *r) { return (double)(rng_u64(r) >> 11) * 0x1.0p-53; }

double rng_normal(rng_t *r) {
    double u1 = rng_uniform(r), u2 = rng_uniform(r);
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

void rng_shuffle_i64(rng_t *r, int64_t *a, int64_t n) {
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)rng_below(r, (uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void rng_sample_without_replacement(rng_t *r, int64_t n, int64_t k, int64_t *out) {
    if (k > n) die("rng_sample_without_replacement: k=%lld > n=%lld", (long long)k, (long long)n);
    int64_t *pool = xmalloc(sizeof(int64_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) pool[i] = i;
    for (int64_t i = 0; i < k; i++) { /* partial Fisher-Yates */
        int64_t j = i + (int64_t)rng_below(r, (uint64_t)(n - i)), t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
        out[i] = pool[i];
    }
    free(pool);
}
