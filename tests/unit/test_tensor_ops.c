/* test_tensor_ops: the dense kernels against straightforward double-precision references:
 * GELU (erf form) and its derivative, LayerNorm forward/backward, linear forward/backward
 * (also split over threads), log-softmax and its backward. */
#include "check.h"

#include "base/parallel.h"
#include "base/rng.h"
#include "nn/tensor_ops.h"

static double gelu_ref(double x) { return 0.5 * x * (1 + erf(x / sqrt(2.0))); }
static double gelu_d_ref(double x) {
    return 0.5 * (1 + erf(x / sqrt(2.0))) + x * exp(-0.5 * x * x) / sqrt(2 * M_PI);
}

static void test_gelu(void) {
    enum { N = 20001 };
    static float x[N], y[N], d[N], one[N];
    for (int i = 0; i < N; i++) {
        x[i] = -10.0f + 20.0f * i / (N - 1);
        one[i] = 1.0f;
    }
    gelu_forward(y, x, N);
    gelu_backward(d, one, x, N);
    double ey = 0, ed = 0;
    for (int i = 0; i < N; i++) {
        /* absolute error relative to max(1, |x|): erf's 1.5e-7 times |x|/2 */
        double s = fabs(x[i]) > 1 ? fabs(x[i]) : 1;
        double a = fabs(y[i] - gelu_ref(x[i])) / s, b = fabs(d[i] - gelu_d_ref(x[i])) / s;
        if (a > ey) ey = a;
        if (b > ed) ed = b;
    }
    CHECK_MSG(ey < 4e-7, "GELU error %g", ey);
    CHECK_MSG(ed < 8e-7, "GELU' error %g", ed);
    CHECK(y[N / 2] == 0.0f);                  /* GELU(0) = 0 */
    CHECK(fabs(gelu_ref(-10) - y[0]) < 1e-6); /* tail */
    CHECK(fabs(y[N - 1] - 10.0f) < 1e-6);
    gelu_forward(x, x, N); /* in place */
    CHECK(!memcmp(x, y, sizeof y));
}

static void test_layernorm(void) {
    enum { n = 37, C = 24 };
    static float x[n * C], y[n * C], w[C], b[C], mean[n], rstd[n], dy[n * C], dx[n * C], dw[C], db[C];
    rng_t r;
    rng_seed(&r, 3);
    for (int i = 0; i < n * C; i++) x[i] = (float)(3 + 2 * rng_normal(&r)), dy[i] = (float)rng_normal(&r);
    for (int j = 0; j < C; j++) w[j] = (float)(1 + 0.3 * rng_normal(&r)), b[j] = (float)rng_normal(&r);
    layernorm_forward(y, mean, rstd, x, w, b, n, C, 1e-5f);
    layernorm_backward(dx, 0, dw, db, dy, x, mean, rstd, w, n, C);
    double dwr[C] = {0}, dbr[C] = {0}, emax = 0, gmax = 0;
    for (int i = 0; i < n; i++) {
        double mu = 0, var = 0;
        for (int j = 0; j < C; j++) mu += x[i * C + j];
        mu /= C;
        for (int j = 0; j < C; j++) var += (x[i * C + j] - mu) * (x[i * C + j] - mu);
        var /= C;
        double rs = 1 / sqrt(var + 1e-5), xh[C], g[C], m1 = 0, m2 = 0;
        for (int j = 0; j < C; j++) {
            xh[j] = (x[i * C + j] - mu) * rs;
            CHECK_NEAR(y[i * C + j], xh[j] * w[j] + b[j], 2e-6 * (1 + fabs(y[i * C + j])));
            g[j] = dy[i * C + j] * w[j];
            m1 += g[j] / C;
            m2 += g[j] * xh[j] / C;
            dwr[j] += dy[i * C + j] * xh[j];
            dbr[j] += dy[i * C + j];
        }
        for (int j = 0; j < C; j++) {
            double ref = rs * (g[j] - m1 - xh[j] * m2);
            if (fabs(dx[i * C + j] - ref) > emax) emax = fabs(dx[i * C + j] - ref);
            if (fabs(ref) > gmax) gmax = fabs(ref);
        }
    }
    CHECK_MSG(emax <= 1e-5 * gmax, "LN dx error %g of %g", emax, gmax);
    for (int j = 0; j < C; j++) {
        CHECK_NEAR(dw[j], dwr[j], 1e-4 * (1 + fabs(dwr[j])));
        CHECK_NEAR(db[j], dbr[j], 1e-4 * (1 + fabs(dbr[j])));
    }
}

static void test_linear(void) {
    enum { n = 53, in = 19, out = 41 };
    static float x[n * in], W[out * in], b[out], y[n * out], dy[n * out], dx[n * in], dW[out * in], db[out];
    rng_t r;
    rng_seed(&r, 5);
    for (int i = 0; i < n * in; i++) x[i] = (float)rng_normal(&r);
    for (int i = 0; i < out * in; i++) W[i] = (float)rng_normal(&r);
    for (int i = 0; i < out; i++) b[i] = (float)rng_normal(&r);
    for (int i = 0; i < n * out; i++) dy[i] = (float)rng_normal(&r);
    for (int threads = 1; threads <= 2; threads++) {
        parallel_set_threads(threads);
        memset(dW, 0, sizeof dW);
        memset(db, 0, sizeof db);
        for (int i = 0; i < n * in; i++) dx[i] = 1.0f; /* accum = 1 adds to this */
        linear_forward(y, x, W, b, n, in, out);
        linear_backward(dx, 1, dW, db, dy, x, W, n, in, out);
        for (int i = 0; i < n; i++)
            for (int o = 0; o < out; o++) {
                double s = b[o];
                for (int k = 0; k < in; k++) s += (double)x[i * in + k] * W[o * in + k];
                CHECK_NEAR(y[i * out + o], s, 1e-4);
            }
        for (int i = 0; i < n; i++)
            for (int k = 0; k < in; k++) {
                double s = 1;
                for (int o = 0; o < out; o++) s += (double)dy[i * out + o] * W[o * in + k];
                CHECK_NEAR(dx[i * in + k], s, 1e-4);
            }
        for (int o = 0; o < out; o++) {
            double sb = 0;
            for (int i = 0; i < n; i++) sb += dy[i * out + o];
            CHECK_NEAR(db[o], sb, 1e-4);
            for (int k = 0; k < in; k++) {
                double s = 0;
                for (int i = 0; i < n; i++) s += (double)dy[i * out + o] * x[i * in + k];
                CHECK_NEAR(dW[o * in + k], s, 1e-4);
            }
        }
    }
    parallel_set_threads(0);
}

static void test_log_softmax(void) {
    float z[2][5] = {{1, 2, 3, 4, 5}, {1000, 1000, 0, -1000, 1000}};
    float y[2][5];
    memcpy(y, z, sizeof z);
    log_softmax_rows(&y[0][0], 2, 5);
    double lse = log(exp(1) + exp(2) + exp(3) + exp(4) + exp(5));
    for (int j = 0; j < 5; j++) CHECK_NEAR(y[0][j], z[0][j] - lse, 1e-6);
    CHECK_NEAR(y[1][0], -log(3.0), 1.3e-4); /* no overflow; float spacing at 1000 is 6e-5 */
    CHECK(isfinite(y[1][3]) && y[1][3] < -1999);
    float dy[5] = {0.5f, -1, 0, 2, 0.25f}, dz[5];
    log_softmax_backward(dz, dy, &y[0][0], 1, 5);
    double sum = 0;
    for (int j = 0; j < 5; j++) sum += dy[j];
    for (int j = 0; j < 5; j++) CHECK_NEAR(dz[j], dy[j] - exp(z[0][j] - lse) * sum, 1e-6);
}

TEST_MAIN_BEGIN("test_tensor_ops")
    RUN(test_gelu);
    RUN(test_layernorm);
    RUN(test_linear);
    RUN(test_log_softmax);
TEST_MAIN_END
