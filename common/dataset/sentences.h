/* sentences: parser of one line of a dataset's sentences.json (docs/design.md §2),
 * used by tokenize: {"tokens": [str, ...], "entityMentions": [{"start": i,
 * "end": j, "entityId": eid}, ...], ...} (other keys ignored; start..end is an
 * inclusive word span).
 *
 * sentence_parse validates the line (UTF-8, one JSON object, the two arrays,
 * every mention's span inside the sentence and its eid among opts->eid_row's
 * keys, every token a string), then either counts its words (opts->vocab ==
 * NULL: the --learn-vocab pass, words as wp_basic_words gives them, added to
 * *counts) or encodes it with opts->vocab. Each word is encoded on its own, so
 * a mention's word span maps to a contiguous wordpiece span [wp_start, wp_end).
 * A mention whose words produce no wordpiece at all (tokens such as "", " ",
 * "\u200b", control characters) would get an empty span, over which a sample
 * would put its [MASK] over nothing: such a mention is dropped and counted in
 * `dropped` (schemas/corpus.md); the spans in `m` are never empty.
 *
 * A mention is embedded in a longer name when the word after its span starts
 * with a capital and is letters only, not a weekday or month name ("Baltimore"
 * of "Baltimore Gas and Electric Co", "U.S." of "U.S. Treasury"): its right
 * context is the rest of that name, not its entity's. `embedded` says which
 * mentions are (both modes); in encoding mode the embedded mentions of the
 * entities opts->leave_embedded marks are left out, counted in `left_out`.
 *
 * Thread-safe: threads share one sentence_opts and each uses its own
 * `sentence` (jansson needs json_object_seed() called before the threads). */
#ifndef PROBEXPAN_SENTENCES_H
#define PROBEXPAN_SENTENCES_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "text/wordpiece.h"

/* One entity mention of a tokenized sentence: the wordpiece span [wp_start, wp_end) of
 * the sentence's ids, never empty (the corpus artifact stores them as they are, and its
 * reader dies on an empty one: artifacts/corpus.h). */
typedef struct {
    int64_t eid;
    int32_t wp_start, wp_end;
} corpus_mention;

typedef struct {
    const wp_vocab *vocab;      /* encode with this vocabulary; NULL = count words */
    int flags;                  /* WP_* flags of wordpiece.h */
    const intmap *eid_row;      /* the known eids (entity2id.txt) as keys, their entity rows as values */
    const uint8_t *leave_embedded; /* per entity row: 1 = leave its embedded mentions out; NULL = none */
} sentence_opts;

/* The last parsed line; buffers are reused across calls (zero-initialise,
 * release with sentence_free). */
typedef struct {
    int32_t nwords;             /* words (`tokens`) of the sentence */
    int32_t nm;                 /* mentions kept (counting mode: all of them) */
    uint8_t *embedded;          /* per mention of the line (before any is dropped), 1 = embedded in a longer name */
    int32_t left_out;           /* encoding mode: embedded mentions left out (opts->leave_embedded) */
    /* encoding mode only: */
    wp_ids ids;                 /* the sentence's wordpiece ids, no [CLS]/[SEP] */
    corpus_mention *m;          /* nm mentions, input order, non-empty wordpiece spans */
    int32_t dropped;            /* mentions dropped: their words give no wordpiece */
    int64_t unk;                /* [UNK] ids among ids */
    /* scratch */
    int32_t *word_start;        /* wordpiece index where word i starts, [nwords + 1] */
    size_t word_cap, m_cap;
} sentence;

/* Parses line [line, line + len) (need not be NUL-terminated; a NUL byte is
 * invalid JSON). Returns 1 with *s filled, 0 for a blank line (spaces and tabs
 * only), or -1 with the reason in err, e.g. "entityMentions[2]: entityId 7 is
 * not in entity2id.txt" (the caller adds file and line). `counts` receives the
 * word counts in counting mode (NULL: not counted) and is unused otherwise. */
int sentence_parse(const sentence_opts *opts, const char *line, size_t len, sentence *s, strmap *counts, char *err,
                   size_t errlen);
void sentence_free(sentence *s);

#endif
