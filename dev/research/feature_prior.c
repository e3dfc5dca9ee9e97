/* feature_prior: corpus-level feature attributes and weights of the pattern model (research
 * code; see feature_prior.h). */
#include "feature_prior.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parallel.h"

static uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

typedef struct {
    const pattern_model *m;
    const pattern_counts *k;
    int dim;
    uint64_t seed;
    float *sketch; /* [E x dim] */
    float *coh;
} sketch_job;

/* s_e = R x_e / |x_e| for the entities of a chunk; R's signs 64 at a time from one hash. */
static void sketch_entities(void *ctx, int64_t begin, int64_t end, int tid) {
    (void)tid;
    sketch_job *j = ctx;
    for (int64_t e = begin; e < end; e++) {
        float *s = j->sketch + (size_t)e * (size_t)j->dim;
        memset(s, 0, sizeof(float) * (size_t)j->dim);
        const int32_t *feat;
        const float *val;
        double norm;
        int64_t n = pattern_model_profile(j->m, e, &feat, &val, &norm);
        if (norm == 0) continue;
        double scale = 1.0 / (norm * sqrt((double)j->dim));
        for (int64_t q = 0; q < n; q++) {
            if (val[q] == 0) continue;
            float x = (float)(val[q] * scale);
            uint64_t base = splitmix64(j->k->key[feat[q]] ^ splitmix64(j->seed)), bits = 0;
            for (int d = 0; d < j->dim; d++) {
                if (d % 64 == 0) bits = splitmix64(base + (uint64_t)d);
                s[d] += (bits >> (d % 64)) & 1 ? x : -x;
            }
        }
    }
}

/* coh(f) for the features of a chunk from the sums of their entities' sketches. */
static void coherence_features(void *ctx, int64_t begin, int64_t end, int tid) {
    (void)tid;
    sketch_job *j = ctx;
    double *sum = xmalloc(sizeof(double) * (size_t)j->dim);
    for (int64_t f = begin; f < end; f++) {
        const int32_t *ent = j->k->ent + j->k->foff[f];
        int64_t n = j->k->foff[f + 1] - j->k->foff[f];
        memset(sum, 0, sizeof(double) * (size_t)j->dim);
        double self = 0;
        for (int64_t p = 0; p < n; p++) {
            const float *s = j->sketch + (size_t)ent[p] * (size_t)j->dim;
            for (int d = 0; d < j->dim; d++) {
                sum[d] += s[d];
                self += (double)s[d] * s[d];
            }
        }
        double all = 0;
        for (int d = 0; d < j->dim; d++) all += sum[d] * sum[d];
        j->coh[f] = n > 1 ? (float)((all - self) / ((double)n * (double)(n - 1))) : 0.0f;
    }
    free(sum);
}

double feature_prior_coherence(const pattern_model *m, const pattern_counts *k, int dim, uint64_t seed, float *coh) {
    if (dim < 1) die("feature_prior_coherence: sketch dimension must be >= 1");
    int64_t E = k->E;
    if (pattern_model_entities(m) != E || pattern_model_stats(m).features != k->F)
        die("feature_prior_coherence: the model must have every feature of the counts");
    sketch_job j = {m, k, dim, seed, xmalloc(sizeof(float) * (size_t)E * (size_t)dim + 1), coh};
    parallel_for(E, 64, sketch_entities, &j);
    parallel_for(k->F, 256, coherence_features, &j);
    /* the background, serially in entity order (the same sum for any thread count) */
    double *sum = xcalloc((size_t)dim, sizeof(double)), self = 0, all = 0;
    int64_t used = 0;
    for (int64_t e = 0; e < E; e++) {
        const float *s = j.sketch + (size_t)e * (size_t)dim;
        double n2 = 0;
        for (int d = 0; d < dim; d++) {
            sum[d] += s[d];
            n2 += (double)s[d] * s[d];
        }
        self += n2;
        used += n2 > 0;
    }
    for (int d = 0; d < dim; d++) all += sum[d] * sum[d];
    free(sum);
    free(j.sketch);
    return used > 1 ? (all - self) / ((double)used * (double)(used - 1)) : 0;
}

void feature_prior_weights(const pattern_counts *k, const float *coh, double c0, double power, double shrink, float *w) {
    for (int64_t f = 0; f < k->F; f++) {
        double n = (double)(k->foff[f + 1] - k->foff[f]), pairs = n * (n - 1) / 2;
        double cf = (pairs * coh[f] + shrink * c0) / (pairs + shrink);
        w[f] = c0 > 0 && power > 0 ? (float)pow(fmax(cf / c0, 1.0), power) : 1.0f;
    }
}
