/* test_feature_prior: the sketched coherence of dev/research/feature_prior.h against the exact
 * mean pairwise cosine on a small pattern model, its independence of the thread count, and
 * the coherence prior's formula. */
#include "check.h"

#include "base/error.h"
#include "base/parallel.h"
#include "base/rng.h"
#include "feature_prior.h"

#define NE 40

/* 4 classes of 10 entities: left context from the class's 5 words, right context shared. */
static pattern_sample *class_samples(int S) {
    pattern_sample *s = xcalloc((size_t)S, sizeof(pattern_sample));
    rng_t g;
    rng_seed(&g, 11);
    for (int j = 0; j < S; j++) {
        int e = (int)rng_below(&g, NE), cls = e / 10;
        for (int i = 0; i < PATTERN_SIDE; i++) {
            s[j].left[i] = (int32_t)(cls * 5 + rng_below(&g, 5));
            s[j].right[i] = (int32_t)(100 + rng_below(&g, 20));
        }
        s[j].entity = e;
    }
    return s;
}

/* cos(x_a, x_b) of the model's profiles. */
static double cosine(const pattern_model *m, int64_t a, int64_t b) {
    const int32_t *fa, *fb;
    const float *va, *vb;
    double na, nb, dot = 0;
    int64_t la = pattern_model_profile(m, a, &fa, &va, &na), lb = pattern_model_profile(m, b, &fb, &vb, &nb);
    for (int64_t i = 0, j = 0; i < la && j < lb;) {
        if (fa[i] == fb[j]) dot += (double)va[i++] * vb[j++];
        else if (fa[i] < fb[j]) i++;
        else j++;
    }
    return na > 0 && nb > 0 ? dot / (na * nb) : 0;
}

typedef struct {
    pattern_counts k;
    pattern_model *m;
} fixture;

static void fixture_make(fixture *x) {
    int S = 3000;
    pattern_sample *s = class_samples(S);
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = 2;
    pattern_counts_build(&x->k, &c, NE, S, s);
    x->m = pattern_model_from_counts(&c, &x->k);
    free(s);
}

static void fixture_free(fixture *x) {
    pattern_model_free(x->m);
    pattern_counts_free(&x->k);
}

static void test_coherence_matches_exact(void) {
    fixture x;
    fixture_make(&x);
    float *coh = xmalloc(sizeof(float) * (size_t)x.k.F);
    parallel_set_threads(1);
    double c0 = feature_prior_coherence(x.m, &x.k, 4096, 3, coh);
    double err_sum = 0, err_max = 0, all = 0;
    for (int64_t f = 0; f < x.k.F; f++) {
        const int32_t *ent = x.k.ent + x.k.foff[f];
        int64_t n = x.k.foff[f + 1] - x.k.foff[f];
        double sum = 0;
        for (int64_t a = 0; a < n; a++)
            for (int64_t b = 0; b < n; b++)
                if (a != b) sum += cosine(x.m, ent[a], ent[b]);
        double exact = sum / ((double)n * (double)(n - 1)), err = fabs(coh[f] - exact);
        err_sum += err;
        err_max = fmax(err_max, err);
    }
    for (int a = 0; a < NE; a++)
        for (int b = 0; b < NE; b++)
            if (a != b) all += cosine(x.m, a, b);
    /* the projection's error per pair is ~ 1/sqrt(4096) = 0.016 */
    CHECK_MSG(err_sum / (double)x.k.F <= 0.02, "mean |sketched - exact| coherence %.4f over %lld features",
              err_sum / (double)x.k.F, (long long)x.k.F);
    CHECK_MSG(err_max <= 0.1, "max |sketched - exact| coherence %.4f", err_max);
    CHECK_NEAR(c0, all / (NE * (NE - 1.0)), 0.02);
    /* features of one class's contexts (all their entities in one class) are more coherent
     * than the background */
    double in_class = 0;
    int64_t n_in = 0;
    for (int64_t f = 0; f < x.k.F; f++) {
        int one = 1;
        for (int64_t p = x.k.foff[f]; p < x.k.foff[f + 1]; p++) one &= x.k.ent[p] / 10 == x.k.ent[x.k.foff[f]] / 10;
        if (one) in_class += coh[f], n_in++;
    }
    CHECK(n_in > 0);
    CHECK_MSG(n_in > 0 && in_class / (double)n_in > c0 + 0.1, "one-class features: coherence %.3f, background %.3f",
              n_in ? in_class / (double)n_in : 0, c0);
    free(coh);
    fixture_free(&x);
}

static void test_coherence_any_thread_count(void) {
    fixture x;
    fixture_make(&x);
    float *one = xmalloc(sizeof(float) * (size_t)x.k.F), *two = xmalloc(sizeof(float) * (size_t)x.k.F);
    parallel_set_threads(1);
    double c1 = feature_prior_coherence(x.m, &x.k, 256, 5, one);
    parallel_set_threads(2);
    double c2 = feature_prior_coherence(x.m, &x.k, 256, 5, two);
    parallel_set_threads(1);
    CHECK(c1 == c2);
    CHECK(memcmp(one, two, sizeof(float) * (size_t)x.k.F) == 0);
    free(one);
    free(two);
    fixture_free(&x);
}

static void test_prior_formula(void) {
    /* three features: 2 entities, 40 entities, 40 entities */
    int64_t foff[4] = {0, 2, 42, 82};
    pattern_counts k = {.E = 40, .F = 3, .foff = foff};
    float coh[3] = {0.4f, 0.4f, 0.05f}, w[3];
    double c0 = 0.1;
    feature_prior_weights(&k, coh, c0, 1.0, 0, w);
    CHECK_NEAR(w[0], 4.0, 1e-6); /* coherence 4x the background */
    CHECK_NEAR(w[1], 4.0, 1e-6);
    CHECK_NEAR(w[2], 1.0, 1e-6); /* below the background: 1 */
    feature_prior_weights(&k, coh, c0, 0.5, 780, w);
    /* 1 pair + 780 pseudo-pairs: (0.4 + 78) / 781 / 0.1 ~ 1.004; 780 pairs: (312 + 78) / 1560 / 0.1 = 2.5 */
    CHECK_NEAR(w[0], sqrt((0.4 + 780 * 0.1) / 781 / 0.1), 1e-5);
    CHECK_NEAR(w[1], sqrt(2.5), 1e-5);
    CHECK_NEAR(w[2], 1.0, 1e-6);
    feature_prior_weights(&k, coh, c0, 0, 0, w);
    CHECK(w[0] == 1 && w[1] == 1 && w[2] == 1);
}

int main(void) {
    check_prog_ = "test_feature_prior";
    RUN(test_coherence_matches_exact);
    RUN(test_coherence_any_thread_count);
    RUN(test_prior_formula);
    return check_any_failed_;
}
