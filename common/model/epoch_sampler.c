/* epoch_sampler: per-entity draws of one training epoch, then a shuffle. */
#include "model/epoch_sampler.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

int64_t epoch_per_entity(const char *spec, int64_t total_samples, int64_t entities) {
    if (!strcmp(spec, "all")) return EPOCH_ALL;
    if (!strcmp(spec, "avg")) {
        int64_t k = entities > 0 ? (total_samples + entities / 2) / entities : 1;
        return k < 1 ? 1 : k;
    }
    char *end;
    long long k = strtoll(spec, &end, 10);
    if (end == spec || *end || k < 1 || k > (1LL << 30))
        die_usage("--samples-per-entity: '%s' is not a whole number >= 1, 'avg' or 'all'", spec);
    return k;
}

int64_t epoch_size(int64_t E, const int64_t *count, int64_t k) {
    if (k != EPOCH_ALL) return E * k;
    int64_t n = 0;
    for (int64_t e = 0; e < E; e++) n += count[e];
    return n;
}

void epoch_draw(int64_t E, const int64_t *first, const int64_t *count, int64_t k, rng_t *rng,
                int64_t *out) {
    int64_t *o = out;
    for (int64_t e = 0; e < E; o += k == EPOCH_ALL ? count[e] : k, e++) {
        if (k == EPOCH_ALL) {
            for (int64_t i = 0; i < count[e]; i++) o[i] = first[e] + i;
        } else if (count[e] >= k) {
            rng_sample_without_replacement(rng, count[e], k, o);
            for (int64_t i = 0; i < k; i++) o[i] += first[e];
        } else {
            for (int64_t i = 0; i < k; i++) o[i] = first[e] + (int64_t)rng_below(rng, (uint64_t)count[e]);
        }
    }
    rng_shuffle_i64(rng, out, epoch_size(E, count, k));
}
