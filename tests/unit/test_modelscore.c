/* test_modelscore: the seed-consistency score on a 4-entity example with the
 * self-peak swap and the geometric mean over classes, against values computed by
 * hand (KL of the normalised swapped vectors, scipy.stats.entropy convention). */
#include <math.h>

#include "check.h"
#include "method/kl.h"
#include "method/modelscore.h"

static float R[4][4] = {
    {0.6f, 0.1f, 0.2f, 0.1f},
    {0.1f, 0.5f, 0.1f, 0.3f},
    {0.2f, 0.2f, 0.4f, 0.2f},
    {0.1f, 0.3f, 0.1f, 0.5f},
};
static const row_matrix M = {.rows = 4, .cols = 4, .stride = 4, .data = &R[0][0]};

/* KL(a || b) of two 4-vectors normalised to sum 1, written out term by term. */
static double kl4(const double *a, const double *b) {
    double sa = a[0] + a[1] + a[2] + a[3], sb = b[0] + b[1] + b[2] + b[3], k = 0;
    for (int j = 0; j < 4; j++) k += a[j] / sa * log((a[j] / sa) / (b[j] / sb));
    return k;
}

static void test_swap_pair(void) {
    /* pair (0,1): r0[1] <- r1[1] = 0.5 and r1[0] <- r0[0] = 0.6
     * -> a = (0.6 .5 .2 .1)/1.4, b = (0.6 .5 .1 .3)/1.5 */
    double a[4] = {0.6, 0.5, 0.2, 0.1}, b[4] = {0.6, 0.5, 0.1, 0.3};
    double a2[4] = {0.6, 0.5, 0.1, 0.3}, b2[4] = {0.6, 0.5, 0.2, 0.1}; /* pair (1,0): the same swap */
    int64_t rows[2] = {0, 1};
    row_source MS = row_source_dense(&M);
    double want = (kl4(a, b) + kl4(a2, b2)) / 2;
    CHECK_NEAR(modelscore_class(&MS, rows, 2), want, 1e-7);
    CHECK_NEAR(modelscore_class(&MS, rows, 2), 0.097030682579, 1e-7);
    /* the swap matters: without it the divergence is larger */
    float na[4] = {0.6f, 0.1f, 0.2f, 0.1f}, nb[4] = {0.1f, 0.5f, 0.1f, 0.3f};
    CHECK(kl_divergence(na, nb, 4) > kl4(a, b) + 0.1);
}

static void test_model_score(void) {
    int64_t a[2] = {0, 1}, b[3] = {1, 2, 3};
    row_source MS = row_source_dense(&M);
    double s[2] = {modelscore_class(&MS, a, 2), modelscore_class(&MS, b, 3)};
    CHECK_NEAR(s[1], 0.028169545863, 1e-7); /* mean over the 6 ordered pairs */
    CHECK_NEAR(modelscore_geomean(s, 2), sqrt(0.097030682579 * 0.028169545863), 1e-7);
    CHECK_NEAR(modelscore_geomean(s, 2), 0.052281069835, 1e-7);
    double three[3] = {1, 8, 27};
    CHECK_NEAR(modelscore_geomean(three, 3), 6.0, 1e-12);
}

static void test_kl_conventions(void) {
    /* zero p terms vanish; q is normalised: KL((1,0) || (2,2)) = log 2 */
    float p[2] = {1, 0}, q[2] = {2, 2};
    CHECK_NEAR(kl_divergence(p, q, 2), log(2.0), 1e-12);
    /* an underflowed q is floored, not infinite */
    float q0[2] = {0, 1};
    CHECK(isfinite(kl_divergence(p, q0, 2)));
    CHECK_NEAR(kl_divergence(p, q0, 2), -log(KL_FLOOR), 1e-6);
}

TEST_MAIN_BEGIN("test_modelscore")
RUN(test_swap_pair);
RUN(test_model_score);
RUN(test_kl_conventions);
TEST_MAIN_END
