/* name_head: the head word of a multi-word entity name — what a name is made of says what it
 * is:
 *   "New York Stock Exchange"                      -> exchange
 *   "Ministry of International Trade and Industry" -> ministry  (the word before "of")
 *   "Texas Instruments Inc ."                      -> inc       (trailing punctuation skipped)
 *   "Japan"                                        -> none      (one word: the name itself)
 * The head is the last word before the name's first function word ("of", "for", ...), or its
 * last word; a name of one word has none (its word is the entity, not a kind of it).
 *
 * Works on the name's wordpieces with the roles of a genus_vocab (definition_genus.h). Cost:
 * O(name length). */
#ifndef PROBEXPAN_NAME_HEAD_H
#define PROBEXPAN_NAME_HEAD_H

#include <stdint.h>

#include "model/definition_genus.h"

/* The head of the name ids[0..n) (its wordpieces, no [CLS]/[SEP]) into out (-1 padded);
 * returns 1, or 0 when the name has no head. */
int name_head(const genus_vocab *v, const int32_t *ids, int n, int32_t out[GENUS_PIECES]);

/* The titles of a name in a longer name that ends with it: the words of longer[0..prefix) (the
 * part before the shorter name; "finance minister kiichi" of "finance minister kiichi miyazawa"
 * for "miyazawa"), the nearest first, added to out[0..n) unless there already, up to max words
 * in all; returns the new count. */
int name_titles_add(const genus_vocab *v, const int32_t *longer, int prefix, int32_t (*out)[GENUS_PIECES], int n, int max);

#endif
