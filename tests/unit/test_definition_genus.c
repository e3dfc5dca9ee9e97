/* test_definition_genus: the head words of the definition a mention is the subject of
 * (common/model/definition_genus.h) on hand-written sentences — a dictionary's headwords
 * before a colon, a copula, an apposition; conjuncts, wordpieces, hyphens, a cased
 * vocabulary; and the mentions that are no definition's subject; the differentia words after
 * the genus, and a participle that ends a phrase. */
#include <string.h>

#include "check.h"
#include "vocab_ids.h"
#include "model/definition_genus.h"

static const char *const vocab[] = {
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ",", ":", "-", "(", ")", "the", "a", "an", "and", "or",
    "is", "was", "of", "in", "who", "german", "composer", "many", "operas", "capital", "largest", "city",
    "norway", "salt", "lake", "south", "australia", "home", "he", "met", "paris", "compos", "##er", "well",
    "known", "singer", "songwriter", "guitarist", "poet", "not", "The", "A", "Lake", "1865", "danish",
    "richard", "strauss", "republic", "landlocked", "northwestern", "africa", "state", "dakota", "between",
    "europe", "asia", "bordered", "by", "india", "river", "flowing", "into", "sea", "finnish", "red", "bed",
    "##ed", "border", "on"};
#define NV ((int32_t)(sizeof vocab / sizeof *vocab))

/* ids of the space-separated tokens of text into ids (the first "[MASK]" sets *mask). */
static int encode(const char *text, int32_t *ids, int *mask) { return vocab_ids(vocab, NV, text, ids, mask); }

/* The n words of g (of `slots`) as "w1|w2|..." into out (pieces joined as written); the
 * slots past n must be empty. */
static const char *words_text(int32_t (*g)[GENUS_PIECES], int n, int slots, char *out) {
    out[0] = 0;
    for (int w = 0; w < n; w++) {
        if (w) strcat(out, "|");
        for (int p = 0; p < GENUS_PIECES && g[w][p] >= 0; p++) {
            if (p) strcat(out, " ");
            strcat(out, vocab[g[w][p]]);
        }
    }
    for (int w = n; w < slots; w++) CHECK_EQ_INT(g[w][0], -1);
    return out;
}

/* The head words found for the mention of text, as "w1|w2|...". */
static const char *genus_of(const genus_vocab *v, const char *text) {
    static char out[256];
    int32_t ids[64], g[GENUS_WORDS][GENUS_PIECES], d[DIFFERENTIA_WORDS][GENUS_PIECES];
    int mask = -1, len = encode(text, ids, &mask), nd;
    return words_text(g, definition_genus(v, ids, len, mask, g, d, &nd), GENUS_WORDS, out);
}

/* The differentia words found for the mention of text, as "w1|w2|...". */
static const char *differentia_of(const genus_vocab *v, const char *text) {
    static char out[256];
    int32_t ids[64], g[GENUS_WORDS][GENUS_PIECES], d[DIFFERENTIA_WORDS][GENUS_PIECES];
    int mask = -1, len = encode(text, ids, &mask), nd;
    definition_genus(v, ids, len, mask, g, d, &nd);
    return words_text(d, nd, DIFFERENTIA_WORDS, out);
}

static void test_definition_forms(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* a dictionary's headwords, the mention first or among the synonyms */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] , richard strauss : german composer of many operas [SEP]"), "composer");
    CHECK_STR(genus_of(&v, "[CLS] strauss , richard [MASK] : german composer of many operas [SEP]"), "composer");
    /* a copula with an article; conjuncts each give their last word */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] is the capital and largest city of norway [SEP]"), "capital|city");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] was a danish composer ( 1865 ) [SEP]"), "composer");
    /* an apposition with an indefinite article */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] , a salt lake in south australia [SEP]"), "lake");
    /* at most GENUS_WORDS conjuncts; "or" and "," separate them too */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : singer , songwriter or guitarist and poet [SEP]"),
              "singer|songwriter|guitarist");
    /* the phrase ends at the end of the sentence too */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : danish composer [SEP]"), "composer");
    genus_vocab_free(&v);
}

static void test_words_of_pieces(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* a word is its pieces; a hyphen joins two words into one, the next word starts anew */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : german compos ##er [SEP]"), "compos ##er");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a well - known compos ##er [SEP]"), "compos ##er");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a salt - lake [SEP]"), "salt - lake");
    /* the article and copula words of a cased vocabulary */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] is The capital of norway [SEP]"), "capital");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] , A salt Lake in australia [SEP]"), "Lake");
    genus_vocab_free(&v);
}

static void test_not_a_subject(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* the mention is inside a definition, not its subject */
    CHECK_STR(genus_of(&v, "[CLS] city : the home of [MASK] [SEP]"), "");
    /* running text: no colon, no copula with an article */
    CHECK_STR(genus_of(&v, "[CLS] he met [MASK] in paris [SEP]"), "");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] is not the capital [SEP]"), "");
    /* "the" does not open an apposition (", the city" is more often a list) */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] , the city [SEP]"), "");
    /* a copula before the colon: a sentence, not a dictionary's headwords */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] met he and is : composer [SEP]"), "");
    /* the definition starts with a word that ends the phrase: nothing */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : of norway [SEP]"), "");
    /* headwords far from the sentence start are no dictionary's */
    char text[512] = "[CLS]";
    for (int i = 0; i < 30; i++) strcat(text, " he");
    strcat(text, " [MASK] : danish composer [SEP]");
    CHECK_STR(genus_of(&v, text), "");
    /* ids outside the vocabulary end the phrase instead of being read */
    int32_t ids[] = {2, 4, 6, 21, 999, 29, 3}, g[GENUS_WORDS][GENUS_PIECES], d[DIFFERENTIA_WORDS][GENUS_PIECES];
    int nd;
    CHECK_EQ_INT(definition_genus(&v, ids, 7, 1, g, d, &nd), 1);
    CHECK_EQ_INT(g[0][0], 21);
    genus_vocab_free(&v);
}

static void test_differentia(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* the head of the prepositional phrase after the genus */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : a landlocked republic in northwestern africa [SEP]"), "africa");
    /* two phrases, the first one's object itself a phrase's head */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : capital of the state of south dakota [SEP]"), "state|dakota");
    /* conjuncts: every head */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] , a sea between europe and asia [SEP]"), "europe|asia");
    /* a third phrase is not read; nor one a relative word opens */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] is the capital of norway in europe on asia [SEP]"), "norway|europe");
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : german composer who met richard strauss in paris [SEP]"), "");
    /* the genus is not a differentia, and running text has neither */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : danish composer [SEP]"), "");
    CHECK_STR(differentia_of(&v, "[CLS] he met [MASK] in paris [SEP]"), "");
    /* a participle followed by a preposition ends the object; the phrase after it is read */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : a republic in asia bordered by india [SEP]"), "asia|india");
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : a republic in asia border ##ed by india [SEP]"), "asia|india");
    /* a usage label opening the definition: no genus phrase, no differentia */
    CHECK_STR(differentia_of(&v, "[CLS] [MASK] : ( german composer ) the capital of norway [SEP]"), "");
    genus_vocab_free(&v);
}

static void test_participles_and_headwords(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* a participle after the head, followed by a preposition or an article, ends the phrase */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a river flowing into the sea [SEP]"), "river");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a river flowing the sea [SEP]"), "river");
    /* not without a preposition after it, nor at the phrase's start, nor a short word ("red") */
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a landlocked republic [SEP]"), "republic");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a sea red in europe [SEP]"), "red");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] : a river flowing sea [SEP]"), "sea");
    /* the object of a preposition among the headwords is not defined */
    CHECK_STR(genus_of(&v, "[CLS] paris , capital of [MASK] : the capital and largest city of norway [SEP]"), "");
    /* a name modifying a headword named after the genus is not defined; one before another word is */
    CHECK_STR(genus_of(&v, "[CLS] paris , [MASK] capital : the capital and largest city of norway [SEP]"), "");
    CHECK_STR(differentia_of(&v, "[CLS] paris , [MASK] capital : the capital of norway [SEP]"), "");
    CHECK_STR(genus_of(&v, "[CLS] [MASK] composer : the capital of norway [SEP]"), "capital");
    genus_vocab_free(&v);
}

TEST_MAIN_BEGIN("test_definition_genus")
RUN(test_definition_forms);
RUN(test_words_of_pieces);
RUN(test_not_a_subject);
RUN(test_differentia);
RUN(test_participles_and_headwords);
TEST_MAIN_END
