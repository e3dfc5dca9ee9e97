/* test_hcl_loss: the hard-negative contrastive loss against the golden hcl_unit/a and
 * hcl_unit/b cases (loss, gradients, per-row pos/ng_raw/ng/clamped), a hand-computed
 * B=2 case, and a finite-difference check of the gradient in double.
 * Golden tolerance (README "Suggested comparison"): max|c−g| <= 1e-4·max|g| + 1e-6. */
#include "check.h"
#include "golden.h"
#include "nn/hcl_loss.h"
#include "base/rng.h"

enum { UB = 8, UD = 16 };

static void golden_case(const char *dir, double tau_plus, double beta, int expect_clamped) {
    char name[256];
    snprintf(name, sizeof name, "hcl_unit/%s/out1", dir);
    float *o1 = golden_f32(name, UB * UD);
    snprintf(name, sizeof name, "hcl_unit/%s/out2", dir);
    float *o2 = golden_f32(name, UB * UD);
    snprintf(name, sizeof name, "hcl_unit/%s/clamped", dir);
    int32_t *gcl = golden_i32(name, 2 * UB);
    if (!o1 || !o2 || !gcl) { free(o1); free(o2); free(gcl); return; }
    const hcl_params p = {tau_plus, beta, 0.5};
    float g1[UB * UD], g2[UB * UD], pos[2 * UB], ngr[2 * UB], ng[2 * UB];
    int cl[2 * UB];
    hcl_rows rows = {pos, ngr, ng, cl};
    float loss = (float)hcl_loss(o1, o2, UB, UD, &p, 1.0, g1, g2, &rows);

    snprintf(name, sizeof name, "hcl_unit/%s/loss", dir); golden_close(name, &loss, 1);
    snprintf(name, sizeof name, "hcl_unit/%s/grad_out1", dir); golden_close(name, g1, UB * UD);
    snprintf(name, sizeof name, "hcl_unit/%s/grad_out2", dir); golden_close(name, g2, UB * UD);
    snprintf(name, sizeof name, "hcl_unit/%s/pos", dir); golden_close(name, pos, 2 * UB);
    snprintf(name, sizeof name, "hcl_unit/%s/ng_raw", dir); golden_close(name, ngr, 2 * UB);
    snprintf(name, sizeof name, "hcl_unit/%s/ng", dir); golden_close(name, ng, 2 * UB);
    int nclamped = 0;
    for (int i = 0; i < 2 * UB; i++) {
        CHECK_EQ_INT(cl[i], gcl[i]);
        nclamped += cl[i];
    }
    CHECK_EQ_INT(nclamped, expect_clamped);

    /* grad_scale multiplies the gradients only; NULL gradients leave the loss unchanged. */
    float h1[UB * UD], h2[UB * UD];
    double loss7 = hcl_loss(o1, o2, UB, UD, &p, 7.0, h1, h2, NULL);
    CHECK_NEAR(loss7, loss, 1e-7);
    for (int j = 0; j < UB * UD; j++) {
        CHECK_NEAR(h1[j], 7.0f * g1[j], 1e-6 + 1e-6 * fabs(h1[j]));
        CHECK_NEAR(h2[j], 7.0f * g2[j], 1e-6 + 1e-6 * fabs(h2[j]));
    }
    CHECK_NEAR(hcl_loss(o1, o2, UB, UD, &p, 1.0, NULL, NULL, NULL), loss, 1e-7);
    free(o1);
    free(o2);
    free(gcl);
}

static void test_golden_a(void) {
    if (!golden_dir()) SKIP("../shared/golden absent");
    golden_case("a", 0.1, 1.0, 0);
}

static void test_golden_b(void) {
    if (!golden_dir()) SKIP("../shared/golden absent");
    golden_case("b", 0.3, 0.5, 8);
}

/* B = 2 pairs of 1-D "unit vectors" ±1, worked out by hand: z = (1, 1, 1, −1) with t = 1,
 * τ⁺ = 0, β = 0 (so rew_i = Σ_k e^{s_ik}). Row 0 (partner 2): pos = e^1, negatives k=1,3
 * with s = 1, −1 → ng = e + 1/e. Row 1 (partner 3): pos = e^{−1}, negatives k=0,2, s = 1, 1
 * → ng = 2e. Row 2 (partner 0) equals row 0. Row 3 (partner 1): pos = e^{−1}, negatives
 * k=0,2 with s = −1, −1 → ng = 2/e, exactly the clamp floor N·e^{−1/t} (same value whether
 * or not it counts as clamped). */
static void test_hand_b2(void) {
    const float o1[2] = {1, 1}, o2[2] = {1, -1};
    const hcl_params p = {0.0, 0.0, 1.0};
    float pos[4], ng[4];
    hcl_rows rows = {pos, NULL, ng, NULL};
    const double e = exp(1.0);
    double l0 = -log(e / (e + e + 1 / e)), l1 = -log((1 / e) / (1 / e + 2 * e)), l3 = log(3.0);
    double loss = hcl_loss(o1, o2, 2, 1, &p, 1.0, NULL, NULL, &rows);
    CHECK_NEAR(loss, (2 * l0 + l1 + l3) / 4, 1e-12);
    CHECK_NEAR(pos[0], e, 1e-6); CHECK_NEAR(pos[1], 1 / e, 1e-6);
    CHECK_NEAR(pos[2], e, 1e-6); CHECK_NEAR(pos[3], 1 / e, 1e-6);
    CHECK_NEAR(ng[0], e + 1 / e, 1e-6); CHECK_NEAR(ng[1], 2 * e, 1e-6);
    CHECK_NEAR(ng[2], e + 1 / e, 1e-6); CHECK_NEAR(ng[3], 2 / e, 1e-6);
}

/* Central differences in double on random unit vectors, with each parameter set, including
 * one where some rows are clamped (near-identical pairs, large τ⁺). */
static void fd_case(uint64_t seed, int B, int D, hcl_params p, int make_clamped) {
    rng_t r;
    rng_seed(&r, seed);
    const int n = B * D;
    double *o1 = malloc(sizeof(double) * n), *o2 = malloc(sizeof(double) * n);
    double *g1 = malloc(sizeof(double) * n), *g2 = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) { o1[i] = rng_normal(&r); o2[i] = rng_normal(&r); }
    if (make_clamped)
        for (int i = 0; i < B / 2; i++)
            for (int d = 0; d < D; d++) o2[i * D + d] = o1[i * D + d] + 0.01 * rng_normal(&r);
    int cl[64], nclamped = 0;
    hcl_loss_f64(o1, o2, B, D, &p, 1.0, g1, g2, NULL, NULL, NULL, cl);
    for (int i = 0; i < 2 * B; i++) nclamped += cl[i];
    if (make_clamped) CHECK(nclamped > 0 && nclamped < 2 * B);
    else CHECK_EQ_INT(nclamped, 0);
    const double h = 1e-6;
    double worst = 0, gmax = 0;
    for (int which = 0; which < 2; which++) {
        double *o = which ? o2 : o1, *g = which ? g2 : g1;
        for (int j = 0; j < n; j++) {
            const double keep = o[j];
            o[j] = keep + h;
            double lp = hcl_loss_f64(o1, o2, B, D, &p, 1.0, NULL, NULL, NULL, NULL, NULL, NULL);
            o[j] = keep - h;
            double lm = hcl_loss_f64(o1, o2, B, D, &p, 1.0, NULL, NULL, NULL, NULL, NULL, NULL);
            o[j] = keep;
            double fd = (lp - lm) / (2 * h), dif = fabs(fd - g[j]);
            if (dif > worst) worst = dif;
            if (fabs(g[j]) > gmax) gmax = fabs(g[j]);
        }
    }
    CHECK_MSG(worst <= 1e-7 * gmax + 1e-9, "seed %llu: fd error %.3g (max|g| %.3g)",
              (unsigned long long)seed, worst, gmax);
    free(o1); free(o2); free(g1); free(g2);
}

static void test_finite_difference(void) {
    fd_case(1, 5, 7, (hcl_params){0.1, 1.0, 0.5}, 0);
    fd_case(2, 4, 6, (hcl_params){0.05, 2.0, 0.7}, 0);
    fd_case(3, 6, 5, (hcl_params){0.0, 0.0, 1.3}, 0);
    fd_case(4, 8, 4, (hcl_params){0.3, 0.5, 0.5}, 1);
}

/* A tiny temperature makes e^{(1+β)s} overflow a naive float computation. */
static void test_large_scale_stable(void) {
    const int B = 3, D = 2;
    const float o1[6] = {1, 0, 0, 1, 0.6f, 0.8f}, o2[6] = {1, 0, 0.8f, 0.6f, 0, 1};
    const hcl_params p = {0.05, 2.0, 0.01};
    float g1[6], g2[6];
    double loss = hcl_loss(o1, o2, B, D, &p, 1.0, g1, g2, NULL);
    CHECK(isfinite(loss) && loss >= 0);
    for (int j = 0; j < B * D; j++) CHECK(isfinite(g1[j]) && isfinite(g2[j]));
}

TEST_MAIN_BEGIN("test_hcl_loss")
    RUN(test_golden_a);
    RUN(test_golden_b);
    RUN(test_hand_b2);
    RUN(test_finite_difference);
    RUN(test_large_scale_stable);
TEST_MAIN_END
