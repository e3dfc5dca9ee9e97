/* wordpiece: the uncased BERT tokenizer (HuggingFace BertTokenizer for
 * bert-base-uncased, do_lower_case=True) and WordPiece vocabulary learning.
 *
 * Encoding, in HuggingFace's order:
 *  1. special-token literals ([PAD] [UNK] [CLS] [SEP] [MASK], exact case) are cut
 *     out of the text and map to their ids (HF's added-token split), as is a
 *     whitespace token that equals one after step 2 (HF's never_split);
 *     WP_PLAIN_SPECIALS treats them as ordinary text ("[", "mask", "]");
 *  2. clean text: drop U+0000, U+FFFD and the characters of categories Cc, Cf, Cs
 *     and Co except \t \n \r (unassigned code points, Cn, are kept); whitespace
 *     (\t \n \r, ' ', Zs) separates words, as do Zl/Zp (Python's str.split());
 *  3. CJK ideographs (the ranges of HF's _is_chinese_char) become words of their own;
 *  4. lowercase (Unicode simple lowercase plus Python's final-sigma rule), NFD,
 *     drop category Mn (accents);
 *  5. split off punctuation (category P*, and ASCII 33-47, 58-64, 91-96, 123-126)
 *     as one-character words;
 *  6. greedy longest-match WordPiece per word, continuations prefixed "##"; a word
 *     of more than 100 characters, or one with an unmatched remainder, is [UNK].
 * Unicode properties come from utf8proc (its Unicode version, not HF's frozen one).
 *
 * Vocabulary learning (wp_learn): BPE-style merges over word counts, the way
 * HuggingFace tokenizers' WordPieceTrainer works: words are split into characters
 * (non-initial ones carry "##"), the most frequent adjacent pair is merged
 * (ties: lowest token ids), repeatedly, until the vocabulary has N entries or no
 * pair occurs twice. Output order: [PAD] [UNK] [CLS] [SEP] [MASK] (ids 0-4), the
 * characters (by code point, initial form then "##" form), then merges in order.
 * Deterministic: the same word counts give the same vocabulary. */
#ifndef PROBEXPAN_WORDPIECE_H
#define PROBEXPAN_WORDPIECE_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"

#define WP_MAX_WORD_CHARS 100

typedef struct { int32_t pad, unk, cls, sep, mask; } wp_specials;

typedef struct {
    int32_t n;            /* vocabulary size */
    char **tok;           /* tok[id] */
    strmap map;           /* token -> id (the last line wins for duplicates, as in HF) */
    wp_specials sp;       /* -1 when a special token is absent */
    size_t max_tok_bytes; /* longest token, in bytes */
} wp_vocab;

/* Loads vocab.txt (line i = token i). Dies with exit 3 when the file is missing,
 * has no [UNK], or a line holds invalid UTF-8 or a NUL byte (naming line and byte). */
void wp_vocab_load(wp_vocab *v, const char *path);
/* Builds a vocabulary from n tokens (copied). */
void wp_vocab_from_tokens(wp_vocab *v, char *const *tokens, int32_t n);
void wp_vocab_free(wp_vocab *v);
/* Writes the vocabulary as vocab.txt, atomically (temp file + rename). */
void wp_vocab_write(const wp_vocab *v, const char *path);
int32_t wp_vocab_id(const wp_vocab *v, const char *tok, size_t len); /* -1 if absent */

enum {
    WP_PLAIN_SPECIALS = 1,  /* special-token literals are ordinary text */
    WP_WHOLE_WORDS = 2,     /* official ProbExpan encoding: the text is ONE word, lowercased
                               (Python str.lower()) and looked up whole; [UNK] if absent */
};

typedef struct { int32_t *id; size_t n, cap; } wp_ids;
void wp_ids_push(wp_ids *a, int32_t id);
void wp_ids_free(wp_ids *a);

/* Tokenizes UTF-8 text and appends the ids to out. Returns the number of ids
 * appended, or -1 when the text is not valid UTF-8 (*bad_byte = its offset;
 * out is then unchanged). Counts [UNK]s produced into *unk when unk != NULL. */
long wp_encode(const wp_vocab *v, const char *text, size_t len, int flags, wp_ids *out,
               size_t *bad_byte, int64_t *unk);

/* Runs steps 1-5 only and calls fn for each resulting word (UTF-8, NUL-terminated
 * scratch copy). Special literals are skipped (unless WP_PLAIN_SPECIALS makes
 * them text). Returns 0, or -1 on invalid UTF-8. */
typedef void (*wp_word_fn)(void *ctx, const char *word, size_t len);
int wp_basic_words(const char *text, size_t len, int flags, wp_word_fn fn, void *ctx, size_t *bad_byte);

/* Encoding uses per-thread scratch buffers; a worker thread frees its own with
 * this before it exits (the main thread's go at exit). */
void wp_thread_done(void);

/* Offset of the first invalid UTF-8 byte, or -1 when the text is valid. */
long wp_utf8_invalid_at(const char *text, size_t len);

/* Learns a vocabulary of at most n_target tokens from word counts (words as given
 * by wp_basic_words, counts > 0). Words over 100 characters are ignored. */
void wp_learn(wp_vocab *out, const strmap *word_counts, int32_t n_target);

#endif
