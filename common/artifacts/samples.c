/* samples: writer and mmap reader of the `samples` artifact (contract in samples.h,
 * layout in schemas/samples.md). The reader reads tables in place through memcpy (the
 * bins carry no alignment guarantee) and validates everything at open. */
#include "artifacts/samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "artifacts/corpus.h"
#include "artifacts/entities.h"
#include "dataset/dataset.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/paths.h"

struct samples {
    artifact_reader *r;
    wp_vocab vocab;
    int64_t E, S, T;
    entity_table ents;
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

/* The last k in 0..n-1 with a[k] <= x (0 when none): a[0..n) ascending, e.g. the entity
 * of a sample (first[]) or the chunk of a token (chunk_first[]). */
static int64_t last_at_most(const int64_t *a, int64_t n, int64_t x) {
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (a[mid] <= x) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static int64_t token_at(const samples *s, int64_t chunk, int64_t t) {
    const unsigned char *p = s->chunk[chunk];
    int64_t i = t - s->chunk_first[chunk];
    if (s->elem == 2) { uint16_t v; memcpy(&v, p + i * 2, 2); return v; }
    return ld32(p, i);
}

samples *samples_open(const char *path) {
    samples *s = xcalloc(1, sizeof *s);
    artifact_reader *r = s->r = artifact_open(path, SAMPLES_KIND, SAMPLES_SCHEMA);
    msgpack_object o;
    artifact_expect(r, &o, "the vocabulary object");
    corpus_unpack_vocab(r, &o, &s->vocab);

    artifact_expect(r, &o, "the entity index");
    entities_unpack(r, &o, 1, &s->ents, &s->row_of);
    int64_t E = s->E = s->ents.n;
    const unsigned char *first = get_bin(r, &o, "first", (uint64_t)(E + 1) * 8);
    s->first = xmalloc((size_t)(E + 1) * sizeof *s->first);
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
        int64_t chunk = last_at_most(s->chunk_first, s->nchunks, off);
        if (off + len > s->chunk_first[chunk + 1]) artifact_bad(r, "sample %lld straddles two token chunks", (long long)j);
        if (token_at(s, chunk, off) != s->vocab.sp.cls || token_at(s, chunk, off + m) != s->vocab.sp.mask ||
            token_at(s, chunk, off + len - 1) != s->vocab.sp.sep)
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
    entity_table_free(&s->ents);
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
int64_t samples_eid(const samples *s, int64_t row) { return s->ents.eid[row]; }
const char *samples_name(const samples *s, int64_t row) { return s->ents.name[row]; }
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

int64_t samples_entity(const samples *s, int64_t j) { return last_at_most(s->first, s->E, j); }

int samples_tokens(const samples *s, int64_t j, int32_t *out) {
    int64_t off = ld64(s->off, j);
    int32_t len = ld32(s->len, j);
    int64_t chunk = last_at_most(s->chunk_first, s->nchunks, off);
    const unsigned char *p = s->chunk[chunk] + (off - s->chunk_first[chunk]) * s->elem;
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

void samples_entity_table(const samples *s, entity_table *t) { entity_table_copy(t, &s->ents); }

/* ======================= writing ======================= */

#define MAX_CHUNK_BYTES (1u << 30)
#define MAX_SAMPLE_LENGTH 65535

struct samples_writer {
    artifact_writer *a;
    msgpack_packer *pk;
    int elem;                                   /* bytes per token: 2 (u16) or 4 (i32) */
    int64_t E, S, T, placed;
    int64_t *first, *fill;                      /* E + 1, E: the next sample index of each row */
    int64_t *off, *sent;                        /* sample table, until samples_begin */
    int32_t *len, *mask;
    uint16_t *order_len;                        /* lengths in placement order */
    int64_t nchunks, chunk_bytes, *chunk_first, *chunk_tokens;
    int64_t *hist;                              /* samples by length */
    int64_t chunk, written;                     /* writing: current chunk, tokens written */
    unsigned char *buf;
    int32_t cls, mask_id, sep;
};

samples_writer *samples_create(const char *path, int32_t vocab_size) {
    samples_writer *w = xcalloc(1, sizeof *w);
    w->a = artifact_create(path, SAMPLES_KIND, SAMPLES_SCHEMA);
    w->elem = vocab_size <= 65536 ? 2 : 4;
    w->hist = xcalloc(MAX_SAMPLE_LENGTH + 1, sizeof *w->hist);
    w->buf = xmalloc((size_t)MAX_SAMPLE_LENGTH * 4);
    w->chunk = -1;
    return w;
}

artifact_writer *samples_artifact(samples_writer *w) { return w->a; }
int64_t samples_planned_tokens(const samples_writer *w) { return w->T; }

void samples_plan(samples_writer *w, int64_t E, const int64_t *first) {
    w->E = E;
    w->S = first[E];
    w->first = xmalloc((size_t)(E + 1) * sizeof *w->first);
    memcpy(w->first, first, (size_t)(E + 1) * sizeof *w->first);
    w->fill = xmalloc((size_t)(E ? E : 1) * sizeof *w->fill);
    memcpy(w->fill, first, (size_t)E * sizeof *w->fill);
    size_t S = (size_t)(w->S ? w->S : 1);
    w->off = xmalloc(S * sizeof *w->off);
    w->sent = xmalloc(S * sizeof *w->sent);
    w->len = xmalloc(S * sizeof *w->len);
    w->mask = xmalloc(S * sizeof *w->mask);
    w->order_len = xmalloc(S * sizeof *w->order_len);
}

void samples_place(samples_writer *w, int64_t row, int32_t length, int32_t mask, int64_t sentence) {
    if (row < 0 || row >= w->E || w->fill[row] >= w->first[row + 1] || length < 3 || length > MAX_SAMPLE_LENGTH)
        die("internal: samples: sample of row %lld does not fit the plan", (long long)row);
    if (!w->nchunks || w->chunk_bytes + (int64_t)length * w->elem > MAX_CHUNK_BYTES) {
        w->chunk_first = xrealloc(w->chunk_first, (size_t)(w->nchunks + 1) * sizeof *w->chunk_first);
        w->chunk_tokens = xrealloc(w->chunk_tokens, (size_t)(w->nchunks + 1) * sizeof *w->chunk_tokens);
        w->chunk_first[w->nchunks] = w->T;
        w->chunk_tokens[w->nchunks++] = 0;
        w->chunk_bytes = 0;
    }
    int64_t j = w->fill[row]++;
    w->off[j] = w->T;
    w->len[j] = length;
    w->mask[j] = mask;
    w->sent[j] = sentence;
    w->order_len[w->placed++] = (uint16_t)length;
    w->T += length;
    w->chunk_tokens[w->nchunks - 1] += length;
    w->chunk_bytes += (int64_t)length * w->elem;
    w->hist[length]++;
}

void samples_begin(samples_writer *w, const wp_vocab *v, const entity_table *t, const int64_t *keep) {
    if (w->placed != w->S) die("internal: samples: %lld of %lld samples placed", (long long)w->placed, (long long)w->S);
    int64_t kept = 0;
    for (int64_t i = 0; i < t->n; i++) kept += keep[i] >= 0;
    if (kept != w->E) die("internal: samples: %lld entities kept, planned %lld", (long long)kept, (long long)w->E);
    w->cls = v->sp.cls;
    w->mask_id = v->sp.mask;
    w->sep = v->sp.sep;
    msgpack_packer *pk = w->pk = artifact_payload(w->a);
    corpus_pack_vocab(pk, v);
    entities_pack(pk, t, keep, 1);
    mp_kv_bin(pk, "first", w->first, (size_t)(w->E + 1) * sizeof *w->first);
    msgpack_pack_map(pk, 5);
    mp_kv_int(pk, "samples", w->S);
    mp_kv_bin(pk, "offset", w->off, (size_t)w->S * sizeof *w->off);
    mp_kv_bin(pk, "length", w->len, (size_t)w->S * sizeof *w->len);
    mp_kv_bin(pk, "mask", w->mask, (size_t)w->S * sizeof *w->mask);
    mp_kv_bin(pk, "sentence", w->sent, (size_t)w->S * sizeof *w->sent);
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "tokens", w->T);
    mp_kv_str(pk, "dtype", w->elem == 2 ? "u16" : "i32");
    mp_kv_int(pk, "chunks", w->nchunks);
    mp_kv_i64_array(pk, "chunk_first", w->chunk_first, w->nchunks);
    free(w->off);
    free(w->len);
    free(w->mask);
    free(w->sent);
    w->off = w->sent = NULL;
    w->len = w->mask = NULL;
    w->placed = 0;
}

/* Appends k ids to the buffer holding n tokens; returns the new n. */
static int32_t put_ids(samples_writer *w, int32_t n, const int32_t *ids, int32_t k) {
    if (w->elem == 4) {
        memcpy(w->buf + (size_t)n * 4, ids, (size_t)k * 4);
        return n + k;
    }
    for (int32_t i = 0; i < k; i++) {
        uint16_t h = (uint16_t)ids[i];
        memcpy(w->buf + (size_t)(n + i) * 2, &h, 2);
    }
    return n + k;
}

void samples_write_masked(samples_writer *w, const int32_t *a, int32_t na, const int32_t *b, int32_t nb) {
    if (!w->pk || w->placed >= w->S) die("internal: samples: more samples written than placed");
    if (w->chunk < 0 || (w->chunk + 1 < w->nchunks && w->written == w->chunk_first[w->chunk + 1])) {
        w->chunk++;
        msgpack_pack_bin(w->pk, (size_t)(w->chunk_tokens[w->chunk] * w->elem));
    }
    /* [CLS] a [MASK] b [SEP] */
    int32_t n = 0;
    n = put_ids(w, n, &w->cls, 1);
    n = put_ids(w, n, a, na);
    n = put_ids(w, n, &w->mask_id, 1);
    n = put_ids(w, n, b, nb);
    n = put_ids(w, n, &w->sep, 1);
    if (n != w->order_len[w->placed]) die("internal: sample length %d != %d", n, w->order_len[w->placed]);
    w->placed++;
    msgpack_pack_bin_body(w->pk, w->buf, (size_t)n * w->elem);
    w->written += n;
}

int samples_length_percentile(const samples_writer *w, double q) {
    int64_t need = (int64_t)(q * (double)w->S + 0.999999), acc = 0;
    if (need < 1) need = 1;
    for (int i = 0; i <= MAX_SAMPLE_LENGTH; i++)
        if ((acc += w->hist[i]) >= need) return i;
    return 0;
}

uint64_t samples_commit(samples_writer *w, const samples_stat *stats, size_t n) {
    if (w->written != w->T) die("internal: wrote %lld tokens, planned %lld", (long long)w->written, (long long)w->T);
    msgpack_pack_map(w->pk, n + 1);
    mp_kv_str(w->pk, "end", "samples");
    for (size_t i = 0; i < n; i++) mp_kv_int(w->pk, stats[i].key, stats[i].value);
    uint64_t bytes = artifact_bytes(w->a);
    artifact_commit(w->a);
    free(w->first);
    free(w->fill);
    free(w->order_len);
    free(w->chunk_first);
    free(w->chunk_tokens);
    free(w->hist);
    free(w->buf);
    free(w);
    return bytes;
}
