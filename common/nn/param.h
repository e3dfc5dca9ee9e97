/* param: a list of named float32 parameter tensors with their gradient buffers.
 *
 * Every trainable module (bert, entity_head, projection_head) exposes its tensors as a
 * param_list, so the optimizer (adamw), the checkpoint writer and the safetensors loader
 * work on names alone. Names are the HuggingFace / golden names ("encoder.layer.3.output.
 * dense.weight", "head.0.weight", ...). `data` and `grad` are borrowed pointers into the
 * owning module's buffers; `grad` is NULL for a frozen tensor. `has_grad` is set to 1 by a
 * backward function that wrote the gradient this step and cleared by param_list_zero_grad;
 * adamw skips tensors whose has_grad is 0 (the golden "no gradient => skipped" rule). */
#ifndef PROBEXPAN_PARAM_H
#define PROBEXPAN_PARAM_H

#include <stdint.h>

typedef struct {
    char *name;
    float *data;        /* numel floats, row-major; Linear weights are [out, in] */
    float *grad;        /* numel floats or NULL when frozen */
    int ndim;           /* 1 or 2 */
    int64_t shape[2];
    int64_t numel;
    int has_grad;
} param_t;

typedef struct {
    param_t *p;
    int n, cap;
} param_list;

/* Appends a tensor (name copied). ndim 1: shape {d0}; ndim 2: {d0, d1}. */
void param_list_add(param_list *l, const char *name, float *data, float *grad, int ndim,
                    int64_t d0, int64_t d1);
/* The tensor with this exact name, or NULL. */
param_t *param_list_find(const param_list *l, const char *name);
/* Zeroes every gradient buffer and clears has_grad. */
void param_list_zero_grad(param_list *l);
/* Total number of floats (all tensors / only those with a grad buffer). */
int64_t param_list_numel(const param_list *l, int trainable_only);
void param_list_free(param_list *l);

#endif
