/* ties: the context features that tie an entity to a seed set (contract in ties.h). */
#include "serve/ties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/samples.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "format/artifact.h"
#include "model/pattern_samples.h"

struct ties {
    const engine *g;
    samples *s;
    genus_vocab genus;
};

ties *ties_open(const engine *g, const char *samples_path) {
    const corpus_index *x = engine_index(g);
    char sha[65];
    file_sha256_hex(samples_path, sha);
    if (strcmp(sha, x->samples_sha256))
        die_input(samples_path, NULL, "not the samples artifact %s was built from (sha256 %.12s…, expected %.12s…)",
                  x->path, sha, x->samples_sha256);
    ties *t = xcalloc(1, sizeof *t);
    t->g = g;
    t->s = samples_open(samples_path);
    pattern_genus_vocab(t->s, &t->genus);
    if (samples_entities(t->s) != x->ent.n || samples_count(t->s) != x->samples)
        die_input(samples_path, NULL, "%lld entities / %lld samples, but %s has %lld / %lld",
                  (long long)samples_entities(t->s), (long long)samples_count(t->s), x->path, (long long)x->ent.n,
                  (long long)x->samples);
    return t;
}

void ties_free(ties *t) {
    if (!t) return;
    samples_close(t->s);
    genus_vocab_free(&t->genus);
    free(t);
}

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

/* Appends one id's text; wordpieces starting with "##" glue to what precedes them. */
static void append_id(const samples *s, int32_t id, char *text, size_t *len) {
    const char *tok = id == PATTERN_OUTSIDE ? "∅" : id >= 0 && id < samples_vocab_size(s) ? samples_vocab_token(s, id) : "?";
    int glue = *len > 0 && !strncmp(tok, "##", 2) && tok[2];
    if (glue) tok += 2;
    int k = snprintf(text + *len, TIES_TEXT - *len, "%s%s", *len && !glue ? " " : "", tok);
    *len = k < 0 ? *len : *len + (size_t)k >= TIES_TEXT ? TIES_TEXT - 1 : *len + (size_t)k;
}

static void feature_text(const samples *s, const pattern_feature *d, char *text) {
    size_t len = 0;
    text[0] = 0;
    if (d->kind == PATTERN_BAG) {
        append_id(s, d->word, text, &len);
        return;
    }
    if (d->kind == PATTERN_GENUS || d->kind == PATTERN_HEAD) { /* list and name features are not one sample's */
        for (int i = 0; i < GENUS_PIECES && d->genus_word[i] >= 0; i++) append_id(s, d->genus_word[i], text, &len);
        return;
    }
    for (int i = d->nl - 1; i >= 0; i--) append_id(s, d->left[i], text, &len);
    int k = snprintf(text + len, TIES_TEXT - len, "%s_", len ? " " : "");
    len = len + (size_t)k >= TIES_TEXT ? TIES_TEXT - 1 : len + (size_t)k;
    for (int i = 0; i < d->nr; i++) append_id(s, d->right[i], text, &len);
}

/* The text of items[0..n-1] from e's own samples (each feature of e's profile shows in one). */
static void describe(const ties *t, int64_t e, tie *items, int n) {
    const corpus_index *x = engine_index(t->g);
    intmap want; /* feature key -> item */
    intmap_init(&want);
    for (int i = 0; i < n; i++) intmap_put(&want, (int64_t)x->counts.key[items[i].feature], i);
    int64_t first, count, found = 0;
    samples_range(t->s, e, &first, &count);
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)samples_max_length(t->s));
    pattern_feature d[PATTERN_MAX];
    for (int64_t j = first; j < first + count && found < n; j++) {
        pattern_sample ps;
        pattern_sample_read(t->s, &t->genus, j, ids, &ps);
        int nf = pattern_sample_features(&ps, &x->cfg, d);
        for (int k = 0; k < nf; k++) {
            int64_t i = intmap_get(&want, (int64_t)d[k].key);
            if (i < 0 || items[i].text[0]) continue;
            feature_text(t->s, &d[k], items[i].text);
            found++;
        }
    }
    free(ids);
    intmap_free(&want);
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

void ties_result_free(ties_result *r) {
    free(r->items);
    free(r->seed_count);
    memset(r, 0, sizeof *r);
}
