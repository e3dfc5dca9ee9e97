/* hearst_heads: the class nouns that running text puts beside names — Hearst's (1992)
 * lexico-syntactic patterns and a title before a name — read around a span of mentions (one
 * mention, or a coordination list: coordination.h):
 *   "exporters such as Japan , West Germany and Britain"  -> exporters
 *   "such exporters as Japan"                              -> exporters
 *   "grain exporters , including Canada and Australia"     -> exporters
 *   "Britain , France and other countries"                 -> countries
 *   "Treasury Secretary James Baker"                       -> secretary (a title: the word before
 *                                                             a name after another word)
 * A definition's genus ("X : German composer", "X is a ...", "X , a ...") is definition_genus.h's;
 * these are the patterns of prose where no definition states what a thing is.
 *
 * Works on wordpiece ids with the roles and cues of a genus_vocab (definition_genus.h); words
 * as there (a first piece and its "##" pieces). Cost: O(GENUS_WORDS x phrase) per span. */
#ifndef PROBEXPAN_HEARST_HEADS_H
#define PROBEXPAN_HEARST_HEADS_H

#include <stdint.h>

#include "model/definition_genus.h"

#define HEAD_WORDS 4 /* class nouns kept per mention */

/* The class nouns of the patterns around a span whose text before it ends at before[start - 1]
 * (a sample of its first mention: start = that sample's mask) and whose text after it starts
 * at after[end + 1] (a sample of its last mention, end = its mask; after has after_len ids)
 * into out (words -1 padded, HEAD_WORDS of them); returns how many. */
int hearst_span_heads(const genus_vocab *v, const int32_t *before, int start, const int32_t *after, int after_len,
                      int end, int32_t out[HEAD_WORDS][GENUS_PIECES]);
/* The title before the mention at ids[mask] ("secretary" in "treasury secretary [MASK]": a
 * word that may be a head, after another such word; not a verb of speech) into out; returns
 * 1, or 0 when there is none. */
int hearst_title(const genus_vocab *v, const int32_t *ids, int mask, int32_t out[GENUS_PIECES]);

#endif
