/* param: named parameter tensors with gradient buffers (see param.h). */
#include "nn/param.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

void param_list_add(param_list *l, const char *name, float *data, float *grad, int ndim,
                    int64_t d0, int64_t d1) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 32;
        l->p = xrealloc(l->p, (size_t)l->cap * sizeof *l->p);
    }
    param_t *p = &l->p[l->n++];
    p->name = xstrdup(name);
    p->data = data;
    p->grad = grad;
    p->ndim = ndim;
    p->shape[0] = d0;
    p->shape[1] = ndim == 2 ? d1 : 0;
    p->numel = ndim == 2 ? d0 * d1 : d0;
    p->has_grad = 0;
}

param_t *param_list_find(const param_list *l, const char *name) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->p[i].name, name)) return &l->p[i];
    return NULL;
}

void param_list_zero_grad(param_list *l) {
    for (int i = 0; i < l->n; i++) {
        if (l->p[i].grad) memset(l->p[i].grad, 0, (size_t)l->p[i].numel * sizeof(float));
        l->p[i].has_grad = 0;
    }
}

int64_t param_list_numel(const param_list *l, int trainable_only) {
    int64_t n = 0;
    for (int i = 0; i < l->n; i++)
        if (!trainable_only || l->p[i].grad) n += l->p[i].numel;
    return n;
}

void param_list_free(param_list *l) {
    for (int i = 0; i < l->n; i++) free(l->p[i].name);
    free(l->p);
    memset(l, 0, sizeof *l);
}
