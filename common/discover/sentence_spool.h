/* sentence_spool: tokenised sentences and their article ids in a temporary
 * file, written once and replayed in order, as often as needed — annotate --discover must read the
 * whole text before it knows the names to find in it, and stdin cannot be read
 * twice. Disk use is linear in the text, memory constant.
 *
 * File format (private): "A<article id>\n" whenever the id changes (newlines in
 * it become spaces), then one "S<tok>\t<tok>...\n" line per sentence (tokens
 * hold no white space, sentence_split.h). The file is a base/tempname file: a
 * program dying removes it, a later one removes it if its program was killed. */
#ifndef PROBEXPAN_SENTENCE_SPOOL_H
#define PROBEXPAN_SENTENCE_SPOOL_H

typedef struct sentence_spool sentence_spool;

/* A new spool file in folder `dir` named after `base`. */
sentence_spool *sentence_spool_create(const char *dir, const char *base);
void sentence_spool_put(sentence_spool *s, const char *article, char *const *tokens, int n);
/* Calls fn for every sentence put, in order (tokens valid until fn returns); may be called again. */
void sentence_spool_replay(sentence_spool *s, void (*fn)(void *ctx, const char *article, char **tokens, int n), void *ctx);
/* Removes the file and frees the spool. */
void sentence_spool_remove(sentence_spool *s);

#endif
