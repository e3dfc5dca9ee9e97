/* contrastive_pairs: E_pos/E_neg per class from ranked lists and the sample-pair recipe
 * (see contrastive_pairs.h for the exact reading of the paper and the official code). */
#include "model/contrastive_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"

/* Table 6 of the paper; t, batch and loss weight from §3.3 and Expan.py. */
static const cl_preset presets[] = {
    {"wiki", 12, 170, 200, 0.05, 1.0, 1.5e-5, 0.5, 256, 7.0},
    {"apr", 10, 175, 200, 0.1, 1.0, 1.5e-5, 0.5, 256, 7.0},
    {"se2", 5, 160, 180, 0.01, 2.0, 3.5e-6, 0.5, 256, 7.0},
};

const cl_preset *cl_preset_find(const char *name) {
    for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
        if (!strcmp(presets[i].name, name)) return &presets[i];
    return NULL;
}

const cl_preset *cl_preset_default(void) { return &presets[0]; }

static int64_t find(const int64_t *a, int64_t n, int64_t e) {
    for (int64_t i = 0; i < n; i++)
        if (a[i] == e) return i;
    return -1;
}

static void push(int64_t **a, int64_t *n, int64_t *cap, int64_t e) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *a = xrealloc(*a, sizeof(int64_t) * (size_t)*cap);
    }
    (*a)[(*n)++] = e;
}

/* Adds e to E_pos (a positive for some query wins: e leaves E_neg). */
static void cl_sets_add_pos(cl_sets *s, int64_t e) {
    if (find(s->pos, s->n_pos, e) >= 0) return;
    push(&s->pos, &s->n_pos, &s->cap_pos, e);
    int64_t j = find(s->neg, s->n_neg, e);   /* positive for some query wins */
    if (j >= 0) {
        memmove(s->neg + j, s->neg + j + 1, sizeof(int64_t) * (size_t)(s->n_neg - j - 1));
        s->n_neg--;
    }
}

void cl_sets_add_neg(cl_sets *s, int64_t e) {
    if (find(s->pos, s->n_pos, e) >= 0 || find(s->neg, s->n_neg, e) >= 0) return;
    push(&s->neg, &s->n_neg, &s->cap_neg, e);
}

void cl_sets_add_query(cl_sets *s, const int64_t *seeds, int64_t n_seeds,
                       const int64_t *ranked, int64_t n_ranked, const cl_bounds *b) {
    if (b->thr_pos < 1 || b->l_neg < 0 || b->l_neg >= b->u_neg)
        die("cl_sets_add_query: bad bounds thr_pos=%d L_neg=%d U_neg=%d", b->thr_pos, b->l_neg,
            b->u_neg);
    for (int64_t i = 0; i < n_seeds; i++) cl_sets_add_pos(s, seeds[i]);
    int64_t rank = 0;
    for (int64_t i = 0; i < n_ranked; i++) {
        const int64_t e = ranked[i];
        if (find(seeds, n_seeds, e) >= 0) continue;   /* seeds take no rank */
        rank++;
        if (rank < b->thr_pos) cl_sets_add_pos(s, e);
        else if (rank > b->l_neg && rank < b->u_neg) cl_sets_add_neg(s, e);
        else if (rank >= b->u_neg) break;
    }
}

cl_pair_opts cl_pair_opts_default(void) { return (cl_pair_opts){256, 2, 2}; }

void cl_pairs_free(cl_pairs *p) {
    free(p->p);
    memset(p, 0, sizeof *p);
}

static cl_pair *new_pairs(cl_pairs *out, int64_t k) {
    if (out->n + k > out->cap) {
        out->cap = out->cap * 2 > out->n + k ? out->cap * 2 : out->n + k + 64;
        out->p = xrealloc(out->p, sizeof(cl_pair) * (size_t)out->cap);
    }
    cl_pair *p = out->p + out->n;
    out->n += k;
    return p;
}

/* k sentence ordinals of an entity with n samples: distinct when n >= k, else drawn with
 * replacement (written to idx). */
static void draw(rng_t *rng, int64_t n, int64_t k, int64_t *idx) {
    if (n >= k) rng_sample_without_replacement(rng, n, k, idx);
    else
        for (int64_t i = 0; i < k; i++) idx[i] = (int64_t)rng_below(rng, (uint64_t)n);
}

/* Same-entity set of e: min(n, M) pairs of two different sentences. */
static void same_set(cl_pairs *out, int64_t e, int64_t n, int M, int kind, int cls, rng_t *rng,
                     int64_t *idx) {
    const int64_t k = n < M ? n : M;
    rng_sample_without_replacement(rng, n, k, idx);
    cl_pair *p = new_pairs(out, k);
    for (int64_t i = 0; i < k; i++) {
        const int64_t s2 = (idx[i] + 1 + (int64_t)rng_below(rng, (uint64_t)(n - 1))) % n;
        p[i] = (cl_pair){e, e, (int32_t)idx[i], (int32_t)s2, kind, cls};
    }
}

/* Cross set (a, b): min(max(n_a, n_b), M) pairs. */
static void cross_set(cl_pairs *out, int64_t a, int64_t na, int64_t b, int64_t nb, int M, int cls,
                      rng_t *rng, int64_t *ia, int64_t *ib) {
    int64_t k = na > nb ? na : nb;
    if (k > M) k = M;
    draw(rng, na, k, ia);
    draw(rng, nb, k, ib);
    cl_pair *p = new_pairs(out, k);
    for (int64_t i = 0; i < k; i++)
        p[i] = (cl_pair){a, b, (int32_t)ia[i], (int32_t)ib[i], CL_CROSS_POS, cls};
}

static int64_t nsamp(const int64_t *n_samples, int64_t n_entities, int64_t e) {
    if (e < 0 || e >= n_entities)
        die("cl_make_pairs: entity index %lld outside 0..%lld", (long long)e,
            (long long)n_entities - 1);
    return n_samples[e];
}

int64_t cl_make_pairs(const cl_sets *classes, int n_classes, const int64_t *n_samples,
                      int64_t n_entities, const cl_pair_opts *o, rng_t *rng, cl_pairs *out) {
    const int M = o->max_pairs_per_set;
    if (M < 1 || o->cross_per_pos < 0 || o->sets_per_neg < 0)
        die("cl_make_pairs: bad options (M=%d cross=%d neg sets=%d)", M, o->cross_per_pos,
            o->sets_per_neg);
    const int64_t start = out->n;
    intmap used;   /* unordered entity pairs {a,b} (a == b: same-entity set) already drawn */
    intmap_init(&used);
    int64_t *ia = xmalloc(sizeof(int64_t) * (size_t)M * 2), *ib = ia + M;
    int64_t *cand = NULL;
    int64_t cand_cap = 0;
#define PAIR_KEY(a, b) ((a) < (b) ? (a) * n_entities + (b) : (b) * n_entities + (a))
    for (int c = 0; c < n_classes; c++) {
        const cl_sets *s = &classes[c];
        if (s->n_pos > cand_cap) {
            cand_cap = s->n_pos;
            cand = xrealloc(cand, sizeof(int64_t) * (size_t)cand_cap);
        }
        for (int64_t i = 0; i < s->n_pos; i++) {
            const int64_t e = s->pos[i], ne = nsamp(n_samples, n_entities, e);
            if (ne < 1) continue;
            if (ne >= 2 && intmap_put(&used, PAIR_KEY(e, e), 1) < 0)
                same_set(out, e, ne, M, CL_SAME_POS, c, rng, ia);
            for (int r = 0; r < o->cross_per_pos; r++) {
                int64_t nc = 0;
                for (int64_t j = 0; j < s->n_pos; j++) {
                    const int64_t f = s->pos[j];
                    if (f != e && nsamp(n_samples, n_entities, f) > 0 &&
                        intmap_get(&used, PAIR_KEY(e, f)) < 0)
                        cand[nc++] = f;
                }
                if (!nc) break;
                const int64_t f = cand[rng_below(rng, (uint64_t)nc)];
                intmap_put(&used, PAIR_KEY(e, f), 1);
                cross_set(out, e, ne, f, n_samples[f], M, c, rng, ia, ib);
            }
        }
        for (int64_t i = 0; i < s->n_neg; i++) {
            const int64_t e = s->neg[i], ne = nsamp(n_samples, n_entities, e);
            if (ne < 2 || o->sets_per_neg < 1) continue;
            if (intmap_put(&used, PAIR_KEY(e, e), 1) < 0)
                same_set(out, e, ne, M, CL_SAME_NEG, c, rng, ia);
            for (int r = 1; r < o->sets_per_neg; r++)
                same_set(out, e, ne, M, CL_SAME_NEG, c, rng, ia);
        }
    }
#undef PAIR_KEY
    free(cand);
    free(ia);
    intmap_free(&used);
    return out->n - start;
}
