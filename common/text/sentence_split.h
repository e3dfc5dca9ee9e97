/* sentence_split: word tokenisation and sentence splitting of plain UTF-8 text,
 * streamed, for turning a user's corpus into dataset sentences (annotate).
 *
 * Tokens (Penn-Treebank-like, original case kept): text is split at white space
 * (Unicode Zs and ASCII controls included); opening brackets/quotes and currency
 * signs are split off the front of a word, closing brackets/quotes and
 * punctuation (, ; : ! ? % ...) off its end; runs of ! ? and "..." stay one
 * token; the clitics 's 're 've 'll 'd 'm n't become tokens of their own
 * ("Elizabeth's" -> Elizabeth 's, "don't" -> do n't); "--" and em/en dashes
 * separate words. A final "." is kept inside abbreviations: a known list (Dr.
 * Mr. St. Gen. Inc. etc. e.g. Jan. ...), single capital initials ("J.") and
 * dotted letter groups ("U.S.", "Ph.D.").
 *
 * Sentences: a sentence ends after . ! ? ... (plus any closing quotes or
 * brackets attached to them) unless the next word starts with a lower-case
 * letter; after "etc." "Inc." "Ltd." "Corp." only when the next word starts
 * with a capital; other abbreviations never end a sentence. A blank line
 * (paragraph break) and the end of a document always end a sentence.
 *
 * Memory is bounded: a sentence longer than max_tokens is not stored, only
 * counted, and a run of more than 4096 bytes without white space is cut. */
#ifndef PROBEXPAN_SENTENCE_SPLIT_H
#define PROBEXPAN_SENTENCE_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/* Receives one sentence: n >= 1 NUL-terminated tokens, valid until return. */
typedef void (*sentence_fn)(void *ctx, char **tokens, int n);

typedef struct splitter splitter;

/* max_tokens >= 1: longer sentences are dropped and counted. */
splitter *splitter_new(int max_tokens, sentence_fn fn, void *ctx);
/* Feeds text of the current document; the pieces must be valid UTF-8 and end
 * on code-point boundaries, otherwise any split is allowed. */
void splitter_feed(splitter *s, const char *text, size_t len);
/* Ends the current document: flushes the last sentence. */
void splitter_end_document(splitter *s);
/* Sentences dropped so far for having more than max_tokens tokens. */
int64_t splitter_overlong(const splitter *s);
void splitter_free(splitter *s);

/* Tokenises text (valid UTF-8, NUL-terminated) without sentence splitting, by
 * the same rules. Returns the token count; *tokens is one malloc'd block (the
 * pointer array followed by the strings): free(*tokens) releases everything. */
int word_tokenize(const char *text, char ***tokens);

#endif
