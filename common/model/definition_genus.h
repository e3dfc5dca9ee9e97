/* definition_genus: the class words of a definition whose subject is the mention — the genus
 * of a genus-differentia definition, as a dictionary or an encyclopedia states what a thing
 * is:
 *   "Strauss , Richard Strauss : German composer of many operas"  -> composer
 *   "Oslo is the capital and largest city of Norway"              -> capital, city
 *   "Eyre , a salt lake in South Australia"                       -> lake
 * A mention is a definition's subject when it is among the names before a sentence's first
 * ":" (a dictionary's headword and its synonyms, the gloss after the colon), or when "is" /
 * "was" and an article follow it, or "," and "a" / "an". The definition's head words are the
 * last word of each conjunct ("and", "or", ",") of its first phrase, which ends at a
 * preposition, a relative word, a verb, a number or punctuation; articles are skipped. These
 * are Hearst's "is-a" patterns read without a part-of-speech tagger: the class noun of a
 * definition is what separates entities of one kind (composers, lakes) from those of a
 * neighbouring one (conductors, rivers) that share the rest of their contexts.
 *
 * Works on wordpiece ids (uncased or cased vocabularies: the word lists are compared in lower
 * case); a word is its first piece and the "##" pieces that follow it, at most GENUS_PIECES.
 * Cost: O(sentence length) per mention, O(vocabulary) for the word classes. */
#ifndef PROBEXPAN_DEFINITION_GENUS_H
#define PROBEXPAN_DEFINITION_GENUS_H

#include <stdint.h>

#define GENUS_WORDS 3  /* head words kept per mention */
#define GENUS_PIECES 4 /* wordpieces kept per head word */

/* The role of every id of a vocabulary in a definition. */
typedef struct {
    uint8_t *role; /* [n] */
    int32_t n;
} genus_vocab;

/* The roles of tokens[0..n) (a wordpiece vocabulary, id -> text). */
void genus_vocab_init(genus_vocab *v, const char *const *tokens, int32_t n);
void genus_vocab_free(genus_vocab *v);

/* The head words of the definition whose subject is the mention at ids[mask] (ids[0..len): a
 * sample's wordpieces, [CLS] first, [MASK] at mask) into out: word i is out[i][0..] padded with
 * -1. Returns how many (0: the mention is no definition's subject). */
int definition_genus(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t out[GENUS_WORDS][GENUS_PIECES]);

#endif
