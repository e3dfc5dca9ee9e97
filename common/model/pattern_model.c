/* pattern_model: entity distributions from context-feature counts — the similarity and
 * prediction estimators of pattern_model.h (see there for the formulas). */
#include "model/pattern_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/adamw.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/budget.h"
#include "base/parallel.h"
#include "base/sort.h"
#include "model/coordination.h"

#define PATTERN_EPS 1e-7
#define BAG_TYPE 99
#define GENUS_TYPE 98
#define LIST_TYPE 97
#define HEAD_TYPE 96
#define NAME_TYPE 95
#define LOCATED_TYPE 94
#define LOCATES_TYPE 93
#define TITLE_TYPE 92
#define DIFFERENTIA_TYPE 91

struct pattern_model {
    pattern_config cfg;
    int64_t E, S, F;
    /* feature f: entities list_ent[foff[f] .. foff[f+1]) with counts list_cnt, total count[f] */
    int64_t *foff, *count;
    int32_t *list_ent;
    float *list_cnt, *weight;
    /* prediction only: samples by entity, sample_of[eoff[e] .. eoff[e+1]); feats[j * PATTERN_MAX
     * + k] (-1 = none) */
    int64_t *eoff, *sample_of;
    int32_t *feats;
    /* similarity: x_e[f] per pair (feature-major, parallel to list_ent) and entity-major
     * (entity e: prof_feat/prof_val[poff[e] .. poff[e+1])), |x_e| */
    float *pair_x, *prof_val;
    int64_t *poff;
    int32_t *prof_feat;
    double *norm;
    /* prediction: m[v]^-prior_power */
    double *prior_scale;
    int fitted;
    pattern_refinement *ref; /* pattern_model_contrast's, used by pattern_model_rows */
    double *acc; /* prediction: one E-vector per thread */
    int nacc;
    pattern_scratch *scratch[PARALLEL_MAX_THREADS]; /* similarity rows: one per thread */
    pattern_stats st;
    double *shrink; /* similarity with evidence k > 0: [E] n_e / (n_e + k); NULL = none */
};

double pattern_config_resolve(pattern_config *c, int64_t S, const pattern_sample *samples) {
    int64_t subjects = 0;
    for (int64_t j = 0; j < S; j++) subjects += samples[j].ngenus > 0;
    double share = S > 0 ? (double)subjects / (double)S : 0;
    int glossary = share >= PATTERN_GLOSSARY_SHARE;
    if (c->list_weight < 0) c->list_weight = glossary ? 0 : 2;
    if (c->evidence < 0) c->evidence = glossary ? 0 : 0.5;
    if (c->differentia_weight < 0) c->differentia_weight = glossary ? PATTERN_GLOSSARY_DIFFERENTIA : 0;
    return share;
}

/* The key of a feature of kind k (genus, differentia, list, head, name: 2 mod 4) made of
 * v[0..n) (v[0]: the kind's type); see TAGGED_PATTERN. */
static uint64_t tagged_key(const int32_t *v, size_t n, pattern_kind k) {
    uint64_t h = hash_bytes(v, n * sizeof *v);
    if (k == PATTERN_GENUS) return (h & ~3ULL) | 2;
    uint64_t tag = k == PATTERN_DIFFERENTIA ? 0 : k == PATTERN_LIST ? 1 : k == PATTERN_HEAD ? 2 : 3;
    return (h & ~(TAGGED_FIELD << 2 | 3ULL)) | (TAGGED_PATTERN | tag) << 2 | 2;
}

uint64_t pattern_list_key(int32_t row) {
    int32_t v[2] = {LIST_TYPE, row};
    return tagged_key(v, 2, PATTERN_LIST);
}

uint64_t pattern_located_key(int after) {
    int32_t v[1] = {after ? LOCATES_TYPE : LOCATED_TYPE};
    return tagged_key(v, 1, PATTERN_LIST);
}

/* The key of a word feature (genus, differentia, head, name, title) of pieces w. */
static uint64_t word_key(const int32_t w[GENUS_PIECES], int type, pattern_kind kind) {
    int32_t v[1 + GENUS_PIECES] = {type};
    memcpy(v + 1, w, sizeof(int32_t) * GENUS_PIECES);
    return tagged_key(v, 1 + GENUS_PIECES, kind);
}

uint64_t pattern_name_key(const int32_t w[GENUS_PIECES]) { return word_key(w, NAME_TYPE, PATTERN_NAME); }
uint64_t pattern_title_key(const int32_t w[GENUS_PIECES]) { return word_key(w, TITLE_TYPE, PATTERN_LIST); }

/* Appends the word feature (genus, differentia, head or name) of pieces w as feature n; returns n + 1. */
static int word_feature(const int32_t w[GENUS_PIECES], int type, pattern_kind kind, uint64_t *key,
                        pattern_feature *desc, int n) {
    key[n] = word_key(w, type, kind);
    if (desc) {
        desc[n] = (pattern_feature){.key = key[n], .kind = kind};
        memcpy(desc[n].genus_word, w, sizeof(int32_t) * GENUS_PIECES);
    }
    return n + 1;
}

static const struct { int8_t nl, nr; } ngram_shape[PATTERN_NGRAMS] = {{1, 0}, {0, 1}, {1, 1}, {2, 0}, {0, 2},
                                                                     {2, 1}, {1, 2}, {3, 0}, {0, 3}};

/* The features of a sample as 64-bit keys; returns how many. With desc, also what each is. */
static int sample_features(const pattern_sample *s, const pattern_config *c, uint64_t *key, pattern_feature *desc) {
    const int32_t *l = s->left, *r = s->right;
    int n = c->long_patterns ? PATTERN_NGRAMS : 5;
    for (int k = 0; k < n; k++) {
        int32_t v[7] = {k};
        for (int i = 0; i < ngram_shape[k].nl; i++) v[1 + i] = l[i];
        for (int i = 0; i < ngram_shape[k].nr; i++) v[4 + i] = r[i];
        key[k] = hash_bytes(v, sizeof v) | 1;
        if (desc) {
            desc[k] = (pattern_feature){.key = key[k], .kind = PATTERN_NGRAM, .nl = ngram_shape[k].nl, .nr = ngram_shape[k].nr};
            memcpy(desc[k].left, v + 1, sizeof desc[k].left);
            memcpy(desc[k].right, v + 4, sizeof desc[k].right);
        }
    }
    for (int i = 0; i < c->bag; i++) {
        for (int side = 0; side < 2; side++) {
            int32_t v[2] = {BAG_TYPE, side ? r[i] : l[i]};
            if (v[1] == PATTERN_OUTSIDE) continue;
            key[n] = hash_bytes(v, sizeof v) & ~3ULL;
            if (desc) desc[n] = (pattern_feature){.key = key[n], .kind = PATTERN_BAG, .word = v[1]};
            n++;
        }
    }
    for (int i = 0; c->genus_weight > 0 && i < s->ngenus; i++) n = word_feature(s->genus[i], GENUS_TYPE, PATTERN_GENUS, key, desc, n);
    for (int i = 0; c->differentia_weight > 0 && i < s->ndifferentia; i++)
        n = word_feature(s->differentia[i], DIFFERENTIA_TYPE, PATTERN_DIFFERENTIA, key, desc, n);
    for (int i = 0; c->list_weight > 0 && i < s->nlisted && i < LIST_MEMBERS; i++) {
        key[n] = pattern_list_key(s->listed[i]);
        if (desc) desc[n] = (pattern_feature){.key = key[n], .kind = PATTERN_LIST, .entity = s->listed[i]};
        n++;
    }
    for (int i = 0; c->head_weight > 0 && i < s->nheads && i < HEAD_WORDS; i++) n = word_feature(s->heads[i], HEAD_TYPE, PATTERN_HEAD, key, desc, n);
    if (c->name_weight > 0 && s->nname) n = word_feature(s->name, NAME_TYPE, PATTERN_NAME, key, desc, n);
    for (int side = 0; c->list_weight > 0 && side < 2; side++) {
        if (!(s->located & (side ? LOCATED_AFTER : LOCATED_BEFORE))) continue;
        key[n] = pattern_located_key(side);
        if (desc) desc[n] = (pattern_feature){.key = key[n], .kind = PATTERN_LIST, .entity = -1 - side};
        n++;
    }
    for (int i = 0; c->list_weight > 0 && i < s->ntitles; i++) {
        n = word_feature(s->titles[i], TITLE_TYPE, PATTERN_LIST, key, desc, n);
        if (desc) desc[n - 1].entity = -3;
    }
    return n;
}

int pattern_sample_features(const pattern_sample *s, const pattern_config *c, pattern_feature *out) {
    uint64_t key[PATTERN_MAX];
    return sample_features(s, c, key, out);
}

/* Keeps a feature in the seeded subset of size ~fraction. */
static int in_subset(uint64_t key, const pattern_config *c) {
    if (c->feature_fraction >= 1) return 1;
    uint64_t h[2] = {key, c->seed};
    return (double)(hash_bytes(h, sizeof h) >> 11) * 0x1p-53 < c->feature_fraction;
}

static void check_config(const pattern_config *c) {
    char err[200];
    if (!pattern_config_check(c, err, sizeof err)) die("pattern_model: %s", err);
}

/* The rank of an MPI job that counts a feature (every feature has one owner). */
static int feature_owner(uint64_t key, int ranks) { return (int)((key >> 17) % (uint64_t)ranks); }

/* Provisional feature ids of every sample (-1 = none) into feats[S * PATTERN_MAX], numbered
 * in order of first occurrence; returns how many, with each one's key and the position
 * j * PATTERN_MAX + k of its first occurrence. Only features owned by `rank` of `ranks`
 * (feature_owner) get an id. */
static int64_t provisional_features(const pattern_config *c, int64_t E, int64_t S, const pattern_sample *samples,
                                    int rank, int ranks, int32_t *feats, uint64_t **keys_out, int64_t **first_out) {
    intmap ids;
    intmap_init(&ids);
    int64_t nprov = 0, cap = 0, *first = NULL;
    uint64_t *keys = NULL;
    for (int64_t j = 0; j < S; j++) {
        if (samples[j].entity < 0 || samples[j].entity >= E) die("pattern_model: sample %lld has entity %lld outside 0..%lld",
                                                                 (long long)j, (long long)samples[j].entity, (long long)E - 1);
        uint64_t key[PATTERN_MAX];
        int n = sample_features(&samples[j], c, key, NULL);
        for (int k = 0; k < PATTERN_MAX; k++) {
            int32_t id = -1;
            if (k < n && (ranks == 1 || feature_owner(key[k], ranks) == rank)) {
                int64_t old = intmap_put(&ids, (int64_t)key[k], nprov);
                id = (int32_t)(old < 0 ? nprov++ : old);
                if (old < 0) {
                    if (nprov > cap) {
                        cap = 2 * nprov;
                        keys = xrealloc(keys, sizeof(uint64_t) * (size_t)cap);
                        first = xrealloc(first, sizeof(int64_t) * (size_t)cap);
                    }
                    keys[nprov - 1] = key[k];
                    first[nprov - 1] = j * PATTERN_MAX + k;
                }
            }
            feats[j * PATTERN_MAX + k] = id;
        }
    }
    intmap_free(&ids);
    *keys_out = keys;
    *first_out = first;
    return nprov;
}

/* Counts of the features owned by `rank` of `ranks`, with the per-sample feature ids
 * renumbered to the kept features (-1: dropped); first_kept (or NULL): malloc'd first
 * occurrence of each kept feature. */
static void counts_of_samples(pattern_counts *k, const pattern_config *c, int64_t E, int64_t S,
                              const pattern_sample *samples, int rank, int ranks, int32_t *feats,
                              int64_t **first_kept) {
    uint64_t *keys;
    int64_t *first;
    int64_t nprov = provisional_features(c, E, S, samples, rank, ranks, feats, &keys, &first);
    /* (feature, entity) occurrences, sorted: runs give the counts */
    uint64_t *occ = xmalloc(sizeof(uint64_t) * (size_t)(S * PATTERN_MAX + 1));
    int64_t nocc = 0;
    for (int64_t j = 0; j < S; j++)
        for (int q = 0; q < PATTERN_MAX; q++)
            if (feats[j * PATTERN_MAX + q] >= 0)
                occ[nocc++] = (uint64_t)feats[j * PATTERN_MAX + q] * (uint64_t)E + (uint64_t)samples[j].entity;
    qsort(occ, (size_t)nocc, sizeof *occ, cmp_u64);
    int64_t *nent = xcalloc((size_t)nprov + 1, sizeof(int64_t));
    for (int64_t i = 0; i < nocc; i++)
        if (i == 0 || occ[i] != occ[i - 1]) nent[occ[i] / (uint64_t)E]++;
    /* keep features seen with >= min_entities entities; renumber */
    int32_t *final_id = xmalloc(sizeof(int32_t) * (size_t)(nprov + 1));
    k->E = E;
    k->F = 0;
    for (int64_t f = 0; f < nprov; f++) final_id[f] = nent[f] >= c->min_entities ? (int32_t)k->F++ : -1;
    k->key = xmalloc(sizeof(uint64_t) * (size_t)(k->F + 1));
    k->foff = xcalloc((size_t)k->F + 1, sizeof(int64_t));
    if (first_kept) *first_kept = xmalloc(sizeof(int64_t) * (size_t)(k->F + 1));
    for (int64_t f = 0; f < nprov; f++)
        if (final_id[f] >= 0) {
            k->key[final_id[f]] = keys[f];
            k->foff[final_id[f] + 1] = nent[f];
            if (first_kept) (*first_kept)[final_id[f]] = first[f];
        }
    for (int64_t f = 0; f < k->F; f++) k->foff[f + 1] += k->foff[f];
    k->ent = xmalloc(sizeof(int32_t) * (size_t)(k->foff[k->F] + 1));
    k->cnt = xmalloc(sizeof(int32_t) * (size_t)(k->foff[k->F] + 1));
    for (int64_t i = 0, out = 0; i < nocc;) {
        int64_t end = i;
        while (end < nocc && occ[end] == occ[i]) end++;
        if (final_id[occ[i] / (uint64_t)E] >= 0) {
            k->ent[out] = (int32_t)(occ[i] % (uint64_t)E);
            k->cnt[out] = (int32_t)(end - i);
            out++;
        }
        i = end;
    }
    for (int64_t j = 0; j < S * PATTERN_MAX; j++)
        if (feats[j] >= 0) feats[j] = final_id[feats[j]];
    free(occ);
    free(nent);
    free(final_id);
    free(keys);
    free(first);
}

/* One rank's counts travel to rank 0 as: F, pairs, then key[F], first[F], foff[F + 1],
 * ent[pairs], cnt[pairs]. */
static void send_counts(const pattern_counts *k, const int64_t *first) {
    int64_t hdr[2] = {k->F, k->foff[k->F]};
    cluster_send(hdr, sizeof hdr, 0);
    cluster_send(k->key, sizeof(uint64_t) * (size_t)k->F, 0);
    cluster_send(first, sizeof(int64_t) * (size_t)k->F, 0);
    cluster_send(k->foff, sizeof(int64_t) * (size_t)(k->F + 1), 0);
    cluster_send(k->ent, sizeof(int32_t) * (size_t)hdr[1], 0);
    cluster_send(k->cnt, sizeof(int32_t) * (size_t)hdr[1], 0);
}

static void recv_counts(pattern_counts *k, int64_t **first, int from) {
    int64_t hdr[2];
    cluster_recv(hdr, sizeof hdr, from);
    k->F = hdr[0];
    k->key = xmalloc(sizeof(uint64_t) * (size_t)(k->F + 1));
    *first = xmalloc(sizeof(int64_t) * (size_t)(k->F + 1));
    k->foff = xmalloc(sizeof(int64_t) * (size_t)(k->F + 1));
    k->ent = xmalloc(sizeof(int32_t) * (size_t)(hdr[1] + 1));
    k->cnt = xmalloc(sizeof(int32_t) * (size_t)(hdr[1] + 1));
    cluster_recv(k->key, sizeof(uint64_t) * (size_t)k->F, from);
    cluster_recv(*first, sizeof(int64_t) * (size_t)k->F, from);
    cluster_recv(k->foff, sizeof(int64_t) * (size_t)(k->F + 1), from);
    cluster_recv(k->ent, sizeof(int32_t) * (size_t)hdr[1], from);
    cluster_recv(k->cnt, sizeof(int32_t) * (size_t)hdr[1], from);
}

/* Rank 0: the ranks' counts (each rank's features in order of first occurrence) merged in
 * order of first occurrence over the whole corpus — the order one process numbers them in,
 * so the merged counts equal the single-process ones. */
static void merge_counts(pattern_counts *k, pattern_counts *part, int64_t **first, int ranks, int64_t E) {
    int64_t F = 0, P = 0;
    for (int r = 0; r < ranks; r++) F += part[r].F, P += part[r].foff[part[r].F];
    k->E = E;
    k->F = F;
    k->key = xmalloc(sizeof(uint64_t) * (size_t)(F + 1));
    k->foff = xmalloc(sizeof(int64_t) * (size_t)(F + 1));
    k->ent = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    k->cnt = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    int64_t *next = xcalloc((size_t)ranks, sizeof(int64_t));
    k->foff[0] = 0;
    for (int64_t f = 0; f < F; f++) {
        int best = -1;
        for (int r = 0; r < ranks; r++)
            if (next[r] < part[r].F && (best < 0 || first[r][next[r]] < first[best][next[best]])) best = r;
        const pattern_counts *b = &part[best];
        int64_t g = next[best]++, lo = b->foff[g], n = b->foff[g + 1] - lo;
        k->key[f] = b->key[g];
        memcpy(k->ent + k->foff[f], b->ent + lo, sizeof(int32_t) * (size_t)n);
        memcpy(k->cnt + k->foff[f], b->cnt + lo, sizeof(int32_t) * (size_t)n);
        k->foff[f + 1] = k->foff[f] + n;
    }
    free(next);
}

/* The samples of each entity into k->mentions. */
static void count_mentions(pattern_counts *k, int64_t E, int64_t S, const pattern_sample *samples) {
    k->mentions = xcalloc((size_t)E + 1, sizeof(int64_t));
    for (int64_t j = 0; j < S; j++) k->mentions[samples[j].entity]++;
}

void pattern_counts_build(pattern_counts *k, const pattern_config *c, int64_t E, int64_t S, const pattern_sample *samples) {
    check_config(c);
    int R = cluster_size(), rank = cluster_rank();
    int32_t *feats = xmalloc(sizeof(int32_t) * (size_t)(S * PATTERN_MAX + 1));
    if (R == 1) {
        counts_of_samples(k, c, E, S, samples, 0, 1, feats, NULL);
        count_mentions(k, E, S, samples);
        free(feats);
        return;
    }
    pattern_counts *part = xcalloc((size_t)R, sizeof *part);
    int64_t **first = xcalloc((size_t)R, sizeof *first);
    counts_of_samples(&part[rank], c, E, S, samples, rank, R, feats, &first[rank]);
    free(feats);
    memset(k, 0, sizeof *k);
    k->E = E;
    if (rank > 0) {
        send_counts(&part[rank], first[rank]);
    } else {
        for (int r = 1; r < R; r++) recv_counts(&part[r], &first[r], r);
        merge_counts(k, part, first, R, E);
        count_mentions(k, E, S, samples);
    }
    for (int r = 0; r < R; r++) {
        pattern_counts_free(&part[r]);
        free(first[r]);
    }
    free(part);
    free(first);
}

/* The model of config c from counts: the features of c's subset, their weights and postings.
 * feats (may be NULL): per-sample ids of the counts' features, renumbered here to the model's. */
static pattern_model *model_of_counts(const pattern_config *c, const pattern_counts *k, int64_t S, int32_t *feats) {
    check_config(c);
    pattern_model *m = xcalloc(1, sizeof *m);
    m->cfg = *c;
    m->E = k->E;
    m->S = S;
    int32_t *model_id = xmalloc(sizeof(int32_t) * (size_t)(k->F + 1));
    int64_t P = 0;
    for (int64_t f = 0; f < k->F; f++) {
        model_id[f] = in_subset(k->key[f], c) ? (int32_t)m->F++ : -1;
        if (model_id[f] >= 0) P += k->foff[f + 1] - k->foff[f];
    }
    m->foff = xcalloc((size_t)m->F + 1, sizeof(int64_t));
    m->count = xcalloc((size_t)m->F + 1, sizeof(int64_t));
    m->weight = xmalloc(sizeof(float) * (size_t)(m->F + 1));
    m->list_ent = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    m->list_cnt = xmalloc(sizeof(float) * (size_t)(P + 1));
    for (int64_t f = 0, p = 0; f < k->F; f++) {
        int32_t g = model_id[f];
        if (g < 0) continue;
        int64_t nent = k->foff[f + 1] - k->foff[f];
        m->weight[g] = (float)((c->idf_power > 0 ? pow(log((double)k->E / (double)nent), c->idf_power) : 1.0) *
                               pattern_kind_weight(c, pattern_key_kind(k->key[f])));
        for (int64_t q = k->foff[f]; q < k->foff[f + 1]; q++, p++) {
            m->list_ent[p] = k->ent[q];
            m->list_cnt[p] = (float)k->cnt[q];
            m->count[g] += k->cnt[q];
        }
        m->foff[g + 1] = p;
    }
    if (c->evidence > 0 && c->estimator == PATTERN_SIMILARITY) {
        if (!k->mentions) die("pattern_model: evidence needs the counts' mention counts");
        m->shrink = xmalloc(sizeof(double) * (size_t)(k->E + 1));
        for (int64_t e = 0; e < k->E; e++) m->shrink[e] = (double)k->mentions[e] / ((double)k->mentions[e] + c->evidence);
    }
    m->st.features = m->F;
    m->st.pairs = P;
    m->st.samples_unusable = -1;
    if (feats) {
        m->st.samples_unusable = 0;
        for (int64_t j = 0; j < S; j++) {
            int usable = 0;
            for (int q = 0; q < PATTERN_MAX; q++) {
                int32_t *f = &feats[j * PATTERN_MAX + q];
                if (*f >= 0) *f = model_id[*f];
                usable |= *f >= 0 && m->weight[*f] > 0;
            }
            m->st.samples_unusable += !usable;
        }
    }
    free(model_id);
    return m;
}

pattern_model *pattern_model_build(const pattern_config *c, int64_t E, int64_t S, const pattern_sample *samples) {
    check_config(c);
    pattern_counts k;
    int32_t *feats = xmalloc(sizeof(int32_t) * (size_t)(S * PATTERN_MAX + 1));
    counts_of_samples(&k, c, E, S, samples, 0, 1, feats, NULL);
    count_mentions(&k, E, S, samples);
    pattern_model *m = model_of_counts(c, &k, S, feats);
    pattern_counts_free(&k);
    if (c->estimator == PATTERN_SIMILARITY) { /* profiles come from the counts alone */
        free(feats);
        return m;
    }
    /* prediction: samples grouped by entity, in sample order */
    m->feats = feats;
    m->eoff = xcalloc((size_t)E + 1, sizeof(int64_t));
    for (int64_t j = 0; j < S; j++) m->eoff[samples[j].entity + 1]++;
    for (int64_t e = 0; e < E; e++) m->eoff[e + 1] += m->eoff[e];
    int64_t *fill = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    memcpy(fill, m->eoff, sizeof(int64_t) * (size_t)(E + 1));
    m->sample_of = xmalloc(sizeof(int64_t) * (size_t)(S + 1));
    for (int64_t j = 0; j < S; j++) m->sample_of[fill[samples[j].entity]++] = j;
    free(fill);
    return m;
}

pattern_model *pattern_model_from_counts(const pattern_config *c, const pattern_counts *k) {
    if (c->estimator != PATTERN_SIMILARITY) die("pattern_model_from_counts: the similarity estimator only");
    pattern_model *m = model_of_counts(c, k, 0, NULL);
    pattern_model_fit(m);
    return m;
}


int64_t pattern_model_entities(const pattern_model *m) { return m->E; }

void pattern_model_free(pattern_model *m) {
    if (!m) return;
    free(m->foff);
    free(m->count);
    free(m->list_ent);
    free(m->list_cnt);
    free(m->weight);
    free(m->eoff);
    free(m->sample_of);
    free(m->feats);
    free(m->pair_x);
    free(m->prof_val);
    free(m->poff);
    free(m->prof_feat);
    free(m->norm);
    free(m->prior_scale);
    free(m->shrink);
    free(m->acc);
    pattern_refinement_free(m->ref);
    for (int t = 0; t < PARALLEL_MAX_THREADS; t++) pattern_scratch_free(m->scratch[t]);
    free(m);
}

pattern_stats pattern_model_stats(const pattern_model *m) { return m->st; }

static void uniform_row(int64_t E, float *out) {
    for (int64_t v = 0; v < E; v++) out[v] = (float)(1.0 / (double)E);
}

/* ---- similarity ---- */

/* |x_e| of every entity into norm[E] (profile values times w[f] in float when w is given, as
 * folding the weights into the profiles would store them); returns the entities with an empty
 * profile (they get uniform rows). */
static int64_t profile_norms(const pattern_model *m, const float *w, double *norm) {
    int64_t empty = 0;
    for (int64_t e = 0; e < m->E; e++) {
        double n2 = 0;
        for (int64_t q = m->poff[e]; q < m->poff[e + 1]; q++) {
            float x = w ? m->prof_val[q] * w[m->prof_feat[q]] : m->prof_val[q];
            n2 += (double)x * x;
        }
        norm[e] = sqrt(n2);
        empty += norm[e] == 0;
    }
    return empty;
}

/* x_e[f] = w_f max(0, PMI(e, f)) per pair, the entity-major copy and the norms. */
static void fit_profiles(pattern_model *m) {
    int64_t E = m->E, P = m->st.pairs;
    double N = 0, *ce = xcalloc((size_t)E, sizeof(double));
    for (int64_t p = 0; p < P; p++) {
        ce[m->list_ent[p]] += m->list_cnt[p];
        N += m->list_cnt[p];
    }
    m->pair_x = xmalloc(sizeof(float) * (size_t)(P + 1));
    m->poff = xcalloc((size_t)E + 1, sizeof(int64_t));
    for (int64_t f = 0; f < m->F; f++)
        for (int64_t p = m->foff[f]; p < m->foff[f + 1]; p++) {
            double pmi = log(m->list_cnt[p] * N / (ce[m->list_ent[p]] * (double)m->count[f]));
            m->pair_x[p] = pmi > 0 ? (float)(pmi * m->weight[f]) : 0.0f;
            m->poff[m->list_ent[p] + 1]++;
        }
    for (int64_t e = 0; e < E; e++) m->poff[e + 1] += m->poff[e];
    int64_t *fill = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    memcpy(fill, m->poff, sizeof(int64_t) * (size_t)(E + 1));
    m->prof_feat = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    m->prof_val = xmalloc(sizeof(float) * (size_t)(P + 1));
    for (int64_t f = 0; f < m->F; f++)
        for (int64_t p = m->foff[f]; p < m->foff[f + 1]; p++) {
            int64_t e = m->list_ent[p], q = fill[e]++;
            m->prof_feat[q] = (int32_t)f;
            m->prof_val[q] = m->pair_x[p];
        }
    m->norm = xmalloc(sizeof(double) * (size_t)(E + 1));
    m->st.entities_uniform = profile_norms(m, NULL, m->norm);
    free(fill);
    free(ce);
}

int64_t pattern_model_profile(const pattern_model *m, int64_t e, const int32_t **feat, const float **val, double *norm) {
    if (m->cfg.estimator != PATTERN_SIMILARITY || !m->fitted) die("pattern_model_profile: needs the fitted similarity estimator");
    *feat = m->prof_feat + m->poff[e];
    *val = m->prof_val + m->poff[e];
    *norm = m->norm[e];
    return m->poff[e + 1] - m->poff[e];
}

double pattern_model_feature_weight(const pattern_model *m, int64_t f) { return m->weight[f]; }

struct pattern_refinement {
    float *w;      /* [F] exp(u_f) */
    double *norm;  /* [E] |x'_e| */
    int64_t entities_uniform;
};

/* The refinement of m with the weights w (taken over): w and the reweighted profile norms. */
static pattern_refinement *refinement_with(const pattern_model *m, float *w) {
    pattern_refinement *r = xmalloc(sizeof *r);
    r->w = w;
    r->norm = xmalloc(sizeof(double) * (size_t)(m->E + 1));
    r->entities_uniform = profile_norms(m, w, r->norm);
    return r;
}

void pattern_refinement_free(pattern_refinement *r) {
    if (!r) return;
    free(r->w);
    free(r->norm);
    free(r);
}

struct pattern_scratch {
    double *acc;
    int32_t *mark, *list; /* mark[v]: v's slot in list, -1 = not reached */
};

pattern_scratch *pattern_scratch_new(const pattern_model *m) {
    pattern_scratch *s = xmalloc(sizeof *s);
    s->acc = xmalloc(sizeof(double) * (size_t)(m->E + 1));
    s->mark = xmalloc(sizeof(int32_t) * (size_t)(m->E + 1));
    s->list = xmalloc(sizeof(int32_t) * (size_t)(m->E + 1));
    for (int64_t v = 0; v < m->E; v++) s->mark[v] = -1;
    return s;
}

void pattern_scratch_free(pattern_scratch *s) {
    if (!s) return;
    free(s->acc);
    free(s->mark);
    free(s->list);
    free(s);
}

/* list[0..n-1] ascending: the n entities with mark[v] >= 0 (a scan of the marks when they are
 * many, a sort when they are few). */
static void sort_reached(int32_t *list, int64_t n, const int32_t *mark, int64_t E) {
    if (n * 16 < E) {
        qsort(list, (size_t)n, sizeof(int32_t), cmp_i32);
        return;
    }
    for (int64_t v = 0, k = 0; v < E; v++)
        if (mark[v] >= 0) list[k++] = (int32_t)v;
}

void pattern_model_sparse_row(const pattern_model *m, const pattern_refinement *r, int64_t e, pattern_scratch *s,
                              sparse_row *out) {
    if (m->cfg.estimator != PATTERN_SIMILARITY || !m->fitted)
        die("pattern_model_sparse_row: needs the fitted similarity estimator");
    int64_t E = m->E, nl = 0;
    const double *norm = r ? r->norm : m->norm;
    const float *w = r ? r->w : NULL;
    memset(out, 0, sizeof *out);
    out->n = E;
    if (norm[e] == 0) { /* nothing usable: uniform */
        out->background = (float)(1.0 / (double)E);
        sparse_row_finish(out);
        return;
    }
    for (int64_t q = m->poff[e]; q < m->poff[e + 1]; q++) {
        int32_t f = m->prof_feat[q];
        double a = w ? m->prof_val[q] * w[f] : m->prof_val[q];
        if (a == 0) continue;
        for (int64_t p = m->foff[f]; p < m->foff[f + 1]; p++) {
            int32_t v = m->list_ent[p];
            if (s->mark[v] < 0) {
                s->mark[v] = 0;
                s->list[nl++] = v;
                s->acc[v] = 0;
            }
            s->acc[v] += a * (w ? m->pair_x[p] * w[f] : m->pair_x[p]);
        }
    }
    sort_reached(s->list, nl, s->mark, E);
    /* c_v = cos / T for the reached entities, 0 for the others (the background) */
    double mx = nl < E ? 0 : -INFINITY, z = 0;
    for (int64_t i = 0; i < nl; i++) {
        int32_t v = s->list[i];
        s->mark[v] = -1;
        s->acc[v] = norm[v] > 0 ? s->acc[v] / (norm[e] * norm[v]) / m->cfg.temperature : 0;
        if (m->shrink) s->acc[v] *= m->shrink[v];
        if (s->acc[v] > mx) mx = s->acc[v];
    }
    for (int64_t i = 0; i < nl; i++) z += s->acc[s->list[i]] = exp(s->acc[s->list[i]] - mx);
    double bg = exp(-mx);
    z += (double)(E - nl) * bg;
    out->nnz = nl;
    out->col = xmalloc(sizeof(int32_t) * (size_t)(nl + 1));
    out->val = xmalloc(sizeof(float) * (size_t)(nl + 1));
    for (int64_t i = 0; i < nl; i++) {
        out->col[i] = s->list[i];
        out->val[i] = (float)(s->acc[s->list[i]] / z);
    }
    out->background = (float)(bg / z);
    sparse_row_finish(out);
}

/* ---- contrastive refinement ---- */

pattern_contrast_opts pattern_contrast_defaults(void) {
    pattern_contrast_opts o = {50, 0.05, 0.01, 0.1};
    return o;
}

/* |x'_e| with x'_e[f] = exp(u_f) x_e[f] */
static double weighted_norm(const pattern_model *m, int64_t e, const float *theta2) {
    double n2 = 0;
    for (int64_t q = m->poff[e]; q < m->poff[e + 1]; q++)
        n2 += theta2[m->prof_feat[q]] * (double)m->prof_val[q] * m->prof_val[q];
    return sqrt(n2);
}

/* The norm terms of ds(a, b)/du for one side: grad[f] -= coef * theta2 x_e[f]^2 / n_e^2. */
static void norm_grad(const pattern_model *m, int64_t e, double n_e, double coef, const float *theta2, float *grad) {
    if (coef == 0 || n_e == 0) return;
    for (int64_t q = m->poff[e]; q < m->poff[e + 1]; q++) {
        int32_t f = m->prof_feat[q];
        grad[f] -= (float)(coef * theta2[f] * (double)m->prof_val[q] * m->prof_val[q] / (n_e * n_e));
    }
}

double pattern_model_contrast_loss(const pattern_model *m, const pattern_class_sets *sets, int nsets, double tau,
                                   const float *u, float *grad) {
    if (!m->poff) die("pattern_model_contrast_loss: needs the fitted similarity estimator");
    int64_t F = m->F;
    float *theta2 = xmalloc(sizeof(float) * (size_t)(F + 1));
    for (int64_t f = 0; f < F; f++) theta2[f] = u ? expf(2 * u[f]) : 1.0f;
    if (grad) memset(grad, 0, sizeof(float) * (size_t)F);
    double *dense = xcalloc((size_t)F + 1, sizeof(double)), loss = 0;
    int64_t terms = 0;
    for (int c = 0; c < nsets; c++) {
        const pattern_class_sets *cs = &sets[c];
        if (cs->n_pos < 2 || cs->n_neg < 1) continue;
        int64_t nb = cs->n_pos + cs->n_neg;
        double *sim = xmalloc(sizeof(double) * (size_t)nb), *nrm = xmalloc(sizeof(double) * (size_t)nb);
        double *ds = xmalloc(sizeof(double) * (size_t)nb);
        for (int64_t b = 0; b < nb; b++) {
            int64_t e = b < cs->n_pos ? cs->pos[b] : cs->neg[b - cs->n_pos];
            nrm[b] = weighted_norm(m, e, theta2);
        }
        for (int64_t a = 0; a < cs->n_pos; a++) {
            int64_t ea = cs->pos[a];
            if (nrm[a] == 0) continue;
            for (int64_t q = m->poff[ea]; q < m->poff[ea + 1]; q++) dense[m->prof_feat[q]] = m->prof_val[q];
            for (int64_t b = 0; b < nb; b++) { /* s(a, b) for every other member */
                int64_t eb = b < cs->n_pos ? cs->pos[b] : cs->neg[b - cs->n_pos];
                double dot = 0;
                for (int64_t q = m->poff[eb]; q < m->poff[eb + 1]; q++)
                    dot += theta2[m->prof_feat[q]] * dense[m->prof_feat[q]] * m->prof_val[q];
                sim[b] = nrm[b] > 0 ? dot / (nrm[a] * nrm[b]) : 0;
                ds[b] = 0;
            }
            for (int64_t p = 0; p < cs->n_pos; p++) { /* one InfoNCE term per positive p != a */
                if (p == a || nrm[p] == 0) continue;
                double mx = sim[p] / tau, z = 0;
                for (int64_t n = cs->n_pos; n < nb; n++) mx = fmax(mx, sim[n] / tau);
                z = exp(sim[p] / tau - mx);
                for (int64_t n = cs->n_pos; n < nb; n++) z += exp(sim[n] / tau - mx);
                loss += -(sim[p] / tau - mx) + log(z);
                terms++;
                ds[p] += (exp(sim[p] / tau - mx) / z - 1) / tau;
                for (int64_t n = cs->n_pos; n < nb; n++) ds[n] += exp(sim[n] / tau - mx) / z / tau;
            }
            if (grad) { /* ds(a,b)/du_f = 2 th2 x_a x_b / (n_a n_b) - s (th2 x_a^2 / n_a^2 + th2 x_b^2 / n_b^2) */
                double coef_a = 0;
                for (int64_t b = 0; b < nb; b++) {
                    if (ds[b] == 0 || b == a) continue;
                    int64_t eb = b < cs->n_pos ? cs->pos[b] : cs->neg[b - cs->n_pos];
                    for (int64_t q = m->poff[eb]; q < m->poff[eb + 1]; q++) {
                        int32_t f = m->prof_feat[q];
                        if (dense[f] != 0)
                            grad[f] += (float)(ds[b] * 2 * theta2[f] * dense[f] * m->prof_val[q] / (nrm[a] * nrm[b]));
                    }
                    norm_grad(m, eb, nrm[b], ds[b] * sim[b], theta2, grad);
                    coef_a += ds[b] * sim[b];
                }
                norm_grad(m, ea, nrm[a], coef_a, theta2, grad);
            }
            for (int64_t q = m->poff[ea]; q < m->poff[ea + 1]; q++) dense[m->prof_feat[q]] = 0;
        }
        free(sim);
        free(nrm);
        free(ds);
    }
    if (terms > 0) {
        loss /= (double)terms;
        if (grad)
            for (int64_t f = 0; f < F; f++) grad[f] /= (float)terms;
    }
    free(theta2);
    free(dense);
    return loss;
}

pattern_refinement *pattern_model_refine(const pattern_model *m, const pattern_class_sets *sets, int nsets,
                                         const pattern_contrast_opts *o, double *loss_before, double *loss_after) {
    if (m->cfg.estimator != PATTERN_SIMILARITY || !m->fitted)
        die("pattern_model_refine: needs the fitted similarity estimator");
    int64_t F = m->F;
    float *u = xcalloc((size_t)F + 1, sizeof(float)), *grad = xcalloc((size_t)F + 1, sizeof(float));
    param_list pl = {0};
    param_list_add(&pl, "feature_log_weight", u, grad, 1, F, 0);
    adamw_hparams h = adamw_defaults();
    h.lr = o->lr;
    h.weight_decay = o->weight_decay;
    adamw opt;
    adamw_create(&opt, &h);
    adamw_add(&opt, &pl);
    if (loss_before) *loss_before = pattern_model_contrast_loss(m, sets, nsets, o->tau, u, NULL);
    for (int step = 0; step < o->steps && !budget_spent(); step++) { /* a spent budget ends it early */
        pattern_model_contrast_loss(m, sets, nsets, o->tau, u, grad);
        pl.p[0].has_grad = 1;
        adamw_step(&opt);
    }
    if (loss_after) *loss_after = pattern_model_contrast_loss(m, sets, nsets, o->tau, u, NULL);
    for (int64_t f = 0; f < F; f++) u[f] = expf(u[f]); /* u becomes the weights in place */
    pattern_refinement *r = refinement_with(m, u);
    adamw_free(&opt);
    param_list_free(&pl);
    free(grad);
    return r;
}

pattern_refinement *pattern_refinement_from_weights(const pattern_model *m, const float *w) {
    float *copy = xmalloc(sizeof(float) * (size_t)(m->F + 1));
    memcpy(copy, w, sizeof(float) * (size_t)m->F);
    return refinement_with(m, copy);
}

pattern_refinement *pattern_refinement_product(const pattern_model *m, const pattern_refinement *a,
                                               const pattern_refinement *b) {
    float *w = xmalloc(sizeof(float) * (size_t)(m->F + 1));
    for (int64_t f = 0; f < m->F; f++) w[f] = a->w[f] * b->w[f];
    return refinement_with(m, w);
}

const float *pattern_refinement_weights(const pattern_refinement *r) { return r->w; }

double pattern_model_contrast(pattern_model *m, const pattern_class_sets *sets, int nsets,
                              const pattern_contrast_opts *o, double *loss_before) {
    double after = 0;
    pattern_refinement_free(m->ref);
    m->ref = pattern_model_refine(m, sets, nsets, o, loss_before, &after);
    m->st.entities_uniform = m->ref->entities_uniform;
    return after;
}

/* ---- prediction ---- */

/* q(e) into out[E]; returns the number of usable samples (0: out is uniform). */
static int64_t prediction_row(const pattern_model *m, int64_t e, double *acc, float *out) {
    int64_t E = m->E, used = 0;
    memset(acc, 0, sizeof(double) * (size_t)E);
    for (int64_t i = m->eoff[e]; i < m->eoff[e + 1]; i++) {
        const int32_t *f = &m->feats[m->sample_of[i] * PATTERN_MAX];
        double W = 0;
        for (int k = 0; k < PATTERN_MAX; k++)
            if (f[k] >= 0) W += m->weight[f[k]];
        if (W <= 0) continue;
        for (int k = 0; k < PATTERN_MAX; k++) {
            if (f[k] < 0 || m->weight[f[k]] <= 0) continue;
            double g = m->weight[f[k]] / W / (double)(m->count[f[k]] - 1);
            for (int64_t p = m->foff[f[k]]; p < m->foff[f[k] + 1]; p++) acc[m->list_ent[p]] += g * m->list_cnt[p];
            acc[e] -= g; /* leave the sample itself out */
        }
        used++;
    }
    if (!used) {
        uniform_row(E, out);
        return 0;
    }
    double z = 1 + (double)E * PATTERN_EPS;
    for (int64_t v = 0; v < E; v++) out[v] = (float)(((acc[v] > 0 ? acc[v] : 0) / (double)used + PATTERN_EPS) / z);
    return used;
}

/* ---- rows, in parallel ---- */

typedef struct {
    pattern_model *m;
    int64_t first;
    float *out;
    int64_t *used; /* prediction before the prior: usable samples per row */
} rows_job;

static void rows_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
    rows_job *j = ctx;
    pattern_model *m = j->m;
    if (m->cfg.estimator == PATTERN_SIMILARITY) {
        if (!m->scratch[tid]) m->scratch[tid] = pattern_scratch_new(m);
        for (int64_t i = begin; i < end; i++) {
            sparse_row r;
            pattern_model_sparse_row(m, m->ref, j->first + i, m->scratch[tid], &r);
            sparse_row_dense(&r, j->out + (size_t)i * m->E);
            sparse_row_free(&r);
        }
        return;
    }
    double *acc = m->acc + (size_t)tid * m->E;
    for (int64_t i = begin; i < end; i++) {
        float *row = j->out + (size_t)i * m->E;
        int64_t used = prediction_row(m, j->first + i, acc, row);
        if (j->used) {
            j->used[i] = used;
            continue;
        }
        double z = 0;
        for (int64_t v = 0; v < m->E; v++) z += acc[v] = row[v] * m->prior_scale[v];
        for (int64_t v = 0; v < m->E; v++) row[v] = (float)(acc[v] / z);
    }
}

static void run_rows(pattern_model *m, int64_t first, int64_t n, float *out, int64_t *used) {
    int T = parallel_threads();
    if (m->cfg.estimator == PATTERN_PREDICTION && m->nacc < T) {
        free(m->acc);
        m->acc = xmalloc(sizeof(double) * (size_t)T * (size_t)m->E);
        m->nacc = T;
    }
    rows_job j = {m, first, out, used};
    parallel_for(n, 1, rows_chunk, &j);
}

#define PRIOR_BLOCK 64

/* m = mean of q(e) weighted by usable samples; prior_scale = m^-prior_power. */
static void fit_prior(pattern_model *m) {
    int64_t E = m->E;
    double *mean = xcalloc((size_t)E, sizeof(double)), tot = 0;
    float *block = xmalloc(sizeof(float) * (size_t)PRIOR_BLOCK * (size_t)E);
    int64_t used[PRIOR_BLOCK];
    m->st.entities_uniform = 0;
    for (int64_t first = 0; first < E; first += PRIOR_BLOCK) {
        int64_t n = E - first < PRIOR_BLOCK ? E - first : PRIOR_BLOCK;
        run_rows(m, first, n, block, used);
        for (int64_t i = 0; i < n; i++) { /* serial, in row order: the same sum for any thread count */
            m->st.entities_uniform += used[i] == 0;
            if (!used[i]) continue;
            for (int64_t v = 0; v < E; v++) mean[v] += (double)used[i] * block[(size_t)i * E + v];
            tot += (double)used[i];
        }
    }
    m->prior_scale = xmalloc(sizeof(double) * (size_t)E);
    for (int64_t v = 0; v < E; v++) {
        double p = tot > 0 ? mean[v] / tot : 1.0 / (double)E;
        m->prior_scale[v] = pow(p > 0 ? p : PATTERN_EPS, -m->cfg.prior_power);
    }
    free(mean);
    free(block);
}

void pattern_model_fit(pattern_model *m) {
    if (m->fitted) return;
    if (m->cfg.estimator == PATTERN_SIMILARITY) fit_profiles(m);
    else fit_prior(m);
    m->fitted = 1;
}

void pattern_model_rows(pattern_model *m, int64_t first, int64_t n, float *out) {
    if (!m->fitted) die("pattern_model_rows before pattern_model_fit");
    if (first < 0 || n < 0 || first + n > m->E)
        die("pattern_model_rows: rows %lld..%lld outside 0..%lld", (long long)first, (long long)(first + n - 1),
            (long long)m->E - 1);
    run_rows(m, first, n, out, NULL);
}
