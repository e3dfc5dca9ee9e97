/* ties: the context features that tie an entity to a seed set (contract in ties.h). */
#include "serve/ties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"

struct ties {
    const engine *g;
    const feature_text *text;
};

ties *ties_open(const engine *g, const feature_text *text) {
    ties *t = xcalloc(1, sizeof *t);
    t->g = g;
    t->text = text;
    return t;
}

void ties_free(ties *t) { free(t); }

const engine *ties_engine(const ties *t) { return t->g; }

/* c(f, e): samples of entity e showing feature f (0 when none). */
static int64_t feature_count(const pattern_counts *k, int64_t f, int64_t e) {
    int64_t lo = k->foff[f], hi = k->foff[f + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k->ent[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->foff[f + 1] && k->ent[lo] == e ? k->cnt[lo] : 0;
}

/* The text of the items[0..n-1] still without one that e's samples show. */
static void describe(const ties *t, int64_t e, tie *items, int n) {
    int64_t *feats = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    int *slot = xmalloc(sizeof(int) * (size_t)(n + 1)), k = 0;
    for (int i = 0; i < n; i++)
        if (!items[i].text[0]) slot[k] = i, feats[k++] = items[i].feature;
    char (*text)[FEATURE_TEXT] = xmalloc(sizeof *text * (size_t)(k + 1));
    feature_text_find(t->text, e, feats, k, text);
    for (int i = 0; i < k; i++) memcpy(items[slot[i]].text, text[i], FEATURE_TEXT);
    free(feats);
    free(slot);
    free(text);
}

static int by_contribution(const void *a, const void *b) {
    const tie *p = a, *q = b;
    if (p->contribution != q->contribution) return p->contribution > q->contribution ? -1 : 1;
    return (p->feature > q->feature) - (p->feature < q->feature);
}

void ties_rank(const pattern_model *m, const pattern_counts *k, int64_t e, const int64_t *seeds, int nseeds, int limit,
               ties_result *out) {
    memset(out, 0, sizeof *out);
    out->nseeds = nseeds;
    const int32_t *fe;
    const float *ve;
    double ne;
    int64_t n = pattern_model_profile(m, e, &fe, &ve, &ne);
    if (ne == 0 || nseeds == 0) return;
    double *acc = xcalloc((size_t)n + 1, sizeof(double));
    int *sharing = xcalloc((size_t)n + 1, sizeof(int));
    for (int si = 0; si < nseeds; si++) { /* merge e's profile with each seed's (both ascending) */
        const int32_t *fs;
        const float *vs;
        double ns;
        int64_t m2 = pattern_model_profile(m, seeds[si], &fs, &vs, &ns);
        if (ns == 0) continue;
        for (int64_t i = 0, j = 0; i < n && j < m2;) {
            if (fe[i] < fs[j]) i++;
            else if (fe[i] > fs[j]) j++;
            else {
                if (ve[i] > 0 && vs[j] > 0) {
                    acc[i] += (double)ve[i] / ne * (double)vs[j] / ns / nseeds;
                    sharing[i]++;
                }
                i++, j++;
            }
        }
    }
    tie *all = xmalloc(sizeof *all * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++) {
        out->similarity += acc[i];
        if (acc[i] > 0) all[out->shared++] = (tie){.feature = fe[i], .contribution = acc[i], .seeds_sharing = sharing[i]};
    }
    qsort(all, (size_t)out->shared, sizeof *all, by_contribution);
    out->n = (int)(out->shared < limit ? out->shared : limit);
    out->items = xrealloc(all, sizeof *all * (size_t)(out->n + 1));
    out->seed_count = xmalloc(sizeof(int64_t) * ((size_t)out->n * (size_t)nseeds + 1));
    for (int i = 0; i < out->n; i++) {
        tie *it = &out->items[i];
        it->kind = pattern_key_kind(k->key[it->feature]);
        it->weight = pattern_model_feature_weight(m, it->feature);
        it->count = feature_count(k, it->feature, e);
        for (int s = 0; s < nseeds; s++) out->seed_count[(size_t)i * (size_t)nseeds + (size_t)s] = feature_count(k, it->feature, seeds[s]);
    }
    free(acc);
    free(sharing);
}

void ties_explain(const ties *t, int64_t e, const int64_t *seeds, int nseeds, int limit, ties_result *out) {
    ties_rank(engine_model(t->g), &engine_index(t->g)->counts, e, seeds, nseeds, limit, out);
    describe(t, e, out->items, out->n);
}

/* x_e[f] of e's profile (fe/ve ascending, n of them), 0 when absent. */
static float profile_value(const int32_t *fe, const float *ve, int64_t n, int32_t f) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (fe[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && fe[lo] == f ? ve[lo] : 0;
}

void ties_missing(const ties *t, int64_t e, const int64_t *members, int nmembers, const seedfeat_opts *o,
                  const seedfeat_set *others, const seedfeat_set *rejected, int limit, ties_result *out, int *held) {
    const pattern_model *m = engine_model(t->g);
    const pattern_counts *k = &engine_index(t->g)->counts;
    memset(out, 0, sizeof *out);
    out->nseeds = nmembers;
    *held = 0;
    int32_t *feat = xmalloc(sizeof(int32_t) * (size_t)o->top);
    double *score = xmalloc(sizeof(double) * (size_t)o->top);
    int nsel = seedfeat_select(m, &(seedfeat_set){members, nmembers}, others, rejected, o, feat, score);
    out->shared = nsel;
    const int32_t *fe;
    const float *ve;
    double ne;
    int64_t n = pattern_model_profile(m, e, &fe, &ve, &ne);
    out->items = xcalloc((size_t)(limit < nsel ? limit : nsel) + 1, sizeof *out->items);
    for (int i = 0; i < nsel; i++) {
        if (profile_value(fe, ve, n, feat[i]) > 0) { (*held)++; continue; }
        if (out->n < limit)
            out->items[out->n++] = (tie){.feature = feat[i], .kind = pattern_key_kind(k->key[feat[i]]),
                                         .weight = pattern_model_feature_weight(m, feat[i]), .contribution = score[i]};
    }
    out->seed_count = xmalloc(sizeof(int64_t) * ((size_t)out->n * (size_t)nmembers + 1));
    for (int s = 0; s < nmembers; s++) {
        const int32_t *fs;
        const float *vs;
        double ns;
        int64_t len = pattern_model_profile(m, members[s], &fs, &vs, &ns);
        for (int i = 0; i < out->n; i++) {
            tie *it = &out->items[i];
            it->seeds_sharing += profile_value(fs, vs, len, (int32_t)it->feature) > 0;
            out->seed_count[(size_t)i * (size_t)nmembers + (size_t)s] = feature_count(k, it->feature, members[s]);
        }
        describe(t, members[s], out->items, out->n); /* what this member's samples show */
    }
    free(feat);
    free(score);
}

void ties_shared_counts(const pattern_model *m, const int64_t *members, int nmembers, const int64_t *rows, int nrows,
                        int64_t *all, int64_t *any) {
    intmap slot; /* feature -> its place in holders[] */
    intmap_init(&slot);
    int64_t cap = 1024, nf = 0;
    int *holders = xmalloc(sizeof(int) * (size_t)cap); /* members holding each feature seen */
    for (int s = 0; s < nmembers; s++) {
        const int32_t *fs;
        const float *vs;
        double ns;
        int64_t len = pattern_model_profile(m, members[s], &fs, &vs, &ns);
        for (int64_t j = 0; j < len; j++) {
            if (!(vs[j] > 0)) continue;
            int64_t at = intmap_put(&slot, fs[j], nf);
            if (at < 0) {
                if (nf == cap) holders = xrealloc(holders, sizeof(int) * (size_t)(cap *= 2));
                holders[at = nf++] = 0;
            }
            holders[at]++;
        }
    }
    for (int i = 0; i < nrows; i++) {
        const int32_t *fe;
        const float *ve;
        double ne;
        int64_t len = pattern_model_profile(m, rows[i], &fe, &ve, &ne);
        all[i] = any[i] = 0;
        for (int64_t j = 0; j < len; j++) {
            int64_t at = ve[j] > 0 ? intmap_get(&slot, fe[j]) : -1;
            if (at < 0) continue;
            any[i]++;
            all[i] += holders[at] == nmembers;
        }
    }
    free(holders);
    intmap_free(&slot);
}

void ties_result_free(ties_result *r) {
    free(r->items);
    free(r->seed_count);
    memset(r, 0, sizeof *r);
}
