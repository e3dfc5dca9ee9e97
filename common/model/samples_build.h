/* samples_build: the `samples` artifact (artifacts/samples.h, schemas/samples.md) from a corpus
 * artifact — what `build-samples` runs.
 *
 * One masked sample per (entity, mention): the sentence's wordpieces with the mention's span
 * replaced by one [MASK], wrapped in [CLS] ... [SEP] (docs/design.md §3 "Samples"). Sentences
 * over max_words words and samples over max_wordpieces are dropped, then entities with fewer
 * than min_samples samples; max_per_entity > 0 keeps a seeded random subset of an entity's
 * samples. Two streaming passes over the corpus: samples_build_scan decides (pass 1), the
 * caller creates the writer with the vocabulary size and records its params,
 * samples_build_write lays out and writes the tokens (pass 2). Memory: 16 bytes per mention
 * kept by pass 1. A mention of an eid outside the corpus's entity table, more than 2^24
 * mentions in a sentence, or no entity left: exit 3 naming the corpus. */
#ifndef PROBEXPAN_SAMPLES_BUILD_H
#define PROBEXPAN_SAMPLES_BUILD_H

#include <stdint.h>

#include "artifacts/samples.h"

typedef struct {
    int max_words;      /* drop sentences of more words (official code: 150) */
    int max_wordpieces; /* drop samples of more wordpieces, [CLS] and [SEP] included (512) */
    int min_samples;    /* drop entities with fewer samples (2) */
    int max_per_entity; /* keep at most this many random samples per entity (0 = all) */
    uint64_t seed;      /* of that draw */
} samples_build_opts;
samples_build_opts samples_build_defaults(void);

typedef struct samples_build samples_build;

/* Pass 1: reads the corpus, keeps the candidate samples, drops and caps entities. */
samples_build *samples_build_scan(const char *corpus_path, const samples_build_opts *o);
/* The corpus's vocabulary size, for samples_create. */
int32_t samples_build_vocab_size(const samples_build *b);

#define SAMPLES_BUILD_STATS 16
/* What the build kept and dropped: the artifact's closing map (samples_commit), in this order:
 * entities_kept, entities_dropped, entities_dropped_few_samples, entities_never_mentioned,
 * entities_capped, sentences, sentences_too_long, mentions, samples,
 * samples_dropped_long_sentence, samples_dropped_over_max_wordpieces, tokens, length_p50,
 * length_p90, length_p99, length_max. */
typedef struct {
    samples_stat stat[SAMPLES_BUILD_STATS];
    int64_t entities, samples, tokens, sentences; /* the closing line's four of them */
    uint64_t bytes;                               /* of the committed artifact */
} samples_build_report;

/* Pass 2: lays out the sample table in sw (from samples_create, its params recorded), writes
 * the token stream, commits the artifact, logs the counts and fills `report`. Frees b. */
void samples_build_write(samples_build *b, samples_writer *sw, samples_build_report *report);

#endif
