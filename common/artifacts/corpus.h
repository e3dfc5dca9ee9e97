/* corpus: the `corpus` artifact (schemas/corpus.md) that tokenize writes and
 * build-samples reads: the tokenizer vocabulary, the entity table, then every
 * sentence as wordpiece ids with its mentions mapped to wordpiece spans, then a
 * closing totals object. Written and read as a stream: memory stays bounded by
 * one sentence whatever the corpus size.
 *
 * The vocabulary object is shared with the samples artifact (corpus_pack_vocab /
 * corpus_unpack_vocab). Readers die with exit 3 (file + byte offset) on any
 * structural defect, including a missing totals object (truncated corpus).
 * The reader copies each sentence out of the mapped file and drops the pages it
 * has passed (madvise), so its resident memory stays small on huge corpora. */
#ifndef PROBEXPAN_CORPUS_H
#define PROBEXPAN_CORPUS_H

#include <msgpack.h>
#include <stdint.h>

#include "format/artifact.h"
#include "dataset/dataset.h"
#include "dataset/sentences.h" /* corpus_mention */
#include "text/wordpiece.h"

#define CORPUS_KIND "corpus"
#define CORPUS_SCHEMA 1

typedef struct {
    int64_t sentences, mentions, words, wordpieces, unk;
} corpus_totals;

/* ---- writing ----
 * corpus_create (then the caller's params and inputs), corpus_begin, one
 * corpus_pack_sentence per sentence, corpus_commit. */
artifact_writer *corpus_create(const char *path);
/* Writes the vocabulary and the entity table; returns the packer for the sentences. */
msgpack_packer *corpus_begin(artifact_writer *w, const wp_vocab *v, const entity_table *t);
/* line: 1-based line of the sentence in sentences.json; ids little-endian int32 */
void corpus_pack_sentence(msgpack_packer *pk, int64_t line, int32_t nwords, const int32_t *ids, int32_t nids,
                          const corpus_mention *m, int32_t nm);
/* Writes the closing totals object and commits the artifact. */
void corpus_commit(artifact_writer *w, const corpus_totals *t);
/* The vocabulary object, shared with the samples artifact. */
void corpus_pack_vocab(msgpack_packer *pk, const wp_vocab *v);

/* ---- reading ---- */
typedef struct {
    artifact_reader *r;
    wp_vocab vocab;
    entity_table ents;
    corpus_totals totals;     /* filled when corpus_next returns 0 */
    /* current sentence (valid until the next call) */
    int64_t index;            /* 0-based sentence index */
    int64_t line;
    int32_t nwords, nids, nm;
    int32_t *ids;
    corpus_mention *m;
    size_t ids_cap, m_cap;
    const char *released;     /* mapped pages below this address were dropped */
} corpus_reader;

void corpus_open(corpus_reader *c, const char *path);
/* Next sentence: 1, or 0 after the totals object (which is checked against
 * what was read). */
int corpus_next(corpus_reader *c);
void corpus_close(corpus_reader *c);

/* Reads a vocabulary object written by corpus_pack_vocab. */
/* The dataset RUN_DIR/corpus.mp was tokenized from (its `dataset` param; malloc'd), or NULL
 * when the run folder has no corpus.mp. */
char *corpus_dataset_of_run(const char *run_dir);
void corpus_unpack_vocab(artifact_reader *r, const msgpack_object *o, wp_vocab *v);

#endif
