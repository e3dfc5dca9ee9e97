/* tensor_ops: linear, LayerNorm, GELU, log-softmax with backward over OpenBLAS;
 * sgemm peak measurement (half-precision conversion: base/half). */
#include "nn/tensor_ops.h"

#include <cblas.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/parallel.h"

/* Loops that GCC vectorises only with -ftree-vectorize (the project builds with -O2). */
#if defined(__GNUC__) && !defined(__clang__)
#define VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define VECTORIZE
#endif

/* ---- linear ---- */

typedef struct {
    float *y, *dx, *dW, *db;
    const float *x, *W, *b, *dy;
    int n, in, out, accum;
} lin_ctx;

static void linear_forward_rows(void *p, int64_t r0, int64_t r1, int tid) {
    const lin_ctx *c = p;
    (void)tid;
    int rows = (int)(r1 - r0);
    float *y = c->y + (size_t)r0 * c->out;
    float beta = 0.0f;
    if (c->b) {
        for (int i = 0; i < rows; i++) memcpy(y + (size_t)i * c->out, c->b, (size_t)c->out * sizeof(float));
        beta = 1.0f;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, c->out, c->in, 1.0f,
                c->x + (size_t)r0 * c->in, c->in, c->W, c->in, beta, y, c->out);
}

void linear_forward(float *y, const float *x, const float *W, const float *b, int n, int in,
                    int out) {
    if (n <= 0) return;
    lin_ctx c = {.y = y, .x = x, .W = W, .b = b, .n = n, .in = in, .out = out};
    parallel_for(n, 16, linear_forward_rows, &c);
}

/* dx rows [r0, r1) */
static void linear_backward_dx(void *p, int64_t r0, int64_t r1, int tid) {
    const lin_ctx *c = p;
    (void)tid;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(r1 - r0), c->in, c->out, 1.0f,
                c->dy + (size_t)r0 * c->out, c->out, c->W, c->in, c->accum ? 1.0f : 0.0f,
                c->dx + (size_t)r0 * c->in, c->in);
}

/* dW rows (= output features) [o0, o1) and db[o0, o1) */
VECTORIZE static void linear_backward_dw(void *p, int64_t o0, int64_t o1, int tid) {
    const lin_ctx *c = p;
    (void)tid;
    if (c->dW)
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)(o1 - o0), c->in, c->n, 1.0f,
                    c->dy + o0, c->out, c->x, c->in, 1.0f, c->dW + (size_t)o0 * c->in, c->in);
    if (c->db)
        for (int i = 0; i < c->n; i++) {
            const float *r = c->dy + (size_t)i * c->out;
            for (int64_t j = o0; j < o1; j++) c->db[j] += r[j];
        }
}

void linear_backward(float *dx, int accum, float *dW, float *db, const float *dy,
                     const float *x, const float *W, int n, int in, int out) {
    if (n <= 0) return;
    lin_ctx c = {.dx = dx, .dW = dW, .db = db, .dy = dy, .x = x, .W = W, .n = n, .in = in,
                 .out = out, .accum = accum};
    if (dx) parallel_for(n, 16, linear_backward_dx, &c);
    if (dW || db) parallel_for(out, 16, linear_backward_dw, &c);
}

/* ---- LayerNorm ---- */

typedef struct {
    float *y, *mean, *rstd, *dx, *dw, *db;
    const float *x, *w, *b, *dy, *cmean, *crstd;
    int C, accum;
    float eps;
    float *part; /* per-thread partial dw|db: [threads][2C] */
} ln_ctx;

static void layernorm_forward_rows(void *p, int64_t r0, int64_t r1, int tid) {
    const ln_ctx *c = p;
    int C = c->C;
    (void)tid;
    for (int64_t i = r0; i < r1; i++) {
        const float *xi = c->x + (size_t)i * C;
        float *yi = c->y + (size_t)i * C;
        double s = 0;
        for (int j = 0; j < C; j++) s += xi[j];
        double mu = s / C, v = 0;
        for (int j = 0; j < C; j++) {
            double d = xi[j] - mu;
            v += d * d;
        }
        float r = (float)(1.0 / sqrt(v / C + c->eps)), muf = (float)mu;
        for (int j = 0; j < C; j++) yi[j] = (xi[j] - muf) * r * c->w[j] + c->b[j];
        if (c->mean) c->mean[i] = muf;
        if (c->rstd) c->rstd[i] = r;
    }
}

void layernorm_forward(float *y, float *mean, float *rstd, const float *x, const float *w,
                       const float *b, int n, int C, float eps) {
    ln_ctx c = {.y = y, .mean = mean, .rstd = rstd, .x = x, .w = w, .b = b, .C = C, .eps = eps};
    parallel_for(n, 8, layernorm_forward_rows, &c);
}

static void layernorm_backward_rows(void *p, int64_t r0, int64_t r1, int tid) {
    const ln_ctx *c = p;
    int C = c->C;
    float *dw = c->part + (size_t)tid * 2 * C, *db = dw + C;
    for (int64_t i = r0; i < r1; i++) {
        const float *xi = c->x + (size_t)i * C, *dyi = c->dy + (size_t)i * C;
        float mu = c->cmean[i], r = c->crstd[i];
        float s1 = 0, s2 = 0; /* Σ dnorm, Σ dnorm·norm */
        for (int j = 0; j < C; j++) {
            float nrm = (xi[j] - mu) * r, dn = dyi[j] * c->w[j];
            s1 += dn;
            s2 += dn * nrm;
            dw[j] += dyi[j] * nrm;
            db[j] += dyi[j];
        }
        if (!c->dx) continue;
        float m1 = s1 / C, m2 = s2 / C;
        float *dxi = c->dx + (size_t)i * C;
        for (int j = 0; j < C; j++) {
            float nrm = (xi[j] - mu) * r;
            float g = r * (dyi[j] * c->w[j] - m1 - nrm * m2);
            dxi[j] = c->accum ? dxi[j] + g : g;
        }
    }
}

void layernorm_backward(float *dx, int accum, float *dw, float *db, const float *dy,
                        const float *x, const float *mean, const float *rstd, const float *w,
                        int n, int C) {
    int nt = parallel_threads();
    float *part = xcalloc((size_t)nt * 2 * C, sizeof(float));
    ln_ctx c = {.dx = dx, .accum = accum, .dy = dy, .x = x, .cmean = mean, .crstd = rstd,
                .w = w, .C = C, .part = part};
    parallel_for(n, 8, layernorm_backward_rows, &c);
    for (int t = 0; t < nt; t++) /* fixed order: deterministic for a thread count */
        for (int j = 0; j < C; j++) {
            if (dw) dw[j] += part[(size_t)t * 2 * C + j];
            if (db) db[j] += part[(size_t)t * 2 * C + C + j];
        }
    free(part);
}

/* ---- GELU ----
 * Φ(x) = 0.5·(1 + erf(x/√2)) with erf from Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7,
 * float32 level) and e^(−z²) from a range-reduced polynomial, written without branches or
 * libm calls so the loops vectorise; glibc's scalar erff/expf were 15% of inference. */

/* e^(−a) for a >= 0 (a above 87 is treated as 87: the result is then ~1e-38). */
static inline float exp_neg(float a) {
    uint32_t ab;
    memcpy(&ab, &a, 4);
    ab = ab < 0x42ae0000u ? ab : 0x42ae0000u; /* min(a, 87) on the bit patterns (a >= 0) */
    memcpy(&a, &ab, 4);
    float x = -a;
    float t = x * 1.44269504f + 12582912.0f;  /* round(x/ln2) in the low mantissa bits */
    float n = t - 12582912.0f;
    uint32_t ti;
    memcpy(&ti, &t, 4);
    int32_t ni = (int32_t)(ti - 0x4b400000u);
    float r = x - n * 0.693145752f - n * 1.42860677e-06f; /* x − n·ln2, |r| <= ln2/2 */
    float q = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
    uint32_t sc = (uint32_t)(ni + 127) << 23;
    float scale;
    memcpy(&scale, &sc, 4);
    return q * scale;
}

/* Φ(x) and e^(−x²/2). */
static inline float gauss_cdf(float x, float *e_out) {
    uint32_t xb;
    memcpy(&xb, &x, 4);
    uint32_t sign = xb & 0x80000000u, ab = xb & 0x7fffffffu;
    float ax;
    memcpy(&ax, &ab, 4);
    float z = ax * 0.70710678f;
    float t = 1.0f / (1.0f + 0.3275911f * z);
    float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    float e = exp_neg(z * z);
    float half_erf = 0.5f - 0.5f * poly * e; /* 0.5·erf(|x|/√2) */
    uint32_t hb;
    memcpy(&hb, &half_erf, 4);
    hb ^= sign;
    memcpy(&half_erf, &hb, 4);
    *e_out = e;
    return 0.5f + half_erf;
}

typedef struct {
    float *y;
    const float *x, *dy;
} ew_ctx;

VECTORIZE static void gelu_forward_range(void *p, int64_t i0, int64_t i1, int tid) {
    const ew_ctx *c = p;
    float *y = c->y; /* may equal x */
    const float *x = c->x;
    (void)tid;
    for (int64_t i = i0; i < i1; i++) {
        float e, v = x[i];
        y[i] = v * gauss_cdf(v, &e);
    }
}

void gelu_forward(float *y, const float *x, int64_t n) {
    ew_ctx c = {y, x, NULL};
    parallel_for(n, 4096, gelu_forward_range, &c);
}

VECTORIZE static void gelu_backward_range(void *p, int64_t i0, int64_t i1, int tid) {
    const ew_ctx *c = p;
    const float k = 0.39894228f; /* 1/√(2π) */
    const float *x = c->x;
    (void)tid;
    for (int64_t i = i0; i < i1; i++) {
        float e, v = x[i];
        float cdf = gauss_cdf(v, &e);
        c->y[i] = c->dy[i] * (cdf + v * k * e);
    }
}

void gelu_backward(float *dx, const float *dy, const float *x, int64_t n) {
    ew_ctx c = {dx, x, dy};
    parallel_for(n, 4096, gelu_backward_range, &c);
}

typedef struct {
    float *x;
    int C;
} rows_ctx;

static void log_softmax_range(void *p, int64_t r0, int64_t r1, int tid) {
    const rows_ctx *c = p;
    int C = c->C;
    (void)tid;
    for (int64_t i = r0; i < r1; i++) {
        float *r = c->x + (size_t)i * C;
        float mx = r[0];
        for (int j = 1; j < C; j++) mx = r[j] > mx ? r[j] : mx;
        double s = 0;
        for (int j = 0; j < C; j++) s += exp((double)(r[j] - mx));
        float lz = mx + (float)log(s);
        for (int j = 0; j < C; j++) r[j] -= lz;
    }
}

void log_softmax_rows(float *x, int n, int C) {
    rows_ctx c = {x, C};
    parallel_for(n, 1, log_softmax_range, &c);
}

void log_softmax_backward(float *dz, const float *dy, const float *y, int n, int C) {
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * C, *yi = y + (size_t)i * C;
        float *dzi = dz + (size_t)i * C;
        double s = 0;
        for (int j = 0; j < C; j++) s += dyi[j];
        float sf = (float)s;
        for (int j = 0; j < C; j++) dzi[j] = dyi[j] - expf(yi[j]) * sf;
    }
}

void softmax_inplace(float *x, int C) {
    float mx = x[0];
    for (int j = 1; j < C; j++) mx = x[j] > mx ? x[j] : mx;
    float s = 0;
    for (int j = 0; j < C; j++) {
        x[j] = expf(x[j] - mx);
        s += x[j];
    }
    float inv = 1.0f / s;
    for (int j = 0; j < C; j++) x[j] *= inv;
}
