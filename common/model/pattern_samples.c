/* pattern_samples: the pattern model's view of a samples artifact. */
#include "model/pattern_samples.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"
#include "model/coordination.h"
#include "model/name_head.h"
#include "text/wordpiece.h"

void pattern_genus_vocab(const samples *s, genus_vocab *v) {
    int32_t n = samples_vocab_size(s);
    const char **tokens = xmalloc(sizeof(char *) * ((size_t)n + 1));
    for (int32_t i = 0; i < n; i++) tokens[i] = samples_vocab_token(s, i);
    genus_vocab_init(v, tokens, n);
    free(tokens);
}

/* The class nouns around the mention at ids[p] alone, and its title. */
static void own_heads(const genus_vocab *v, const int32_t *ids, int len, int p, pattern_sample *out) {
    out->nheads = hearst_span_heads(v, ids, p, ids, len, p, out->heads);
    if (out->nheads < HEAD_WORDS) out->nheads += hearst_title(v, ids, p, out->heads[out->nheads]);
}

void pattern_sample_read(const samples *s, const genus_vocab *v, int64_t j, int32_t *ids, pattern_sample *out) {
    int len = samples_tokens(s, j, ids), p = samples_mask_pos(s, j);
    out->entity = samples_entity(s, j);
    for (int i = 0; i < PATTERN_SIDE; i++) {
        out->left[i] = p - 1 - i >= 0 ? ids[p - 1 - i] : PATTERN_OUTSIDE;
        out->right[i] = p + 1 + i < len ? ids[p + 1 + i] : PATTERN_OUTSIDE;
    }
    out->ngenus = definition_genus(v, ids, len, p, out->genus, out->differentia, &out->ndifferentia);
    out->nlisted = 0;
    own_heads(v, ids, len, p, out);
    for (int i = 0; i < GENUS_PIECES; i++) out->name[i] = -1;
    out->nname = 0;
    out->titles = NULL;
    out->ntitles = 0;
    out->located = 0;
    out->located_in = -1;
}

/* Each entity's name head and titles (contract in pattern_samples.h). */
void pattern_name_heads(const samples *s, const genus_vocab *gv, int32_t (*name)[GENUS_PIECES],
                        int32_t (*title)[NAME_TITLES][GENUS_PIECES], int *ntitle) {
    int32_t n = samples_vocab_size(s);
    int64_t E = samples_entities(s);
    char **tokens = xmalloc(sizeof(char *) * ((size_t)n + 1));
    for (int32_t i = 0; i < n; i++) tokens[i] = (char *)samples_vocab_token(s, i);
    wp_vocab wv;
    wp_vocab_from_tokens(&wv, tokens, n);
    wp_ids *ids = xcalloc((size_t)E + 1, sizeof *ids);
    intmap by_name;
    intmap_init(&by_name);
    for (int64_t e = 0; e < E; e++) {
        const char *text = samples_name(s, e);
        size_t bad;
        if (wp_encode(&wv, text, strlen(text), 0, &ids[e], &bad, NULL) < 0) ids[e].n = 0;
        if (!name_head(gv, ids[e].id, (int)ids[e].n, name[e]))
            for (int i = 0; i < GENUS_PIECES; i++) name[e][i] = -1;
        if (ids[e].n) intmap_put(&by_name, (int64_t)hash_bytes(ids[e].id, sizeof(int32_t) * ids[e].n), e);
        ntitle[e] = 0;
    }
    for (int64_t f = 0; f < E; f++) {
        int len = (int)ids[f].n;
        for (int p = 1; p < len; p++) { /* f's name = words before p + the name of e */
            if (!strncmp(tokens[ids[f].id[p]], "##", 2)) continue;
            int64_t e = intmap_get(&by_name, (int64_t)hash_bytes(ids[f].id + p, sizeof(int32_t) * (size_t)(len - p)));
            if (e < 0 || e == f || (int)ids[e].n != len - p || memcmp(ids[e].id, ids[f].id + p, sizeof(int32_t) * (size_t)(len - p)))
                continue; /* none, itself, or a hash collision */
            ntitle[e] = name_titles_add(gv, ids[f].id, p, title[e], ntitle[e], NAME_TITLES);
        }
    }
    for (int64_t e = 0; e < E; e++) wp_ids_free(&ids[e]);
    free(ids);
    intmap_free(&by_name);
    free(tokens);
    wp_vocab_free(&wv);
}

/* Sample order by sentence, then by mask position. */
typedef struct {
    int64_t sentence, j;
    int mask;
} sentence_key;

static int by_sentence(const void *a, const void *b) {
    const sentence_key *p = a, *q = b;
    if (p->sentence != q->sentence) return p->sentence < q->sentence ? -1 : 1;
    if (p->mask != q->mask) return p->mask < q->mask ? -1 : 1;
    return (p->j > q->j) - (p->j < q->j);
}

/* The lists and locations of one sentence's n mentions (keys, their tokens in tok) and the
 * patterns around each list into ps. */
static void sentence_signals(const genus_vocab *v, const sentence_key *key, sentence_mention *m, int n,
                             int *first, int *last, int *located, pattern_sample *ps) {
    coordination_lists(v, m, n, first, last);
    coordination_located(v, m, n, first, last, located);
    for (int i = 0; i < n; i++) {
        ps[key[i].j].located = located[i];
        if (coordination_pair(v, m, n, located, i))
            ps[key[i].j].located_in = (int32_t)ps[key[i + 1].j].entity;
    }
    for (int i = 0; i < n; i++) {
        if (first[i] == last[i]) continue;
        pattern_sample *out = &ps[key[i].j];
        int lo = first[i], hi = last[i]; /* the LIST_MEMBERS members nearest to i */
        if (hi - lo + 1 > LIST_MEMBERS) {
            lo = i - LIST_MEMBERS / 2 < lo ? lo : i - LIST_MEMBERS / 2;
            if (lo + LIST_MEMBERS - 1 > hi) lo = hi - LIST_MEMBERS + 1;
            hi = lo + LIST_MEMBERS - 1;
        }
        out->nlisted = 0;
        for (int k = lo; k <= hi; k++) out->listed[out->nlisted++] = (int32_t)ps[key[k].j].entity;
        const sentence_mention *f = &m[first[i]], *l = &m[last[i]];
        out->nheads = hearst_span_heads(v, f->ids, f->mask, l->ids, l->len, l->mask, out->heads);
        if (out->nheads < HEAD_WORDS) out->nheads += hearst_title(v, m[i].ids, m[i].mask, out->heads[out->nheads]);
    }
}

pattern_sample *pattern_samples_read(const samples *s) {
    int64_t S = samples_count(s), E = samples_entities(s);
    int maxlen = samples_max_length(s);
    /* the samples, then their entities' titles, in one block (the caller frees ps) */
    pattern_sample *ps = xmalloc(sizeof(pattern_sample) * (size_t)(S + 1) + sizeof(int32_t[NAME_TITLES][GENUS_PIECES]) * (size_t)(E + 1));
    int32_t(*title)[NAME_TITLES][GENUS_PIECES] = (void *)(ps + S + 1);
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)maxlen);
    genus_vocab v;
    pattern_genus_vocab(s, &v);
    int32_t(*name)[GENUS_PIECES] = xmalloc(sizeof *name * (size_t)(E + 1));
    int *ntitle = xmalloc(sizeof(int) * (size_t)(E + 1));
    pattern_name_heads(s, &v, name, title, ntitle);
    sentence_key *key = xmalloc(sizeof *key * (size_t)(S + 1));
    for (int64_t j = 0; j < S; j++) {
        pattern_sample_read(s, &v, j, ids, &ps[j]);
        memcpy(ps[j].name, name[ps[j].entity], sizeof name[0]);
        ps[j].nname = name[ps[j].entity][0] >= 0;
        ps[j].titles = (const int32_t(*)[GENUS_PIECES])title[ps[j].entity];
        ps[j].ntitles = ntitle[ps[j].entity];
        key[j] = (sentence_key){samples_sentence(s, j), j, samples_mask_pos(s, j)};
    }
    qsort(key, (size_t)S, sizeof *key, by_sentence);
    /* one sentence's mentions at a time: their tokens side by side in tok */
    int cap = 0;
    int32_t *tok = NULL;
    sentence_mention *m = NULL;
    int *first = NULL, *last = NULL, *located = NULL;
    for (int64_t a = 0, b; a < S; a = b) {
        for (b = a + 1; b < S && key[b].sentence == key[a].sentence; b++) {}
        int n = (int)(b - a);
        if (n < 2) continue;
        if (n > cap) {
            cap = 2 * n;
            tok = xrealloc(tok, sizeof(int32_t) * (size_t)cap * (size_t)maxlen);
            m = xrealloc(m, sizeof *m * (size_t)cap);
            first = xrealloc(first, sizeof(int) * (size_t)cap);
            last = xrealloc(last, sizeof(int) * (size_t)cap);
            located = xrealloc(located, sizeof(int) * (size_t)cap);
        }
        for (int i = 0; i < n; i++) {
            int32_t *t = tok + (size_t)i * (size_t)maxlen;
            m[i] = (sentence_mention){t, samples_tokens(s, key[a + i].j, t), key[a + i].mask};
        }
        sentence_signals(&v, key + a, m, n, first, last, located, ps);
    }
    free(tok);
    free(m);
    free(first);
    free(last);
    free(located);
    free(key);
    free(name);
    free(ntitle);
    genus_vocab_free(&v);
    free(ids);
    return ps;
}
