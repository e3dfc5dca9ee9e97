/* seed_features: SetExpan-style context-feature selection by an entity set, as weights. */
#include "model/seed_features.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"

seedfeat_opts seedfeat_defaults(void) {
    seedfeat_opts o = {200, 2, 0.5, 0, 2.0, 0, 0.5};
    return o;
}

typedef struct {
    int32_t f;
    double score;
} scored_feature;

static int by_score(const void *a, const void *b) {
    const scored_feature *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return (x->f > y->f) - (x->f < y->f);
}

/* sum[f] += scale x z_e[f] over the members e of s, for features with held[f] > 0 only when
 * `only_held`; else every feature held by a member, counted in held[] and listed in touched. */
static void add_profiles(const pattern_model *m, const seedfeat_set *s, double scale, int only_held, double *sum,
                         int32_t *held, int32_t **touched, int64_t *ntouched, int64_t *cap) {
    for (int i = 0; i < s->n; i++) {
        const int32_t *pf;
        const float *pv;
        double norm;
        int64_t len = pattern_model_profile(m, s->rows[i], &pf, &pv, &norm);
        if (norm <= 0) continue;
        for (int64_t q = 0; q < len; q++) {
            int32_t f = pf[q];
            if (pv[q] <= 0 || (only_held && !held[f])) continue;
            if (!only_held) {
                if (!held[f]) {
                    if (*ntouched == *cap) *touched = xrealloc(*touched, sizeof(int32_t) * (size_t)(*cap *= 2));
                    (*touched)[(*ntouched)++] = f;
                }
                held[f]++;
            }
            sum[f] += scale * pv[q] / norm;
        }
    }
}

int seedfeat_select(const pattern_model *m, const seedfeat_set *s, const seedfeat_set *others,
                    const seedfeat_set *rejected, const seedfeat_opts *o, int32_t *feat, double *score) {
    if (o->top < 1 || o->min_share < 1 || s->n < 1) die("seedfeat_select: top, min_share and the set must be >= 1");
    int64_t F = pattern_model_stats(m).features;
    double *sum = xcalloc((size_t)F + 1, sizeof(double));
    int32_t *held = xcalloc((size_t)F + 1, sizeof(int32_t));
    int64_t cap = 64, ntouched = 0;
    int32_t *touched = xmalloc(sizeof(int32_t) * (size_t)cap);
    add_profiles(m, s, 1.0 / s->n, 0, sum, held, &touched, &ntouched, &cap);
    if (o->others > 0 && others->n > 0)
        add_profiles(m, others, -o->others / others->n, 1, sum, held, &touched, &ntouched, &cap);
    if (o->rejected > 0 && rejected->n > 0)
        add_profiles(m, rejected, -o->rejected / rejected->n, 1, sum, held, &touched, &ntouched, &cap);
    scored_feature *cand = xmalloc(sizeof *cand * (size_t)(ntouched + 1));
    int64_t nc = 0;
    int need = (int)ceil(o->share_fraction * s->n - 1e-9);
    if (need < o->min_share) need = o->min_share;
    for (int64_t i = 0; i < ntouched; i++) {
        int32_t f = touched[i];
        if (held[f] >= need && sum[f] > 0) cand[nc++] = (scored_feature){f, sum[f]};
    }
    qsort(cand, (size_t)nc, sizeof *cand, by_score);
    int k = nc < o->top ? (int)nc : o->top;
    for (int i = 0; i < k; i++) {
        feat[i] = cand[i].f;
        score[i] = cand[i].score;
    }
    free(cand);
    free(touched);
    free(held);
    free(sum);
    return k;
}

pattern_refinement *seedfeat_refinement(const pattern_model *m, const seedfeat_set *s, const seedfeat_set *others,
                                        const seedfeat_set *rejected, const seedfeat_opts *o) {
    int64_t F = pattern_model_stats(m).features;
    int32_t *feat = xmalloc(sizeof(int32_t) * (size_t)o->top);
    double *score = xmalloc(sizeof(double) * (size_t)o->top);
    int k = seedfeat_select(m, s, others, rejected, o, feat, score);
    float *w = xmalloc(sizeof(float) * (size_t)(F + 1));
    for (int64_t f = 0; f < F; f++) w[f] = 1.0f;
    for (int i = 0; i < k; i++) {
        double u = o->proportional ? o->boost * score[i] / score[0] : o->boost;
        w[feat[i]] *= (float)exp(u);
    }
    pattern_refinement *r = pattern_refinement_from_weights(m, w);
    free(w);
    free(score);
    free(feat);
    return r;
}
