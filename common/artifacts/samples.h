/* samples: writer and reader of the `samples` artifact (schemas/samples.md) — the masked
 * training/inference samples of every entity, written by build-samples.
 *
 * Entity index: rows 0..E-1, row i <-> eid (and name); every later stage uses
 * these rows. Samples 0..S-1 are sorted by entity row: entity i owns samples
 * [first, first + n) from samples_range(). Each sample is one sentence with one
 * mention replaced by [MASK], wrapped in [CLS] ... [SEP]: `length` wordpiece ids,
 * [MASK] at position `mask_pos` (0-based; position 0 is [CLS]).
 *
 * The file is mmap'd: opening reads only the entity table and the small vocab;
 * sample j's ids are read on demand (O(1), no other entity's data is touched),
 * so a trainer can draw random samples of one entity cheaply. All getters are
 * thread-safe (read-only). A malformed file dies with exit 3 (file + byte). */
#ifndef PROBEXPAN_SAMPLES_H
#define PROBEXPAN_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "dataset/dataset.h"
#include "format/artifact.h"
#include "text/wordpiece.h"

#define SAMPLES_KIND "samples"
#define SAMPLES_SCHEMA 1

/* ---- writing ----
 * samples_create (then the caller's params and inputs on samples_artifact), samples_plan,
 * samples_place once per sample in the order its tokens will be written, samples_begin,
 * samples_write_masked once per sample in that same order, samples_commit. The tokens
 * stream out in chunks of at most 1 GiB of whole samples; memory is the sample table. */
typedef struct samples_writer samples_writer;
samples_writer *samples_create(const char *path, int32_t vocab_size);
artifact_writer *samples_artifact(samples_writer *w);
/* Entity row r owns samples [first[r], first[r + 1]) (E + 1 values, copied). */
void samples_plan(samples_writer *w, int64_t E, const int64_t *first);
/* The next sample of entity row `row`: `length` wordpieces incl. [CLS] [MASK] [SEP],
 * [MASK] at `mask`, from corpus sentence `sentence`. */
void samples_place(samples_writer *w, int64_t row, int32_t length, int32_t mask, int64_t sentence);
/* Writes the vocabulary, the entity index (the rows of t with keep[i] >= 0, in order; E of
 * them), the sample table and the token-stream descriptor. */
void samples_begin(samples_writer *w, const wp_vocab *v, const entity_table *t, const int64_t *keep);
/* The next placed sample's tokens: [CLS] a[0..na) [MASK] b[0..nb) [SEP]. */
void samples_write_masked(samples_writer *w, const int32_t *a, int32_t na, const int32_t *b, int32_t nb);
int64_t samples_planned_tokens(const samples_writer *w);
/* Length percentile q in (0, 1] of the placed samples (1.0: the longest). */
int samples_length_percentile(const samples_writer *w, double q);
/* The closing statistics object {end: "samples", key: value ...} (schemas/samples.md). */
typedef struct {
    const char *key;
    int64_t value;
} samples_stat;
/* Writes the statistics and commits; returns the artifact's size in bytes. */
uint64_t samples_commit(samples_writer *w, const samples_stat *stats, size_t n);

/* ---- reading ---- */
typedef struct samples samples;

samples *samples_open(const char *path);
void samples_close(samples *s);
const char *samples_path(const samples *s);

/* ---- entity index ---- */
int64_t samples_entities(const samples *s);                /* E */
int64_t samples_eid(const samples *s, int64_t row);        /* dataset eid of row */
const char *samples_name(const samples *s, int64_t row);   /* entity name (entity2id.txt) */
int64_t samples_row_of_eid(const samples *s, int64_t eid); /* row, or -1 if not kept */
/* The entity index as an entity_table (row i <-> eid, name; copies; entity_table_free). */
void samples_entity_table(const samples *s, entity_table *t);
/* Entity row's samples are [*first, *first + *n); n >= 2. */
void samples_range(const samples *s, int64_t row, int64_t *first, int64_t *n);

/* ---- samples ---- */
int64_t samples_count(const samples *s);                   /* S */
int samples_max_length(const samples *s);                  /* longest sample (<= 512) */
int samples_length(const samples *s, int64_t j);
int samples_mask_pos(const samples *s, int64_t j);
int64_t samples_entity(const samples *s, int64_t j);       /* row owning sample j */
/* Sentence index in the corpus (0-based line order of sentences.json); two
 * samples with the same value come from the same sentence. */
int64_t samples_sentence(const samples *s, int64_t j);
/* Copies sample j's wordpiece ids into out (room for samples_max_length());
 * returns the length. */
int samples_tokens(const samples *s, int64_t j, int32_t *out);

/* ---- vocabulary (the tokenizer's, carried along from the corpus) ---- */
int32_t samples_vocab_size(const samples *s);
const char *samples_vocab_token(const samples *s, int32_t id);
typedef struct { int32_t pad, unk, cls, sep, mask; } samples_special_ids;
samples_special_ids samples_specials(const samples *s);
/* Writes the vocabulary as vocab.txt (line i = token i), e.g. into a model dir. */
void samples_write_vocab(const samples *s, const char *path);
/* Dies with exit 3 naming the line when the vocab.txt at `path` (e.g. a model's) differs
 * from the samples' vocabulary on one of its first samples_vocab_size() lines; a missing
 * file is accepted (nothing to compare). */
void samples_check_vocab_file(const samples *s, const char *path);

#endif
