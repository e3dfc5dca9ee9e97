/* entity_head: ProbExpan's entity prediction head f (docs/design.md §3):
 *   Linear(H,H) -> GELU(erf) -> Linear(H,V_e) -> LogSoftmax,
 * tensors "head.0.weight" [H,H], "head.0.bias" [H], "head.2.weight" [V_e,H],
 * "head.2.bias" [V_e] (nn.Sequential indices, as in the golden checkpoint).
 * Init as nn.Linear: weights Kaiming-uniform U(−1/√in, 1/√in), biases zero (docs/design.md).
 * The caller owns the activation buffers: dense, gelu [B, H]; logp [B, V_e]. */
#ifndef PROBEXPAN_ENTITY_HEAD_H
#define PROBEXPAN_ENTITY_HEAD_H

#include "nn/param.h"
#include "base/rng.h"

typedef struct {
    int H, V;
    float *mem, *gmem;
    float *w0, *b0, *w2, *b2;         /* parameters */
    float *gw0, *gb0, *gw2, *gb2;     /* gradients */
    param_list params;
} entity_head;

void entity_head_create(entity_head *h, int H, int V);   /* zero weights, zero grads */
void entity_head_init_random(entity_head *h, rng_t *rng);
void entity_head_free(entity_head *h);
/* Loads head.* from a safetensors file. Returns 1 when loaded, 0 when the file has no
 * head.* tensor at all; a partial or mis-shaped head exits 3 naming the tensor. */
int entity_head_load_safetensors(entity_head *h, const char *path);

/* hid [B,H] -> dense, gelu [B,H] (kept for the backward) and logp [B,V] log-probabilities. */
void entity_head_forward(const entity_head *h, const float *hid, int B, float *dense,
                         float *gelu, float *logp);
/* From d logp [B,V]: accumulates parameter gradients (sets has_grad) and writes d hid [B,H]
 * (overwritten; may be NULL). scratch: B·(V+H) floats, or NULL to allocate. */
void entity_head_backward(entity_head *h, const float *hid, int B, const float *dense,
                          const float *gelu, const float *logp, const float *dlogp,
                          float *dhid, float *scratch);

#endif
