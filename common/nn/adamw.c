/* adamw: transformers.AdamW (eps on sqrt(v), decoupled decay after the update). */
#include "nn/adamw.h"

#include <math.h>
#ifdef __SSE2__
#include <immintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parallel.h"
#include "format/safetensors.h"

adamw_hparams adamw_defaults(void) {
    return (adamw_hparams){1e-5, 0.9, 0.999, 1e-6, 0.01};
}

void adamw_create(adamw *o, const adamw_hparams *h) {
    memset(o, 0, sizeof *o);
    o->h = *h;
}

void adamw_add(adamw *o, param_list *l) {
    for (int i = 0; i < l->n; i++) {
        param_t *p = &l->p[i];
        if (!p->grad) continue;
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 64;
            o->s = xrealloc(o->s, (size_t)o->cap * sizeof *o->s);
        }
        adamw_slot *s = &o->s[o->n++];
        s->p = p;
        s->m = xcalloc((size_t)p->numel, sizeof(float));
        s->v = xcalloc((size_t)p->numel, sizeof(float));
        s->step = 0;
        s->wd = (strstr(p->name, "bias") || strstr(p->name, "LayerNorm.weight"))
                    ? 0.0 : o->h.weight_decay;
    }
}

typedef struct {
    const adamw_slot *s;
    float step_size, b1, b2, c1, c2, eps, decay;
} adamw_job;

static void adamw_range(void *p, int64_t j0, int64_t j1, int tid) {
    const adamw_job *a = p;
    const adamw_slot *s = a->s;
    float *data = s->p->data, *m = s->m, *v = s->v;
    const float *grad = s->p->grad;
    int64_t j = j0;
    (void)tid;
#ifdef __SSE2__
    /* the same arithmetic, 4 lanes at a time (sqrtf in a loop does not vectorise at -O2) */
    const __m128 b1 = _mm_set1_ps(a->b1), b2 = _mm_set1_ps(a->b2), c1 = _mm_set1_ps(a->c1),
                 c2 = _mm_set1_ps(a->c2), ss = _mm_set1_ps(a->step_size),
                 eps = _mm_set1_ps(a->eps), dec = _mm_set1_ps(a->decay);
    for (; j + 4 <= j1; j += 4) {
        __m128 g = _mm_loadu_ps(grad + j);
        __m128 mj = _mm_add_ps(_mm_mul_ps(b1, _mm_loadu_ps(m + j)), _mm_mul_ps(c1, g));
        __m128 vj = _mm_add_ps(_mm_mul_ps(b2, _mm_loadu_ps(v + j)), _mm_mul_ps(_mm_mul_ps(c2, g), g));
        _mm_storeu_ps(m + j, mj);
        _mm_storeu_ps(v + j, vj);
        __m128 x = _mm_sub_ps(_mm_loadu_ps(data + j),
                              _mm_div_ps(_mm_mul_ps(ss, mj), _mm_add_ps(_mm_sqrt_ps(vj), eps)));
        _mm_storeu_ps(data + j, _mm_sub_ps(x, _mm_mul_ps(dec, x)));
    }
#endif
    for (; j < j1; j++) {
        float g = grad[j];
        float mj = m[j] = a->b1 * m[j] + a->c1 * g;
        float vj = v[j] = a->b2 * v[j] + a->c2 * g * g;
        float x = data[j] - a->step_size * mj / (sqrtf(vj) + a->eps);
        data[j] = x - a->decay * x;
    }
}

void adamw_step(adamw *o) {
    const adamw_hparams *h = &o->h;
    for (int i = 0; i < o->n; i++) {
        adamw_slot *s = &o->s[i];
        param_t *p = s->p;
        if (!p->grad || !p->has_grad) continue;
        s->step++;
        double bc1 = 1.0 - pow(h->beta1, (double)s->step);
        double bc2 = 1.0 - pow(h->beta2, (double)s->step);
        /* 1−β computed in double: (1.0f − 0.999f) would be off by 1.3e-5 relative */
        adamw_job a = {s, (float)(h->lr * sqrt(bc2) / bc1), (float)h->beta1, (float)h->beta2,
                       (float)(1.0 - h->beta1), (float)(1.0 - h->beta2), (float)h->eps,
                       (float)(h->lr * s->wd)};
        parallel_for(p->numel, 1 << 15, adamw_range, &a);
    }
}

void adamw_save(const adamw *o, const char *path) {
    safetensors_entry *e = xcalloc((size_t)o->n * 3 + 1, sizeof *e);
    float *steps = xcalloc((size_t)o->n + 1, sizeof(float));
    char **names = xcalloc((size_t)o->n * 3 + 1, sizeof(char *));
    for (int i = 0; i < o->n; i++) {
        const adamw_slot *s = &o->s[i];
        steps[i] = (float)s->step;
        const char *kinds[3] = {"exp_avg", "exp_avg_sq", "step"};
        const void *data[3] = {s->m, s->v, &steps[i]};
        for (int k = 0; k < 3; k++) {
            safetensors_entry *x = &e[3 * i + k];
            names[3 * i + k] = xasprintf("%s.%s", kinds[k], s->p->name);
            x->name = names[3 * i + k];
            x->dtype = ST_F32;
            x->ndim = k == 2 ? 1 : s->p->ndim;
            x->shape[0] = k == 2 ? 1 : s->p->shape[0];
            x->shape[1] = s->p->shape[1];
            x->data = data[k];
        }
    }
    safetensors_write(path, e, 3 * o->n, NULL);
    for (int i = 0; i < 3 * o->n; i++) free(names[i]);
    free(names);
    free(steps);
    free(e);
}

void adamw_load(adamw *o, const char *path) {
    safetensors st;
    safetensors_open(&st, path);
    for (int i = 0; i < o->n; i++) {
        adamw_slot *s = &o->s[i];
        const param_t *p = s->p;
        char *n1 = xasprintf("exp_avg.%s", p->name), *n2 = xasprintf("exp_avg_sq.%s", p->name),
             *n3 = xasprintf("step.%s", p->name);
        const safetensors_tensor *t1 = safetensors_find(&st, n1), *t2 = safetensors_find(&st, n2), *t3 = safetensors_find(&st, n3);
        if (!t1) die_input(path, n1, "missing optimizer state tensor");
        if (!t2) die_input(path, n2, "missing optimizer state tensor");
        if (!t3) die_input(path, n3, "missing optimizer state tensor");
        safetensors_read_f32_shape(&st, t1, p->ndim, p->shape[0], p->shape[1], s->m);
        safetensors_read_f32_shape(&st, t2, p->ndim, p->shape[0], p->shape[1], s->v);
        float step;
        safetensors_read_f32_shape(&st, t3, 1, 1, 0, &step);
        if (step < 0 || step != floorf(step)) die_input(path, n3, "step must be a whole number");
        s->step = (int64_t)step;
        free(n1);
        free(n2);
        free(n3);
    }
    safetensors_close(&st);
}

void adamw_free(adamw *o) {
    for (int i = 0; i < o->n; i++) {
        free(o->s[i].m);
        free(o->s[i].v);
    }
    free(o->s);
    memset(o, 0, sizeof *o);
}
