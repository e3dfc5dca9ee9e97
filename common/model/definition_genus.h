/* definition_genus: the class words of a definition whose subject is the mention — the genus
 * of a genus-differentia definition, as a dictionary or an encyclopedia states what a thing
 * is:
 *   "Strauss , Richard Strauss : German composer of many operas"  -> composer
 *   "Oslo is the capital and largest city of Norway"              -> capital, city
 *   "Eyre , a salt lake in South Australia"                       -> lake
 * A mention is a definition's subject when it is among the names before a sentence's first
 * ":" (a dictionary's headword and its synonyms, the gloss after the colon), or when "is" /
 * "was" and an article follow it, or "," and "a" / "an"; the object of a preposition in a
 * headword is none, nor a name that modifies a headword named after the genus ("Helsinki ,
 * capital of Finland , Finnish capital : the capital ..." defines neither Finland nor Finnish). The definition's head words are the
 * last word of each conjunct ("and", "or", ",") of its first phrase, which ends at a
 * preposition, a relative word, a verb, a number or punctuation; articles are skipped. These
 * are Hearst's "is-a" patterns read without a part-of-speech tagger: the class noun of a
 * definition is what separates entities of one kind (composers, lakes) from those of a
 * neighbouring one (conductors, rivers) that share the rest of their contexts.
 *
 * The differentia: what sets the thing apart among others of its genus, read as the heads of
 * the noun phrases of at most two prepositions after the genus phrase:
 *   "Sudan : a landlocked republic in northwestern Africa"        -> africa
 *   "Pierre : capital of the state of South Dakota ; ..."          -> state, dakota
 *   "Black Sea : a sea between Europe and Asia"                     -> europe, asia
 * A participle after a noun, followed by a preposition or an article, ends a phrase: "in
 * southern Asia bordered by India" -> asia, india ("a river flowing into ..." -> river).
 * Sub-classes of one genus (African and Asian countries, all "republic"; state capitals among
 * the capitals) share a differentia word where their genus is shared by their siblings.
 *
 * Works on wordpiece ids (uncased or cased vocabularies: the word lists are compared in lower
 * case); a word is its first piece and the "##" pieces that follow it, at most GENUS_PIECES.
 * Cost: O(sentence length) per mention, O(vocabulary) for the word classes. */
#ifndef PROBEXPAN_DEFINITION_GENUS_H
#define PROBEXPAN_DEFINITION_GENUS_H

#include <stdint.h>

#define GENUS_WORDS 3  /* head words kept per mention */
#define GENUS_PIECES 4 /* wordpieces kept per head word */
#define DIFFERENTIA_WORDS 4 /* differentia words kept per mention */

/* The role of every id of a vocabulary in a definition, and the cue words of the other
 * class patterns of running text (hearst_heads.h). */
typedef struct {
    uint8_t *role; /* [n] */
    uint8_t *cue;  /* [n] genus_cue */
    uint8_t *participle; /* [n] 1: the id ends a word as "-ed" or "-ing" do */
    int32_t n;
} genus_vocab;

/* Words that announce a class noun around a mention outside definitions (hearst_heads.h). */
typedef enum {
    CUE_NONE,
    CUE_SUCH,      /* "such" (as in "Y such as X") */
    CUE_AS,        /* "as" */
    CUE_INCLUDING, /* "including", "especially", "particularly": "Y including X" */
    CUE_OTHER,     /* "other": "X and other Y" */
    CUE_SPEECH     /* "said", "says", "told", ...: a verb that precedes names, never a title */
} genus_cue;

/* The roles of tokens[0..n) (a wordpiece vocabulary, id -> text). */
void genus_vocab_init(genus_vocab *v, const char *const *tokens, int32_t n);
void genus_vocab_free(genus_vocab *v);

/* The head words of the definition whose subject is the mention at ids[mask] (ids[0..len): a
 * sample's wordpieces, [CLS] first, [MASK] at mask) into genus: word i is genus[i][0..] padded
 * with -1; and, read on from where the genus phrase ends, its differentia words into
 * differentia the same way, *ndifferentia how many. Returns how many head words (0: the mention
 * is no definition's subject, and then no differentia either). */
int definition_genus(const genus_vocab *v, const int32_t *ids, int len, int mask, int32_t genus[GENUS_WORDS][GENUS_PIECES],
                     int32_t differentia[DIFFERENTIA_WORDS][GENUS_PIECES], int *ndifferentia);

/* The head words of the noun phrase starting at ids[start] (read as a definition's first
 * phrase: the last word of each conjunct, articles skipped, up to a preposition, a verb, a
 * number or punctuation) into out as above; returns how many. */
int genus_phrase_heads(const genus_vocab *v, const int32_t *ids, int len, int start, int32_t out[GENUS_WORDS][GENUS_PIECES]);
/* The word (a first piece and its "##" pieces) that ends at ids[end], when it is a word that
 * may be a head (no stop word, number or punctuation), into out (-1 padded; at most
 * GENUS_PIECES pieces: the word's first ones); returns its first position, or -1. */
int genus_word_ending_at(const genus_vocab *v, const int32_t *ids, int end, int32_t out[GENUS_PIECES]);
/* The cue of an id (CUE_NONE outside the vocabulary). */
genus_cue genus_cue_of(const genus_vocab *v, int32_t id);
/* Whether ids is "and" or "or", "," (separators of a coordination list). */
int genus_is_conjunction(const genus_vocab *v, int32_t id);
int genus_is_comma(const genus_vocab *v, int32_t id);
/* Whether id is punctuation, a number or a special token such as [SEP] (it ends any phrase). */
int genus_ends_phrase(const genus_vocab *v, int32_t id);
/* Whether id ends a definition's phrase as a function word ("of", "for", "who", ...). */
int genus_is_stop(const genus_vocab *v, int32_t id);

#endif
