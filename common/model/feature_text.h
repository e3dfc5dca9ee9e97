/* feature_text: the words a feature of the corpus index stands for. A feature is stored as a
 * hash of its ids (common/model/pattern_model.h), so its text is found again in the samples
 * the index was built from: the samples of an entity holding the feature show it.
 *   n-gram pattern: "l2 l1 _ r1" ("_" for the mention, "∅" past the sentence's ends)
 *   bag word:       the nearby word
 *   genus word:     the head word of the definition the mention is the subject of
 * Wordpieces are joined ("##" pieces glued to the previous one; a "##" piece that starts the
 * text, a bag word that is the end of a word, reads "…piece"). Read-only after
 * feature_text_open: any number of threads may call feature_text_find at once. */
#ifndef PROBEXPAN_FEATURE_TEXT_H
#define PROBEXPAN_FEATURE_TEXT_H

#include <stdint.h>

#include "artifacts/index.h"

#define FEATURE_TEXT 256 /* bytes of a feature's text, NUL included (longer is cut) */

typedef struct feature_text feature_text;

/* Opens (mmap) the samples artifact at samples_path; it must be the one index x was built
 * from (its sha256 recorded in the index, same entities and samples), else exit 3 naming it.
 * x must outlive the result. */
feature_text *feature_text_open(const corpus_index *x, const char *samples_path);
void feature_text_close(feature_text *t);

/* The text of index features feats[0..n) as entity row e's samples show them, into
 * text[i]; a feature none of e's samples shows gets "". Cost: O(e's samples). */
void feature_text_find(const feature_text *t, int64_t e, const int64_t *feats, int n, char (*text)[FEATURE_TEXT]);

#endif
