/* entity_head: Linear(H,H) -> GELU -> Linear(H,V_e) -> LogSoftmax with backward. */
#include "nn/entity_head.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/checkpoint.h"
#include "base/error.h"
#include "format/safetensors.h"
#include "nn/tensor_ops.h"

void entity_head_create(entity_head *h, int H, int V) {
    memset(h, 0, sizeof *h);
    h->H = H;
    h->V = V;
    size_t n = (size_t)H * H + H + (size_t)V * H + V;
    h->mem = xcalloc(n, sizeof(float));
    h->gmem = xcalloc(n, sizeof(float));
    h->w0 = h->mem;
    h->b0 = h->w0 + (size_t)H * H;
    h->w2 = h->b0 + H;
    h->b2 = h->w2 + (size_t)V * H;
    h->gw0 = h->gmem;
    h->gb0 = h->gw0 + (size_t)H * H;
    h->gw2 = h->gb0 + H;
    h->gb2 = h->gw2 + (size_t)V * H;
    param_list_add(&h->params, "head.0.weight", h->w0, h->gw0, 2, H, H);
    param_list_add(&h->params, "head.0.bias", h->b0, h->gb0, 1, H, 0);
    param_list_add(&h->params, "head.2.weight", h->w2, h->gw2, 2, V, H);
    param_list_add(&h->params, "head.2.bias", h->b2, h->gb2, 1, V, 0);
}

void entity_head_init_random(entity_head *h, rng_t *rng) {
    float bound = 1.0f / sqrtf((float)h->H); /* kaiming_uniform(a=√5): 1/√fan_in */
    for (size_t i = 0; i < (size_t)h->H * h->H; i++)
        h->w0[i] = (float)((2 * rng_uniform(rng) - 1) * bound);
    for (size_t i = 0; i < (size_t)h->V * h->H; i++)
        h->w2[i] = (float)((2 * rng_uniform(rng) - 1) * bound);
    memset(h->b0, 0, (size_t)h->H * sizeof(float));
    memset(h->b2, 0, (size_t)h->V * sizeof(float));
}

void entity_head_free(entity_head *h) {
    free(h->mem);
    free(h->gmem);
    param_list_free(&h->params);
    memset(h, 0, sizeof *h);
}

int entity_head_load_safetensors(entity_head *h, const char *path) {
    safetensors st;
    safetensors_open(&st, path);
    int found = checkpoint_load_list(&h->params, &st, 0);
    if (found > 0 && found < h->params.n) checkpoint_load_list(&h->params, &st, 1);
    safetensors_close(&st);
    return found > 0;
}

void entity_head_forward(const entity_head *h, const float *hid, int B, float *dense,
                         float *gelu, float *logp) {
    linear_forward(dense, hid, h->w0, h->b0, B, h->H, h->H);
    gelu_forward(gelu, dense, (int64_t)B * h->H);
    linear_forward(logp, gelu, h->w2, h->b2, B, h->H, h->V);
    log_softmax_rows(logp, B, h->V);
}

void entity_head_backward(entity_head *h, const float *hid, int B, const float *dense,
                          const float *gelu, const float *logp, const float *dlogp,
                          float *dhid, float *scratch) {
    int H = h->H, V = h->V;
    float *mem = scratch ? NULL : xmalloc((size_t)B * (V + H) * sizeof(float));
    float *dlog = scratch ? scratch : mem, *dg = dlog + (size_t)B * V;
    log_softmax_backward(dlog, dlogp, logp, B, V);
    linear_backward(dg, 0, h->gw2, h->gb2, dlog, gelu, h->w2, B, H, V);
    gelu_backward(dg, dg, dense, (int64_t)B * H);
    linear_backward(dhid, 0, h->gw0, h->gb0, dg, hid, h->w0, B, H, H);
    for (int i = 0; i < h->params.n; i++) h->params.p[i].has_grad = 1;
    free(mem);
}
