/* test_projection_head: the projection head (Linear → training-mode BatchNorm → ReLU →
 * Linear → L2 normalise) and, with the HCL loss, the whole contrastive head step against
 * golden cl/ (weights from golden/model.safetensors, inputs cl/view{1,2}/hidden_mask):
 * every activation per view, BN running stats after view 1 then view 2, loss and per-row
 * terms, grad_z, grad_hidden_mask per view and the projection-head gradients (sum of both
 * views). Golden tolerance (README "Suggested comparison"): max|c−g| <= 1e-4·max|g| + 1e-6.
 * Plus a finite-difference check of the backward against an independent double-precision
 * forward written here, the init ranges, and the checkpoint round trip of the head. */
#include "check.h"
#include "golden.h"
#include "nn/hcl_loss.h"
#include "nn/projection_head.h"
#include "base/rng.h"
#include "format/safetensors.h"

enum { GB = 6, GH = 64, GP1 = 256, GP2 = 128 };

static void test_golden_cl(void) {
    const char *g = golden_dir();
    if (!g) SKIP("../shared/golden absent");
    char path[4200];
    snprintf(path, sizeof path, "%s/model.safetensors", g);
    safetensors st;
    safetensors_open(&st, path);
    projection_head h;
    projection_head_create(&h, GH, GP1, GP2);
    CHECK_EQ_INT(projection_head_load(&h, &st), 1);
    safetensors_close(&st);
    CHECK_EQ_INT(h.num_batches_tracked, 0);

    float *x[2];
    proj_acts a[2];
    float *dz[2], *dx[2];
    char name[128];
    for (int v = 0; v < 2; v++) {
        snprintf(name, sizeof name, "cl/view%d/hidden_mask", v + 1);
        x[v] = golden_f32(name, GB * GH);
        if (!x[v]) return;
        proj_acts_create(&a[v], &h, GB);
        projection_head_forward(&h, &a[v], x[v], GB);
        /* Running statistics after this view (view 2 on top of view 1). */
        snprintf(name, sizeof name, "cl/view%d/bn_running_mean", v + 1);
        golden_close(name, h.running_mean, GP1);
        snprintf(name, sizeof name, "cl/view%d/bn_running_var", v + 1);
        golden_close(name, h.running_var, GP1);
        snprintf(name, sizeof name, "cl/view%d/bn_num_batches_tracked", v + 1);
        int32_t *nbt = golden_i32(name, 1);
        if (nbt) CHECK_EQ_INT(h.num_batches_tracked, nbt[0]);
        free(nbt);
        static const char *acts[] = {"proj_linear", "bn_out", "proj_raw", "z"};
        const float *mine[] = {a[v].lin, a[v].bn, a[v].raw, a[v].z};
        const int64_t len[] = {GB * GP1, GB * GP1, GB * GP2, GB * GP2};
        for (int k = 0; k < 4; k++) {
            snprintf(name, sizeof name, "cl/view%d/%s", v + 1, acts[k]);
            golden_close(name, mine[k], len[k]);
        }
        dz[v] = malloc(sizeof(float) * GB * GP2);
        dx[v] = malloc(sizeof(float) * GB * GH);
    }

    const hcl_params hp = {0.1, 1.0, 0.5};   /* golden cl/: τ⁺ 0.1, β 1, t 0.5, no ×7 */
    float pos[2 * GB], ngr[2 * GB], ng[2 * GB];
    hcl_rows rows = {pos, ngr, ng, NULL};
    float loss = (float)hcl_loss(a[0].z, a[1].z, GB, GP2, &hp, 1.0, dz[0], dz[1], &rows);
    golden_close("cl/loss", &loss, 1);
    CHECK_NEAR(loss, 2.60122263, 1e-6);   /* the README's reference value */
    golden_close("cl/pos", pos, 2 * GB);
    golden_close("cl/ng_raw", ngr, 2 * GB);
    golden_close("cl/ng", ng, 2 * GB);

    param_list_zero_grad(&h.params);
    for (int v = 0; v < 2; v++) {
        snprintf(name, sizeof name, "cl/view%d/grad_z", v + 1);
        golden_close(name, dz[v], GB * GP2);
        projection_head_backward(&h, &a[v], dz[v], dx[v]);
        snprintf(name, sizeof name, "cl/view%d/grad_hidden_mask", v + 1);
        golden_close(name, dx[v], GB * GH);
    }
    for (int i = 0; i < h.params.n; i++) {
        const param_t *p = &h.params.p[i];
        if (!p->grad) {   /* running statistics: no gradient, never touched by AdamW */
            CHECK(!p->has_grad && strstr(p->name, "running_"));
            continue;
        }
        CHECK(p->has_grad);
        snprintf(name, sizeof name, "cl/grad/%s", p->name);
        golden_close(name, p->grad, p->numel);
    }
    for (int v = 0; v < 2; v++) {
        free(x[v]); free(dz[v]); free(dx[v]);
        proj_acts_free(&a[v]);
    }
    projection_head_free(&h);
}

/* ---- finite differences against an independent double forward ---- */

typedef struct { int H, P1, P2, n; double *w0, *gam, *bet, *w3, *b3; } ref_head;

/* Objective Σ c·z of the double forward (training-mode BN, biased variance). */
static double ref_objective(const ref_head *r, const double *x, const double *c) {
    const int n = r->n, H = r->H, P1 = r->P1, P2 = r->P2;
    double *lin = calloc((size_t)n * P1, sizeof(double));
    double *act = calloc((size_t)n * P1, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < P1; j++)
            for (int k = 0; k < H; k++) lin[i * P1 + j] += x[i * H + k] * r->w0[j * H + k];
    for (int j = 0; j < P1; j++) {
        double mu = 0, var = 0;
        for (int i = 0; i < n; i++) mu += lin[i * P1 + j] / n;
        for (int i = 0; i < n; i++) var += (lin[i * P1 + j] - mu) * (lin[i * P1 + j] - mu) / n;
        for (int i = 0; i < n; i++) {
            double b = (lin[i * P1 + j] - mu) / sqrt(var + 1e-5) * r->gam[j] + r->bet[j];
            act[i * P1 + j] = b > 0 ? b : 0;
        }
    }
    double obj = 0;
    for (int i = 0; i < n; i++) {
        double raw[64], s = 0;
        for (int k = 0; k < P2; k++) {
            raw[k] = r->b3[k];
            for (int j = 0; j < P1; j++) raw[k] += act[i * P1 + j] * r->w3[k * P1 + j];
            s += raw[k] * raw[k];
        }
        for (int k = 0; k < P2; k++) obj += c[i * P2 + k] * raw[k] / sqrt(s);
    }
    free(lin);
    free(act);
    return obj;
}

/* Central difference of the objective w.r.t. v[j] (v points into the reference). */
static double fd(const ref_head *r, double *x, const double *c, double *v, int j) {
    const double h = 1e-6, keep = v[j];
    v[j] = keep + h;
    double p = ref_objective(r, x, c);
    v[j] = keep - h;
    double m = ref_objective(r, x, c);
    v[j] = keep;
    return (p - m) / (2 * h);
}

static void compare_fd(const char *what, const ref_head *r, double *x, const double *c,
                       double *v, const float *grad, int len) {
    double worst = 0, gmax = 0;
    for (int j = 0; j < len; j++) {
        double f = fd(r, x, c, v, j);
        if (fabs(f - grad[j]) > worst) worst = fabs(f - grad[j]);
        if (fabs(f) > gmax) gmax = fabs(f);
    }
    CHECK_MSG(gmax > 0 && worst <= 1e-3 * gmax + 1e-5, "%s: fd error %.3g (max|g| %.3g)", what,
              worst, gmax);
}

static void test_finite_difference(void) {
    const int H = 5, P1 = 7, P2 = 4, n = 5;
    rng_t rng;
    rng_seed(&rng, 7);
    projection_head h;
    projection_head_create(&h, H, P1, P2);
    projection_head_init_random(&h, &rng);
    for (int j = 0; j < P1; j++) {   /* non-trivial BN affine so γ and β matter */
        h.gamma[j] = (float)(1 + 0.3 * rng_normal(&rng));
        h.beta[j] = (float)(0.2 * rng_normal(&rng));
    }
    float xf[25], dzf[20], dx[25];
    double x[25], c[20];
    for (int i = 0; i < n * H; i++) xf[i] = (float)rng_normal(&rng), x[i] = xf[i];
    for (int i = 0; i < n * P2; i++) dzf[i] = (float)rng_normal(&rng), c[i] = dzf[i];

    ref_head r = {H, P1, P2, n, malloc(sizeof(double) * P1 * H), malloc(sizeof(double) * P1),
                  malloc(sizeof(double) * P1), malloc(sizeof(double) * P2 * P1),
                  malloc(sizeof(double) * P2)};
    for (int j = 0; j < P1 * H; j++) r.w0[j] = h.w0[j];
    for (int j = 0; j < P1; j++) r.gam[j] = h.gamma[j], r.bet[j] = h.beta[j];
    for (int j = 0; j < P2 * P1; j++) r.w3[j] = h.w3[j];
    for (int j = 0; j < P2; j++) r.b3[j] = h.b3[j];

    proj_acts a;
    proj_acts_create(&a, &h, n);
    projection_head_forward(&h, &a, xf, n);
    double obj = 0;
    for (int i = 0; i < n * P2; i++) obj += c[i] * a.z[i];
    CHECK_NEAR(obj, ref_objective(&r, x, c), 1e-5);
    param_list_zero_grad(&h.params);
    projection_head_backward(&h, &a, dzf, dx);
    compare_fd("dx", &r, x, c, x, dx, n * H);
    compare_fd("projection_head.0.weight", &r, x, c, r.w0, h.gw0, P1 * H);
    compare_fd("projection_head.1.weight", &r, x, c, r.gam, h.ggamma, P1);
    compare_fd("projection_head.1.bias", &r, x, c, r.bet, h.gbeta, P1);
    compare_fd("projection_head.3.weight", &r, x, c, r.w3, h.gw3, P2 * P1);
    compare_fd("projection_head.3.bias", &r, x, c, r.b3, h.gb3, P2);

    /* A second backward accumulates: gradients double. */
    float g3 = h.gb3[0];
    projection_head_backward(&h, &a, dzf, dx);
    CHECK_NEAR(h.gb3[0], 2 * g3, 1e-6 + 1e-6 * fabs(g3));

    free(r.w0); free(r.gam); free(r.bet); free(r.w3); free(r.b3);
    proj_acts_free(&a);
    projection_head_free(&h);
}

/* Hand-computed BatchNorm bookkeeping on n = 2 rows through an identity first Linear:
 * features (1, 3) → μ 2, biased σ² 1, unbiased 2; running mean 0.9·0 + 0.1·2 = 0.2,
 * running var 0.9·1 + 0.1·2 = 1.1; normalised (−1, 1)/sqrt(1 + 1e-5). */
static void test_bn_by_hand(void) {
    projection_head h;
    projection_head_create(&h, 1, 1, 1);
    h.w0[0] = 1;
    h.w3[0] = 1;
    h.b3[0] = 0;
    proj_acts a;
    proj_acts_create(&a, &h, 2);
    const float x[2] = {1, 3};
    projection_head_forward(&h, &a, x, 2);
    CHECK_NEAR(a.bn[0], -1 / sqrt(1 + 1e-5), 1e-6);
    CHECK_NEAR(a.bn[1], 1 / sqrt(1 + 1e-5), 1e-6);
    CHECK_NEAR(h.running_mean[0], 0.2, 1e-7);
    CHECK_NEAR(h.running_var[0], 1.1, 1e-6);
    CHECK_EQ_INT(h.num_batches_tracked, 1);
    /* Row 0 is cut by the ReLU: raw 0 → z = 0/max(0, 1e-12) = 0; row 1: z = 1. */
    CHECK_NEAR(a.z[0], 0, 0);
    CHECK_NEAR(a.z[1], 1, 1e-6);
    proj_acts_free(&a);
    projection_head_free(&h);
}

static void test_init_and_names(void) {
    projection_head h;
    projection_head_create(&h, 64, 256, 128);
    rng_t rng;
    rng_seed(&rng, 3);
    projection_head_init_random(&h, &rng);
    const double b0 = 1 / sqrt(64.0), b3 = 1 / sqrt(256.0);
    double m0 = 0, m3 = 0, mb = 0;
    for (int j = 0; j < 256 * 64; j++) m0 = fmax(m0, fabs(h.w0[j]));
    for (int j = 0; j < 128 * 256; j++) m3 = fmax(m3, fabs(h.w3[j]));
    for (int j = 0; j < 128; j++) mb = fmax(mb, fabs(h.b3[j]));
    CHECK(m0 <= b0 && m0 > 0.99 * b0);   /* U(−1/√in, 1/√in) fills its range */
    CHECK(m3 <= b3 && m3 > 0.99 * b3);
    CHECK(mb <= b3 && mb > 0.8 * b3);
    for (int j = 0; j < 256; j++) {
        CHECK(h.gamma[j] == 1 && h.beta[j] == 0);
        CHECK(h.running_mean[j] == 0 && h.running_var[j] == 1);
    }
    static const char *names[] = {
        "projection_head.0.weight", "projection_head.1.weight", "projection_head.1.bias",
        "projection_head.1.running_mean", "projection_head.1.running_var",
        "projection_head.3.weight", "projection_head.3.bias"};
    CHECK_EQ_INT(h.params.n, 7);
    for (int i = 0; i < 7; i++) CHECK(param_list_find(&h.params, names[i]) != NULL);
    CHECK_EQ_INT(param_list_numel(&h.params, 1), 256 * 64 + 256 + 256 + 128 * 256 + 128);
    safetensors_entry e = projection_head_extra(&h);
    CHECK_STR(e.name, "projection_head.1.num_batches_tracked");
    CHECK(e.dtype == ST_I64 && e.ndim == 0 && e.data == &h.num_batches_tracked);
    projection_head_free(&h);
}

/* safetensors_write of the head's tensors plus the I64 count, then projection_head_load. */
static void test_safetensors_round_trip(void) {
    projection_head h, back;
    projection_head_create(&h, 3, 4, 2);
    rng_t rng;
    rng_seed(&rng, 5);
    projection_head_init_random(&h, &rng);
    h.running_mean[1] = 0.5f;
    h.num_batches_tracked = 42;
    safetensors_entry e[8];
    for (int i = 0; i < h.params.n; i++) {
        const param_t *p = &h.params.p[i];
        e[i] = (safetensors_entry){p->name, ST_F32, p->ndim, {p->shape[0], p->shape[1]}, p->data};
    }
    e[h.params.n] = projection_head_extra(&h);
    char path[] = "/tmp/test_projection_head_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    safetensors_write(path, e, h.params.n + 1, NULL);
    safetensors st;
    safetensors_open(&st, path);
    projection_head_create(&back, 3, 4, 2);
    CHECK_EQ_INT(projection_head_load(&back, &st), 1);
    safetensors_close(&st);
    unlink(path);
    CHECK_EQ_INT(back.num_batches_tracked, 42);
    for (int i = 0; i < h.params.n; i++)
        CHECK(!memcmp(h.params.p[i].data, back.params.p[i].data,
                      sizeof(float) * (size_t)h.params.p[i].numel));
    projection_head_free(&h);
    projection_head_free(&back);
}

TEST_MAIN_BEGIN("test_projection_head")
    RUN(test_golden_cl);
    RUN(test_finite_difference);
    RUN(test_bn_by_hand);
    RUN(test_init_and_names);
    RUN(test_safetensors_round_trip);
TEST_MAIN_END
