/* corpus: pack and stream-read the `corpus` artifact (see corpus.h and
 * schemas/corpus.md). */
#include "artifacts/corpus.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "artifacts/entities.h"
#include "base/error.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the artifact formats store little-endian integers; this port needs byte swapping"
#endif

void corpus_pack_vocab(msgpack_packer *pk, const wp_vocab *v) {
    msgpack_pack_map(pk, 1);
    mp_str(pk, "vocab");
    msgpack_pack_array(pk, (size_t)v->n);
    for (int32_t i = 0; i < v->n; i++) mp_str(pk, v->tok[i]);
}

void corpus_pack_sentence(msgpack_packer *pk, int64_t line, int32_t nwords, const int32_t *ids, int32_t nids,
                          const corpus_mention *m, int32_t nm) {
    msgpack_pack_array(pk, 4);
    msgpack_pack_int64(pk, line);
    msgpack_pack_int32(pk, nwords);
    msgpack_pack_bin(pk, (size_t)nids * 4);
    msgpack_pack_bin_body(pk, ids, (size_t)nids * 4);
    msgpack_pack_array(pk, (size_t)nm);
    for (int32_t i = 0; i < nm; i++) {
        msgpack_pack_array(pk, 3);
        msgpack_pack_int64(pk, m[i].eid);
        msgpack_pack_int32(pk, m[i].wp_start);
        msgpack_pack_int32(pk, m[i].wp_end);
    }
}

artifact_writer *corpus_create(const char *path) { return artifact_create(path, CORPUS_KIND, CORPUS_SCHEMA); }

msgpack_packer *corpus_begin(artifact_writer *w, const wp_vocab *v, const entity_table *t) {
    msgpack_packer *pk = artifact_payload(w);
    corpus_pack_vocab(pk, v);
    entities_pack(pk, t, NULL, 0);
    return pk;
}

void corpus_commit(artifact_writer *w, const corpus_totals *t) {
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 6);
    mp_kv_str(pk, "end", "corpus");
    mp_kv_int(pk, "sentences", t->sentences);
    mp_kv_int(pk, "mentions", t->mentions);
    mp_kv_int(pk, "words", t->words);
    mp_kv_int(pk, "wordpieces", t->wordpieces);
    mp_kv_int(pk, "unk", t->unk);
    artifact_commit(w);
}

void corpus_unpack_vocab(artifact_reader *r, const msgpack_object *o, wp_vocab *v) {
    const msgpack_object *a = mp_get_array(r, o, "vocab");
    uint32_t n = a->via.array.size;
    if (n == 0 || n > INT32_MAX) artifact_bad(r, "vocab: %u tokens", n);
    char **tok = xmalloc(n * sizeof *tok);
    for (uint32_t i = 0; i < n; i++) tok[i] = mp_as_str(r, &a->via.array.ptr[i], "vocab token");
    wp_vocab_from_tokens(v, tok, (int32_t)n);
    for (uint32_t i = 0; i < n; i++) free(tok[i]);
    free(tok);
    if (v->sp.unk < 0 || v->sp.cls < 0 || v->sp.sep < 0 || v->sp.mask < 0)
        artifact_bad(r, "vocab lacks one of [UNK] [CLS] [SEP] [MASK]");
}

void corpus_open(corpus_reader *c, const char *path) {
    memset(c, 0, sizeof *c);
    c->r = artifact_open(path, CORPUS_KIND, CORPUS_SCHEMA);
    msgpack_object o;
    artifact_expect(c->r, &o, "the vocabulary object");
    corpus_unpack_vocab(c->r, &o, &c->vocab);
    artifact_expect(c->r, &o, "the entity table");
    entities_unpack(c->r, &o, 0, &c->ents, NULL);
    c->index = -1;
}

/* The payload objects point into the reader's read-only file mapping; what lies
 * before the current sentence has been copied out, so its pages can go (they
 * would be re-read from the page cache if touched again). */
#define RELEASE_STEP (2u << 20)
static void release_pages(corpus_reader *c, const char *cur) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    if (!c->released) { c->released = cur; return; }
    if (cur < c->released || (size_t)(cur - c->released) < RELEASE_STEP) return;
    uintptr_t lo = ((uintptr_t)c->released + page - 1) & ~(page - 1), hi = (uintptr_t)cur & ~(page - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
    c->released = (const char *)hi;
}

int corpus_next(corpus_reader *c) {
    msgpack_object o;
    artifact_reader *r = c->r;
    artifact_expect(r, &o, "a sentence or the closing totals object");
    if (o.type == MSGPACK_OBJECT_MAP) {
        const msgpack_object *end = mp_get(r, &o, "end", 1);
        if (end->type != MSGPACK_OBJECT_STR || end->via.str.size != 6 || memcmp(end->via.str.ptr, "corpus", 6))
            artifact_bad(r, "expected the closing totals object {end: \"corpus\"}");
        corpus_totals *t = &c->totals;
        t->sentences = mp_get_int(r, &o, "sentences");
        t->mentions = mp_get_int(r, &o, "mentions");
        t->words = mp_get_int(r, &o, "words");
        t->wordpieces = mp_get_int(r, &o, "wordpieces");
        t->unk = mp_get_int(r, &o, "unk");
        if (t->sentences != c->index + 1)
            artifact_bad(r, "totals say %lld sentences, the file holds %lld", (long long)t->sentences,
                         (long long)(c->index + 1));
        artifact_expect_end(r);
        return 0;
    }
    if (o.type != MSGPACK_OBJECT_ARRAY || o.via.array.size != 4)
        artifact_bad(r, "expected a sentence [line, words, ids, mentions]");
    const msgpack_object *f = o.via.array.ptr;
    c->line = mp_as_int(r, &f[0], "line");
    int64_t nw = mp_as_int(r, &f[1], "words");
    if (f[2].type != MSGPACK_OBJECT_BIN || f[2].via.bin.size % 4) artifact_bad(r, "sentence ids: expected a bin of int32");
    if (f[3].type != MSGPACK_OBJECT_ARRAY) artifact_bad(r, "sentence mentions: expected an array");
    if (nw < 0 || nw > INT32_MAX) artifact_bad(r, "sentence words: %lld out of range", (long long)nw);
    c->nwords = (int32_t)nw;
    size_t nids = f[2].via.bin.size / 4;
    if (nids > INT32_MAX) artifact_bad(r, "sentence of %zu wordpieces", nids);
    if (nids > c->ids_cap) {
        c->ids_cap = nids * 2;
        c->ids = xrealloc(c->ids, c->ids_cap * sizeof *c->ids);
    }
    memcpy(c->ids, f[2].via.bin.ptr, nids * 4);
    c->nids = (int32_t)nids;
    for (size_t i = 0; i < nids; i++)
        if (c->ids[i] < 0 || c->ids[i] >= c->vocab.n) artifact_bad(r, "wordpiece id %d outside the vocabulary", c->ids[i]);
    uint32_t nm = f[3].via.array.size;
    if (nm > c->m_cap) {
        c->m_cap = (size_t)nm * 2;
        c->m = xrealloc(c->m, c->m_cap * sizeof *c->m);
    }
    for (uint32_t i = 0; i < nm; i++) {
        const msgpack_object *e = &f[3].via.array.ptr[i];
        if (e->type != MSGPACK_OBJECT_ARRAY || e->via.array.size != 3) artifact_bad(r, "mention: expected [eid, start, end]");
        int64_t s = mp_as_int(r, &e->via.array.ptr[1], "mention start"), t = mp_as_int(r, &e->via.array.ptr[2], "mention end");
        if (s < 0 || s >= t || t > (int64_t)nids)
            artifact_bad(r, "mention span [%lld, %lld): expected a non-empty span inside the sentence of %zu wordpieces",
                         (long long)s, (long long)t, nids);
        c->m[i] = (corpus_mention){mp_as_int(r, &e->via.array.ptr[0], "mention eid"), (int32_t)s, (int32_t)t};
    }
    c->nm = (int32_t)nm;
    c->index++;
    release_pages(c, f[2].via.bin.ptr);
    return 1;
}

void corpus_close(corpus_reader *c) {
    artifact_close(c->r);
    wp_vocab_free(&c->vocab);
    entity_table_free(&c->ents);
    free(c->ids);
    free(c->m);
    memset(c, 0, sizeof *c);
}

char *corpus_dataset_of_run(const char *run_dir) {
    char *path = xasprintf("%s/corpus.mp", run_dir), *dataset = NULL;
    if (access(path, R_OK) == 0) {
        artifact_reader *r = artifact_open(path, CORPUS_KIND, CORPUS_SCHEMA);
        dataset = mp_get_str(r, &artifact_hdr(r)->params, "dataset");
        artifact_close(r);
    }
    free(path);
    return dataset;
}
