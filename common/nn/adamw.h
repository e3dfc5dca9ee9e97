/* adamw: transformers.AdamW exactly as the official code uses it (golden README):
 * for each registered tensor WITH a gradient this step (grad != NULL and has_grad), with
 * its own step count t (from 1):
 *   m = β1·m + (1−β1)·g;  v = β2·v + (1−β2)·g²
 *   p −= lr·sqrt(1−β2^t)/(1−β1^t) · m/(sqrt(v)+eps)      (eps on sqrt(v))
 *   p −= lr·wd·p                                          (decoupled, after the update)
 * wd = 0 for names containing "bias" or "LayerNorm.weight" (substring test), else
 * weight_decay. Tensors without a gradient are skipped entirely (no state change). */
#ifndef PROBEXPAN_ADAMW_H
#define PROBEXPAN_ADAMW_H

#include "nn/param.h"

typedef struct {
    double lr, beta1, beta2, eps, weight_decay;
} adamw_hparams;

/* The official values: lr 1e-5, β 0.9/0.999, eps 1e-6, wd 0.01. */
adamw_hparams adamw_defaults(void);

typedef struct {
    param_t *p;          /* borrowed */
    float *m, *v;        /* exp_avg, exp_avg_sq */
    int64_t step;
    double wd;
} adamw_slot;

typedef struct {
    adamw_hparams h;
    adamw_slot *s;
    int n, cap;
} adamw;

void adamw_create(adamw *o, const adamw_hparams *h);
/* Registers every tensor of l that has a grad buffer (zero state). The param_list must
 * not be reallocated afterwards. */
void adamw_add(adamw *o, param_list *l);
/* One update of every tensor with has_grad; does not clear gradients. */
void adamw_step(adamw *o);
/* Saves / restores m, v and step per tensor to a safetensors file (names
 * "exp_avg.<name>", "exp_avg_sq.<name>", "step.<name>" as F32 [1]). Loading a file that
 * lacks a registered tensor or has a different shape exits 3. */
void adamw_save(const adamw *o, const char *path);
void adamw_load(adamw *o, const char *path);
void adamw_free(adamw *o);

#endif
