/* feature_text: the words behind a feature of the corpus index (contract in feature_text.h). */
#include "model/feature_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/samples.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "format/artifact.h"
#include "model/pattern_samples.h"

struct feature_text {
    const corpus_index *x;
    samples *s;
    genus_vocab genus;
    /* [E] each entity's name head and the titles of its name, ntitle[E] of them
     * (pattern_name_heads); NULL when the index has no name or list features */
    int32_t (*name)[GENUS_PIECES];
    int32_t (*title)[NAME_TITLES][GENUS_PIECES];
    int *ntitle;
};

feature_text *feature_text_open(const corpus_index *x, const char *samples_path) {
    char sha[65];
    file_sha256_hex(samples_path, sha);
    if (strcmp(sha, x->samples_sha256))
        die_input(samples_path, NULL, "not the samples artifact %s was built from (sha256 %.12s…, expected %.12s…)",
                  x->path, sha, x->samples_sha256);
    feature_text *t = xcalloc(1, sizeof *t);
    t->x = x;
    t->s = samples_open(samples_path);
    pattern_genus_vocab(t->s, &t->genus);
    if (samples_entities(t->s) != x->ent.n || samples_count(t->s) != x->samples)
        die_input(samples_path, NULL, "%lld entities / %lld samples, but %s has %lld / %lld",
                  (long long)samples_entities(t->s), (long long)samples_count(t->s), x->path, (long long)x->ent.n,
                  (long long)x->samples);
    if (x->cfg.name_weight > 0 || x->cfg.list_weight > 0) { /* the features that read names (titles: list weight) */
        size_t E = (size_t)x->ent.n + 1;
        t->name = xmalloc(sizeof *t->name * E);
        t->title = xmalloc(sizeof *t->title * E);
        t->ntitle = xmalloc(sizeof *t->ntitle * E);
        pattern_name_heads(t->s, &t->genus, t->name, t->title, t->ntitle);
    }
    return t;
}

void feature_text_close(feature_text *t) {
    if (!t) return;
    samples_close(t->s);
    genus_vocab_free(&t->genus);
    free(t->name);
    free(t->title);
    free(t->ntitle);
    free(t);
}

/* Appends one id's text; wordpieces starting with "##" glue to what precedes them, and one that
 * starts the text reads "…piece" (the end of a word). */
static void append_id(const samples *s, int32_t id, char *text, size_t *len) {
    const char *tok = id == PATTERN_OUTSIDE ? "∅" : id >= 0 && id < samples_vocab_size(s) ? samples_vocab_token(s, id) : "?";
    int piece = !strncmp(tok, "##", 2) && tok[2];
    if (piece) tok += 2;
    int k = snprintf(text + *len, FEATURE_TEXT - *len, "%s%s", *len ? (piece ? "" : " ") : piece ? "…" : "", tok);
    *len = k < 0 ? *len : *len + (size_t)k >= FEATURE_TEXT ? FEATURE_TEXT - 1 : *len + (size_t)k;
}

static void describe(const samples *s, const pattern_feature *d, char *text) {
    size_t len = 0;
    text[0] = 0;
    if (d->kind == PATTERN_BAG) {
        append_id(s, d->word, text, &len);
        return;
    }
    if (d->kind == PATTERN_GENUS || d->kind == PATTERN_DIFFERENTIA || d->kind == PATTERN_HEAD) { /* list and name features are not one sample's */
        for (int i = 0; i < GENUS_PIECES && d->genus_word[i] >= 0; i++) append_id(s, d->genus_word[i], text, &len);
        return;
    }
    for (int i = d->nl - 1; i >= 0; i--) append_id(s, d->left[i], text, &len);
    int k = snprintf(text + len, FEATURE_TEXT - len, "%s_", len ? " " : "");
    len = len + (size_t)k >= FEATURE_TEXT ? FEATURE_TEXT - 1 : len + (size_t)k;
    for (int i = 0; i < d->nr; i++) append_id(s, d->right[i], text, &len);
}

/* Sets text[i] of the feature with this key when it is wanted and still without text. */
static int64_t wanted(const intmap *want, char (*text)[FEATURE_TEXT], uint64_t key) {
    int64_t i = intmap_get(want, (int64_t)key);
    return i >= 0 && !text[i][0] ? i : -1;
}

/* The features of entity row e that come from its sentences' lists and locations and from its
 * name, not from one sample: "with NAME" (listed with that entity), "_ , NAME" and "NAME , _"
 * (the location features), "title: WORD" and "name: WORD"; returns how many were found. An
 * index without list and name features (a glossary's) has none of them. */
static int64_t describe_entity_features(const feature_text *t, int64_t e, const intmap *want, char (*text)[FEATURE_TEXT]) {
    int64_t i, found = 0;
    if (!t->name) return 0;
    for (int after = 0; after < 2; after++)
        if ((i = wanted(want, text, pattern_located_key(after))) >= 0) {
            snprintf(text[i], FEATURE_TEXT, after ? "NAME , _" : "_ , NAME");
            found++;
        }
    for (int k = -1; k < t->ntitle[e]; k++) {
        const int32_t *w = k < 0 ? t->name[e] : t->title[e][k];
        if (w[0] < 0 || (i = wanted(want, text, k < 0 ? pattern_name_key(w) : pattern_title_key(w))) < 0) continue;
        size_t len = (size_t)snprintf(text[i], FEATURE_TEXT, "%s:", k < 0 ? "name" : "title");
        for (int p = 0; p < GENUS_PIECES && w[p] >= 0; p++) append_id(t->s, w[p], text[i], &len);
        found++;
    }
    for (int64_t r = 0; t->x->cfg.list_weight > 0 && r < t->x->ent.n; r++)
        if ((i = wanted(want, text, pattern_list_key((int32_t)r))) >= 0) {
            snprintf(text[i], FEATURE_TEXT, "with %s", t->x->ent.name[r]);
            found++;
        }
    return found;
}

void feature_text_find(const feature_text *t, int64_t e, const int64_t *feats, int n, char (*text)[FEATURE_TEXT]) {
    intmap want; /* feature key -> position in feats */
    intmap_init(&want);
    for (int i = 0; i < n; i++) {
        text[i][0] = 0;
        intmap_put(&want, (int64_t)t->x->counts.key[feats[i]], i);
    }
    int64_t first, count, found = 0;
    samples_range(t->s, e, &first, &count);
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)samples_max_length(t->s));
    pattern_feature d[PATTERN_MAX];
    for (int64_t j = first; j < first + count && found < n; j++) {
        pattern_sample ps;
        pattern_sample_read(t->s, &t->genus, j, ids, &ps);
        int nf = pattern_sample_features(&ps, &t->x->cfg, d);
        for (int k = 0; k < nf; k++) {
            int64_t i = wanted(&want, text, d[k].key);
            if (i < 0) continue;
            describe(t->s, &d[k], text[i]);
            found++;
        }
    }
    if (found < n) describe_entity_features(t, e, &want, text);
    free(ids);
    intmap_free(&want);
}
