/* projection_head: ProbExpan's contrastive projection head p (docs/design.md §3, golden README
 * "Projection head, BatchNorm and normalisation"):
 *   lin = x·W0ᵀ                     Linear(H, P1, no bias)     "projection_head.0.weight" [P1,H]
 *   bn  = BN(lin)                   BatchNorm1d(P1), TRAINING mode:
 *         μ, σ² = batch mean and BIASED variance per feature over the n rows of this call,
 *         bn = (lin − μ)/sqrt(σ² + 1e-5)·γ + β  "projection_head.1.weight" γ, ".1.bias" β [P1]
 *         running_mean = 0.9·running_mean + 0.1·μ
 *         running_var  = 0.9·running_var + 0.1·σ²·n/(n−1)   (unbiased)
 *         num_batches_tracked += 1     ".1.running_mean", ".1.running_var" [P1], ".1.num_batches_tracked" I64 []
 *   act = ReLU(bn)
 *   raw = act·W3ᵀ + b3              Linear(P1, P2)   "projection_head.3.weight" [P2,P1], ".3.bias" [P2]
 *   z   = raw / max(‖raw‖₂, 1e-12)  per row
 * The running statistics never affect these training-mode outputs (the official code never
 * evaluates the head), so there is no eval mode. Each forward call is one BN batch: the two
 * views of a contrastive step are two calls with two activation buffers (statistics per
 * view, running stats updated twice). n >= 2 rows per call (BN needs a variance).
 *
 * Parameters live in one buffer (mem) and gradients in another (gmem), llm.c style.
 * `params` lists, under the names above, the five trainable tensors (with grad buffers) and
 * the two running-stat tensors (grad NULL, so adamw ignores them and checkpoint_save writes
 * them); num_batches_tracked is an int64 outside the list, written through
 * projection_head_extra(). Backward ACCUMULATES into the gradients (the two views add up)
 * and sets has_grad on the five trainable tensors; clear with param_list_zero_grad. */
#ifndef PROBEXPAN_PROJECTION_HEAD_H
#define PROBEXPAN_PROJECTION_HEAD_H

#include <stdint.h>

#include "nn/param.h"
#include "base/rng.h"
#include "format/safetensors.h"

#define PROJ_BN_EPS 1e-5
#define PROJ_BN_MOMENTUM 0.1
#define PROJ_NORM_EPS 1e-12

typedef struct {
    int H, P1, P2;                    /* input, hidden (256), output (128) sizes */
    float *mem, *gmem;
    float *w0, *gamma, *beta, *w3, *b3, *running_mean, *running_var;   /* in mem */
    float *gw0, *ggamma, *gbeta, *gw3, *gb3;                           /* in gmem */
    int64_t num_batches_tracked;
    param_list params;
} projection_head;

/* Activations of one forward call (one view), kept for its backward. */
typedef struct {
    int cap, n;                       /* row capacity, rows of the last forward */
    const float *x;                   /* input of the last forward (borrowed: keep it alive
                                         until the backward) */
    float *lin, *bn, *act;            /* [n,P1]: pre-BN, BN output (before ReLU), ReLU */
    float *raw, *z;                   /* [n,P2]: before / after L2 normalisation */
    float *norm;                      /* [n] ‖raw‖₂ */
    float *mean, *rstd;               /* [P1] batch mean, 1/sqrt(σ²+eps) */
    float *scratch;                   /* backward: n·(P1+P2) floats */
} proj_acts;

/* Zero parameters and gradients, BN state as freshly constructed (γ 1, β 0, running mean 0,
 * running var 1, count 0). */
void projection_head_create(projection_head *h, int H, int P1, int P2);
/* nn.Linear's default init for both Linears (Kaiming-uniform a=√5, i.e. weight and bias
 * U(−1/√in, 1/√in)); BatchNorm as in create. */
void projection_head_init_random(projection_head *h, rng_t *rng);
void projection_head_free(projection_head *h);
/* Loads projection_head.* from an open safetensors file (num_batches_tracked may be I64 or
 * I32, shape [] or [1]; absent means 0). Returns 1 when loaded, 0 when the file has no
 * projection_head.* tensor; a partial or mis-shaped head exits 3 naming the tensor. */
int projection_head_load(projection_head *h, const safetensors *st);
/* The raw I64 entry "projection_head.1.num_batches_tracked" (shape []) for checkpoint_save's
 * `extra` argument; points into h. */
safetensors_entry projection_head_extra(const projection_head *h);

void proj_acts_create(proj_acts *a, const projection_head *h, int max_rows);
void proj_acts_free(proj_acts *a);

/* Training-mode forward of n rows x [n,H] (2 <= n <= a->cap): fills a (a->z is the output)
 * and updates the running statistics. */
void projection_head_forward(projection_head *h, proj_acts *a, const float *x, int n);
/* From dz [n,P2] = ∂loss/∂z of the same call: accumulates the parameter gradients and writes
 * dx [n,H] = ∂loss/∂x (overwritten; NULL to skip). The backward goes through μ and σ². */
void projection_head_backward(projection_head *h, proj_acts *a, const float *dz, float *dx);

#endif
