/* projection_head: Linear → BatchNorm1d (training mode) → ReLU → Linear → L2-normalise,
 * forward and backward (see projection_head.h). */
#include "nn/projection_head.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/checkpoint.h"
#include "base/error.h"
#include "nn/tensor_ops.h"

void projection_head_create(projection_head *h, int H, int P1, int P2) {
    memset(h, 0, sizeof *h);
    h->H = H;
    h->P1 = P1;
    h->P2 = P2;
    const size_t nw0 = (size_t)P1 * H, nw3 = (size_t)P2 * P1;
    h->mem = xcalloc(nw0 + 4 * (size_t)P1 + nw3 + (size_t)P2, sizeof(float));
    h->gmem = xcalloc(nw0 + 2 * (size_t)P1 + nw3 + (size_t)P2, sizeof(float));
    float *p = h->mem, *g = h->gmem;
    h->w0 = p; p += nw0;
    h->gamma = p; p += P1;
    h->beta = p; p += P1;
    h->running_mean = p; p += P1;
    h->running_var = p; p += P1;
    h->w3 = p; p += nw3;
    h->b3 = p;
    h->gw0 = g; g += nw0;
    h->ggamma = g; g += P1;
    h->gbeta = g; g += P1;
    h->gw3 = g; g += nw3;
    h->gb3 = g;
    for (int j = 0; j < P1; j++) h->gamma[j] = h->running_var[j] = 1.0f;
    param_list_add(&h->params, "projection_head.0.weight", h->w0, h->gw0, 2, P1, H);
    param_list_add(&h->params, "projection_head.1.weight", h->gamma, h->ggamma, 1, P1, 0);
    param_list_add(&h->params, "projection_head.1.bias", h->beta, h->gbeta, 1, P1, 0);
    param_list_add(&h->params, "projection_head.1.running_mean", h->running_mean, NULL, 1, P1, 0);
    param_list_add(&h->params, "projection_head.1.running_var", h->running_var, NULL, 1, P1, 0);
    param_list_add(&h->params, "projection_head.3.weight", h->w3, h->gw3, 2, P2, P1);
    param_list_add(&h->params, "projection_head.3.bias", h->b3, h->gb3, 1, P2, 0);
}

static void uniform_fill(float *x, size_t n, double bound, rng_t *rng) {
    for (size_t i = 0; i < n; i++) x[i] = (float)((2 * rng_uniform(rng) - 1) * bound);
}

void projection_head_init_random(projection_head *h, rng_t *rng) {
    const double b0 = 1 / sqrt((double)h->H), b3 = 1 / sqrt((double)h->P1);
    uniform_fill(h->w0, (size_t)h->P1 * h->H, b0, rng);
    uniform_fill(h->w3, (size_t)h->P2 * h->P1, b3, rng);
    uniform_fill(h->b3, (size_t)h->P2, b3, rng);
    for (int j = 0; j < h->P1; j++) {
        h->gamma[j] = h->running_var[j] = 1.0f;
        h->beta[j] = h->running_mean[j] = 0.0f;
    }
    h->num_batches_tracked = 0;
}

void projection_head_free(projection_head *h) {
    param_list_free(&h->params);
    free(h->mem);
    free(h->gmem);
    memset(h, 0, sizeof *h);
}

#define NBT_NAME "projection_head.1.num_batches_tracked"

int projection_head_load(projection_head *h, const safetensors *st) {
    int any = 0;
    for (int i = 0; i < st->n && !any; i++)
        any = !strncmp(st->t[i].name, "projection_head.", 16);
    if (!any) return 0;
    checkpoint_load_list(&h->params, st, 1);
    h->num_batches_tracked = 0;
    const safetensors_tensor *t = safetensors_find(st, NBT_NAME);
    if (t) {
        if (t->numel != 1 || (t->dtype != ST_I64 && t->dtype != ST_I32))
            die_input(st->path, NBT_NAME, "expected one I64 or I32 value, got %s with %lld values",
                      safetensors_dtype_name(t->dtype), (long long)t->numel);
        if (t->dtype == ST_I64) {
            memcpy(&h->num_batches_tracked, t->data, 8);
        } else {
            int32_t v;
            memcpy(&v, t->data, 4);
            h->num_batches_tracked = v;
        }
    }
    return 1;
}

safetensors_entry projection_head_extra(const projection_head *h) {
    safetensors_entry e;
    memset(&e, 0, sizeof e);
    e.name = NBT_NAME;
    e.dtype = ST_I64;
    e.ndim = 0;
    e.data = &h->num_batches_tracked;
    return e;
}

void proj_acts_create(proj_acts *a, const projection_head *h, int max_rows) {
    memset(a, 0, sizeof *a);
    const size_t n = (size_t)max_rows, P1 = (size_t)h->P1, P2 = (size_t)h->P2;
    a->cap = max_rows;
    a->lin = xmalloc(sizeof(float) * (n * (4 * P1 + 3 * P2) + n + 2 * P1));
    a->bn = a->lin + n * P1;
    a->act = a->bn + n * P1;
    a->raw = a->act + n * P1;
    a->z = a->raw + n * P2;
    a->scratch = a->z + n * P2;        /* n·(P1+P2) */
    a->norm = a->scratch + n * (P1 + P2);
    a->mean = a->norm + n;
    a->rstd = a->mean + P1;
}

void proj_acts_free(proj_acts *a) {
    free(a->lin);
    memset(a, 0, sizeof *a);
}

void projection_head_forward(projection_head *h, proj_acts *a, const float *x, int n) {
    const int H = h->H, P1 = h->P1, P2 = h->P2;
    if (n < 2 || n > a->cap)
        die("projection_head_forward: %d rows (BatchNorm needs 2..%d)", n, a->cap);
    a->n = n;
    a->x = x;
    linear_forward(a->lin, x, h->w0, NULL, n, H, P1);

    /* Batch statistics per feature, in double. */
    double *sum = xcalloc(2 * (size_t)P1, sizeof(double)), *ssq = sum + P1;
    for (int i = 0; i < n; i++) {
        const float *r = a->lin + (size_t)i * P1;
        for (int j = 0; j < P1; j++) sum[j] += r[j];
    }
    for (int j = 0; j < P1; j++) sum[j] /= n;   /* now the mean */
    for (int i = 0; i < n; i++) {
        const float *r = a->lin + (size_t)i * P1;
        for (int j = 0; j < P1; j++) {
            const double d = r[j] - sum[j];
            ssq[j] += d * d;
        }
    }
    const double m = PROJ_BN_MOMENTUM;
    for (int j = 0; j < P1; j++) {
        const double var = ssq[j] / n;   /* biased: used to normalise */
        a->mean[j] = (float)sum[j];
        a->rstd[j] = (float)(1 / sqrt(var + PROJ_BN_EPS));
        h->running_mean[j] = (float)((1 - m) * h->running_mean[j] + m * sum[j]);
        h->running_var[j] = (float)((1 - m) * h->running_var[j] + m * ssq[j] / (n - 1));
    }
    h->num_batches_tracked++;
    free(sum);

    for (int i = 0; i < n; i++) {
        const float *l = a->lin + (size_t)i * P1;
        float *b = a->bn + (size_t)i * P1, *r = a->act + (size_t)i * P1;
        for (int j = 0; j < P1; j++) {
            b[j] = (l[j] - a->mean[j]) * a->rstd[j] * h->gamma[j] + h->beta[j];
            r[j] = b[j] > 0 ? b[j] : 0.0f;
        }
    }
    linear_forward(a->raw, a->act, h->w3, h->b3, n, P1, P2);
    for (int i = 0; i < n; i++) {
        const float *r = a->raw + (size_t)i * P2;
        float *z = a->z + (size_t)i * P2;
        double s = 0;
        for (int k = 0; k < P2; k++) s += (double)r[k] * r[k];
        const double norm = sqrt(s), inv = 1 / (norm > PROJ_NORM_EPS ? norm : PROJ_NORM_EPS);
        a->norm[i] = (float)norm;
        for (int k = 0; k < P2; k++) z[k] = (float)(r[k] * inv);
    }
}

void projection_head_backward(projection_head *h, proj_acts *a, const float *dz, float *dx) {
    const int n = a->n, H = h->H, P1 = h->P1, P2 = h->P2;
    float *draw = a->scratch, *dbn = a->scratch + (size_t)n * P2;

    /* z = raw/‖raw‖: draw = (dz − z·(z·dz))/‖raw‖; below the 1e-12 floor z = raw/1e-12. */
    for (int i = 0; i < n; i++) {
        const float *zi = a->z + (size_t)i * P2, *gi = dz + (size_t)i * P2;
        float *di = draw + (size_t)i * P2;
        const double norm = a->norm[i];
        if (norm > PROJ_NORM_EPS) {
            double dot = 0;
            for (int k = 0; k < P2; k++) dot += (double)zi[k] * gi[k];
            for (int k = 0; k < P2; k++) di[k] = (float)((gi[k] - zi[k] * dot) / norm);
        } else {
            for (int k = 0; k < P2; k++) di[k] = (float)(gi[k] / PROJ_NORM_EPS);
        }
    }
    /* Second Linear, then ReLU: dbn = d act where bn > 0. */
    linear_backward(dbn, 0, h->gw3, h->gb3, draw, a->act, h->w3, n, P1, P2);
    for (size_t j = 0; j < (size_t)n * P1; j++)
        if (!(a->bn[j] > 0)) dbn[j] = 0;

    /* BatchNorm through μ and σ²: with x̂ = (lin−μ)·rstd and g = ∂/∂bn,
     * dγ = Σ g·x̂, dβ = Σ g, dlin = γ·rstd/n · (n·g − Σg − x̂·Σ g·x̂). */
    double *sg = xcalloc(2 * (size_t)P1, sizeof(double)), *sgx = sg + P1;
    for (int i = 0; i < n; i++) {
        const float *l = a->lin + (size_t)i * P1, *g = dbn + (size_t)i * P1;
        for (int j = 0; j < P1; j++) {
            sg[j] += g[j];
            sgx[j] += (double)g[j] * (l[j] - a->mean[j]) * a->rstd[j];
        }
    }
    for (int j = 0; j < P1; j++) {
        h->ggamma[j] += (float)sgx[j];
        h->gbeta[j] += (float)sg[j];
    }
    for (int i = 0; i < n; i++) {
        const float *l = a->lin + (size_t)i * P1;
        float *g = dbn + (size_t)i * P1;
        for (int j = 0; j < P1; j++) {
            const double xhat = (double)(l[j] - a->mean[j]) * a->rstd[j];
            g[j] = (float)((double)h->gamma[j] * a->rstd[j] / n *
                           ((double)n * g[j] - sg[j] - xhat * sgx[j]));
        }
    }
    free(sg);
    linear_backward(dx, 0, h->gw0, NULL, dbn, a->x, h->w0, n, H, P1);
    for (int i = 0; i < h->params.n; i++)
        if (h->params.p[i].grad) h->params.p[i].has_grad = 1;
}
