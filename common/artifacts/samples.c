/* samples: mmap reader of the `samples` artifact (contract in samples.h,
 * layout in schemas/samples.md). Tables are read in place through memcpy (the
 * bins carry no alignment guarantee); everything is validated at open. */
#include "artifacts/samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "artifacts/corpus.h"
#include "dataset/dataset.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/paths.h"

struct samples {
    artifact_reader *r;
    wp_vocab vocab;
    int64_t E, S, T;
    int64_t *eid;
    char **name;
    int64_t *first;                 /* E + 1 */
    intmap row_of;
    const unsigned char *off, *len, *mask, *sent; /* int64, int32, int32, int64 columns */
    int elem;                       /* 2 (u16) or 4 (i32) */
    int64_t nchunks;
    int64_t *chunk_first;           /* first token of each chunk, + T at the end */
    const unsigned char **chunk;    /* chunk data */
    int max_len;
};

static int64_t ld64(const unsigned char *p, int64_t i) { int64_t v; memcpy(&v, p + i * 8, 8); return v; }
static int32_t ld32(const unsigned char *p, int64_t i) { int32_t v; memcpy(&v, p + i * 4, 4); return v; }

static const unsigned char *get_bin(artifact_reader *r, const msgpack_object *map, const char *key, uint64_t bytes) {
    const msgpack_object *o = mp_get(r, map, key, 1);
    if (o->type != MSGPACK_OBJECT_BIN) artifact_bad(r, "'%s': expected a bin", key);
    if (o->via.bin.size != bytes)
        artifact_bad(r, "'%s': %u bytes, expected %llu", key, o->via.bin.size, (unsigned long long)bytes);
    return (const unsigned char *)o->via.bin.ptr;
}

static int64_t token_at(const samples *s, int64_t chunk, int64_t t) {
    const unsigned char *p = s->chunk[chunk];
    int64_t i = t - s->chunk_first[chunk];
    if (s->elem == 2) { uint16_t v; memcpy(&v, p + i * 2, 2); return v; }
    return ld32(p, i);
}

samples *samples_open(const char *path) {
    samples *s = xcalloc(1, sizeof *s);
    artifact_reader *r = s->r = artifact_open(path, "samples", SAMPLES_SCHEMA);
    msgpack_object o;
    artifact_expect(r, &o, "the vocabulary object");
    corpus_unpack_vocab(r, &o, &s->vocab);

    artifact_expect(r, &o, "the entity index");
    int64_t E = s->E = mp_get_int(r, &o, "entities");
    const msgpack_object *eid = mp_get_array(r, &o, "eid"), *name = mp_get_array(r, &o, "name");
    if (E < 1 || eid->via.array.size != (uint64_t)E || name->via.array.size != (uint64_t)E)
        artifact_bad(r, "entity index: %lld entities, %u eids, %u names", (long long)E, eid->via.array.size,
                     name->via.array.size);
    const unsigned char *first = get_bin(r, &o, "first", (uint64_t)(E + 1) * 8);
    s->eid = xmalloc((size_t)E * sizeof *s->eid);
    s->name = xmalloc((size_t)E * sizeof *s->name);
    s->first = xmalloc((size_t)(E + 1) * sizeof *s->first);
    intmap_init(&s->row_of);
    for (int64_t i = 0; i < E; i++) {
        s->eid[i] = mp_as_int(r, &eid->via.array.ptr[i], "eid");
        const msgpack_object *n = &name->via.array.ptr[i];
        if (n->type != MSGPACK_OBJECT_STR) artifact_bad(r, "entity name %lld: expected a string", (long long)i);
        s->name[i] = xmalloc(n->via.str.size + 1);
        memcpy(s->name[i], n->via.str.ptr, n->via.str.size);
        s->name[i][n->via.str.size] = 0;
        if (intmap_put(&s->row_of, s->eid[i], i) >= 0) artifact_bad(r, "eid %lld appears twice", (long long)s->eid[i]);
    }
    for (int64_t i = 0; i <= E; i++) s->first[i] = ld64(first, i);

    artifact_expect(r, &o, "the sample table");
    int64_t S = s->S = mp_get_int(r, &o, "samples");
    if (S < 0 || S > ((int64_t)1 << 36)) artifact_bad(r, "sample table: %lld samples", (long long)S);
    s->off = get_bin(r, &o, "offset", (uint64_t)S * 8);
    s->len = get_bin(r, &o, "length", (uint64_t)S * 4);
    s->mask = get_bin(r, &o, "mask", (uint64_t)S * 4);
    s->sent = get_bin(r, &o, "sentence", (uint64_t)S * 8);
    if (s->first[0] != 0 || s->first[E] != S) artifact_bad(r, "entity index: first[] does not span the %lld samples", (long long)S);
    for (int64_t i = 0; i < E; i++)
        if (s->first[i + 1] <= s->first[i]) artifact_bad(r, "entity row %lld has no samples", (long long)i);

    artifact_expect(r, &o, "the token stream descriptor");
    s->T = mp_get_int(r, &o, "tokens");
    char *dtype = mp_get_str(r, &o, "dtype");
    s->elem = strcmp(dtype, "u16") == 0 ? 2 : strcmp(dtype, "i32") == 0 ? 4 : 0;
    if (!s->elem) artifact_bad(r, "dtype '%s', expected \"u16\" or \"i32\"", dtype);
    free(dtype);
    s->nchunks = mp_get_int(r, &o, "chunks");
    const msgpack_object *cf = mp_get_array(r, &o, "chunk_first");
    if (s->T < 0 || s->nchunks < 0 || cf->via.array.size != (uint64_t)s->nchunks || (s->T > 0) != (s->nchunks > 0))
        artifact_bad(r, "token stream: %lld tokens, %lld chunks, %u chunk offsets", (long long)s->T, (long long)s->nchunks,
                     cf->via.array.size);
    s->chunk_first = xmalloc((size_t)(s->nchunks + 1) * sizeof *s->chunk_first);
    s->chunk = xmalloc((size_t)(s->nchunks + 1) * sizeof *s->chunk);
    for (int64_t k = 0; k < s->nchunks; k++) s->chunk_first[k] = mp_as_int(r, &cf->via.array.ptr[k], "chunk_first");
    s->chunk_first[s->nchunks] = s->T;
    /* 0 = chunk_first[0] < chunk_first[1] < ... < T: every difference below fits
     * and every sample offset (>= 0) lies at or after the first token of its chunk */
    for (int64_t k = 0; k < s->nchunks; k++)
        if (k == 0 ? s->chunk_first[0] != 0 : (s->chunk_first[k] <= s->chunk_first[k - 1] || s->chunk_first[k] >= s->T))
            artifact_bad(r, "chunk_first[%lld] = %lld: expected 0 for the first chunk, then increasing below %lld tokens",
                         (long long)k, (long long)s->chunk_first[k], (long long)s->T);
    for (int64_t k = 0; k < s->nchunks; k++) {
        artifact_expect(r, &o, "a token chunk");
        int64_t ntok = s->chunk_first[k + 1] - s->chunk_first[k];
        if (o.type != MSGPACK_OBJECT_BIN || o.via.bin.size % (uint32_t)s->elem || o.via.bin.size / (uint32_t)s->elem != (uint64_t)ntok)
            artifact_bad(r, "token chunk %lld: expected a bin of %lld tokens", (long long)k, (long long)ntok);
        s->chunk[k] = (const unsigned char *)o.via.bin.ptr;
    }
    artifact_expect(r, &o, "the closing statistics object");
    const msgpack_object *end = mp_get(r, &o, "end", 1);
    if (end->type != MSGPACK_OBJECT_STR || end->via.str.size != 7 || memcmp(end->via.str.ptr, "samples", 7))
        artifact_bad(r, "expected the closing object {end: \"samples\"}");
    artifact_expect_end(r);

    /* every sample: inside the stream and one chunk, [MASK] where it says, ids in the vocabulary */
    for (int64_t j = 0; j < S; j++) {
        int64_t off = ld64(s->off, j);
        int32_t len = ld32(s->len, j), m = ld32(s->mask, j);
        if (len < 3 || off < 0 || off > s->T - len || m < 1 || m > len - 2)
            artifact_bad(r, "sample %lld: offset %lld length %d mask %d inconsistent with %lld tokens", (long long)j,
                         (long long)off, len, m, (long long)s->T);
        int64_t lo = 0, hi = s->nchunks - 1;
        while (lo < hi) {
            int64_t mid = (lo + hi + 1) / 2;
            if (s->chunk_first[mid] <= off) lo = mid;
            else hi = mid - 1;
        }
        if (off + len > s->chunk_first[lo + 1]) artifact_bad(r, "sample %lld straddles two token chunks", (long long)j);
        if (token_at(s, lo, off) != s->vocab.sp.cls || token_at(s, lo, off + m) != s->vocab.sp.mask ||
            token_at(s, lo, off + len - 1) != s->vocab.sp.sep)
            artifact_bad(r, "sample %lld is not [CLS] ... [MASK] ... [SEP]", (long long)j);
        if (len > s->max_len) s->max_len = len;
    }
    for (int64_t k = 0; k < s->nchunks; k++)
        for (int64_t t = s->chunk_first[k]; t < s->chunk_first[k + 1]; t++) {
            int64_t id = token_at(s, k, t);
            if (id < 0 || id >= s->vocab.n)
                artifact_bad(r, "token %lld: id %lld outside the vocabulary of %d", (long long)t, (long long)id, s->vocab.n);
        }
    return s;
}

void samples_close(samples *s) {
    if (!s) return;
    for (int64_t i = 0; i < s->E; i++) free(s->name[i]);
    free(s->name);
    free(s->eid);
    free(s->first);
    free(s->chunk_first);
    free(s->chunk);
    intmap_free(&s->row_of);
    wp_vocab_free(&s->vocab);
    artifact_close(s->r);
    free(s);
}

const char *samples_path(const samples *s) { return artifact_path(s->r); }
int64_t samples_entities(const samples *s) { return s->E; }
int64_t samples_eid(const samples *s, int64_t row) { return s->eid[row]; }
const char *samples_name(const samples *s, int64_t row) { return s->name[row]; }
int64_t samples_row_of_eid(const samples *s, int64_t eid) { return intmap_get(&s->row_of, eid); }
void samples_range(const samples *s, int64_t row, int64_t *first, int64_t *n) {
    *first = s->first[row];
    *n = s->first[row + 1] - s->first[row];
}
int64_t samples_count(const samples *s) { return s->S; }
int samples_max_length(const samples *s) { return s->max_len; }
int samples_length(const samples *s, int64_t j) { return ld32(s->len, j); }
int samples_mask_pos(const samples *s, int64_t j) { return ld32(s->mask, j); }
int64_t samples_sentence(const samples *s, int64_t j) { return ld64(s->sent, j); }

int64_t samples_entity(const samples *s, int64_t j) {
    int64_t lo = 0, hi = s->E - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (s->first[mid] <= j) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

int samples_tokens(const samples *s, int64_t j, int32_t *out) {
    int64_t off = ld64(s->off, j);
    int32_t len = ld32(s->len, j);
    int64_t lo = 0, hi = s->nchunks - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (s->chunk_first[mid] <= off) lo = mid;
        else hi = mid - 1;
    }
    const unsigned char *p = s->chunk[lo] + (off - s->chunk_first[lo]) * s->elem;
    if (s->elem == 4) memcpy(out, p, (size_t)len * 4);
    else
        for (int32_t i = 0; i < len; i++) {
            uint16_t v;
            memcpy(&v, p + (size_t)i * 2, 2);
            out[i] = v;
        }
    return len;
}

int32_t samples_vocab_size(const samples *s) { return s->vocab.n; }
const char *samples_vocab_token(const samples *s, int32_t id) { return s->vocab.tok[id]; }
samples_special_ids samples_specials(const samples *s) {
    const wp_specials *p = &s->vocab.sp;
    return (samples_special_ids){p->pad, p->unk, p->cls, p->sep, p->mask};
}
void samples_write_vocab(const samples *s, const char *path) { wp_vocab_write(&s->vocab, path); }

void samples_check_vocab_file(const samples *s, const char *path) {
    FILE *f = paths_fopen_input(path);
    if (!f) return; /* no vocab.txt: nothing to compare */
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int32_t V = samples_vocab_size(s), i = 0;
    while ((n = getline(&line, &cap, f)) > 0 && i < V) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        if (strcmp(line, samples_vocab_token(s, i))) {
            char where[32];
            snprintf(where, sizeof where, "line %d", i + 1);
            die_input(path, where, "token '%s' differs from the vocabulary of %s ('%s'): the samples were "
                      "tokenized with another vocabulary", line, samples_path(s), samples_vocab_token(s, i));
        }
        i++;
    }
    free(line);
    fclose(f);
}

void samples_entity_table(const samples *s, entity_table *t) {
    int64_t E = samples_entities(s);
    t->n = E;
    t->eid = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    t->name = xmalloc(sizeof(char *) * (size_t)(E + 1));
    for (int64_t i = 0; i < E; i++) {
        t->eid[i] = samples_eid(s, i);
        t->name[i] = xstrdup(samples_name(s, i));
    }
}
