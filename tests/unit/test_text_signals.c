/* test_text_signals: the class signals of running text on hand-written sentences —
 * coordination lists among a sentence's mentions (common/model/coordination.h), the class
 * nouns of Hearst's patterns and titles (hearst_heads.h) and the head word of an entity's
 * name (name_head.h); and the sentences that have none. */
#include <string.h>

#include "check.h"
#include "vocab_ids.h"
#include "model/coordination.h"
#include "model/hearst_heads.h"
#include "model/name_head.h"

static const char *const vocab[] = {
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ",", "and", "or", "the", "a", "of", "in", "such", "as",
    "including", "other", "said", "japan", "west", "germany", "britain", "exporters", "countries", "treasury",
    "secretary", "james", "baker", "met", "capital", "houston", "texas", "new", "york", "stock", "exch", "##ange",
    "inc", ".", "bank", "ministry", "trade", "1987", "grain", "buy", "banks", "brokers", "economist", "finance", "minister", "kiichi", "miyazawa"};
#define NV ((int32_t)(sizeof vocab / sizeof *vocab))

/* ids of the space-separated tokens of text into ids (the first "[MASK]" sets *mask). */
static int encode(const char *text, int32_t *ids, int *mask) { return vocab_ids(vocab, NV, text, ids, mask); }

/* words[0..n) as "w1|w2" (pieces joined by spaces). */
static const char *words_text(const int32_t (*w)[GENUS_PIECES], int n) {
    static char out[256];
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strcat(out, "|");
        for (int p = 0; p < GENUS_PIECES && w[i][p] >= 0; p++) {
            if (p) strcat(out, " ");
            strcat(out, vocab[w[i][p]]);
        }
    }
    return out;
}

/* The lists of a sentence whose mentions are written [[a b]]: one sample per mention, made
 * here as the sentence with that mention masked; returns "first-last" per mention, with "L"
 * after it when ", NAME" follows the mention outside a list and "A" when "NAME ," precedes it
 * and the phrase ends after it (coordination_located); with pairs, "P" after a mention that
 * is the first of an apposition pair (coordination_pair). */
static const char *signals_of(const genus_vocab *v, const char *sentence, int pairs) {
    static char out[256];
    char text[8][512];
    int32_t ids[8][64];
    sentence_mention m[8];
    int n = 0;
    for (const char *p = sentence; (p = strstr(p, "[[")) && n < 8; p += 2, n++) { /* mention n masked */
        text[n][0] = 0;
        int k = 0;
        for (const char *q = sentence; *q;) {
            if (!strncmp(q, "[[", 2)) {
                const char *end = strstr(q, "]]");
                if (k++ == n) strcat(text[n], "[MASK]");
                else strncat(text[n], q + 2, (size_t)(end - q - 2));
                q = end + 2;
            } else {
                strncat(text[n], q++, 1);
            }
        }
        m[n].ids = ids[n];
        m[n].len = encode(text[n], ids[n], &m[n].mask);
    }
    int first[8], last[8], located[8];
    coordination_lists(v, m, n, first, last);
    coordination_located(v, m, n, first, last, located);
    out[0] = 0;
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%d-%d%s%s%s", i ? " " : "", first[i], last[i], located[i] & LOCATED_BEFORE ? "L" : "",
                 located[i] & LOCATED_AFTER ? "A" : "", pairs && coordination_pair(v, m, n, located, i) ? "P" : "");
    return out;
}

static const char *lists_of(const genus_vocab *v, const char *sentence) { return signals_of(v, sentence, 0); }

static void test_apposition_pairs(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    CHECK_STR(signals_of(&v, "[CLS] [[houston]] , [[texas]] . [SEP]", 1), "0-0LP 1-1A");
    CHECK_STR(signals_of(&v, "[CLS] met [[houston]] , [[texas]] in 1987 [SEP]", 1), "0-0LP 1-1");
    /* a run of three names joined by commas: no pair */
    CHECK_STR(signals_of(&v, "[CLS] [[houston]] , [[west germany]] , [[texas]] . [SEP]", 1), "0-0L 1-1LA 2-2A");
    /* a conjunction after the second name: a list whose end is no name */
    CHECK_STR(signals_of(&v, "[CLS] [[japan]] , [[britain]] and the capital [SEP]", 1), "0-0L 1-1");
    /* lists have none */
    CHECK_STR(signals_of(&v, "[CLS] [[japan]] , [[west germany]] and [[britain]] met [SEP]", 1), "0-2 0-2 0-2");
    genus_vocab_free(&v);
}

static void test_coordination_lists(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    /* commas and a final conjunction: one list, names of several words */
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] , [[west germany]] and [[britain]] met [SEP]"), "0-2 0-2 0-2");
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] , [[west germany]] , and [[britain]] [SEP]"), "0-2 0-2 0-2");
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] or [[britain]] [SEP]"), "0-1 0-1");
    /* a comma alone is an apposition, not a list */
    CHECK_STR(lists_of(&v, "[CLS] [[houston]] , [[texas]] met [SEP]"), "0-0L 1-1");
    /* the name after the comma gets "A" when punctuation, a comma or the end follows it */
    CHECK_STR(lists_of(&v, "[CLS] [[houston]] , [[texas]] . [SEP]"), "0-0L 1-1A");
    CHECK_STR(lists_of(&v, "[CLS] met [[houston]] , [[texas]] , the [SEP]"), "0-0L 1-1A");
    CHECK_STR(lists_of(&v, "[CLS] [[houston]] , [[texas]] [SEP]"), "0-0L 1-1A");
    CHECK_STR(lists_of(&v, "[CLS] [[houston]] , [[west germany]] , [[texas]] . [SEP]"), "0-0L 1-1LA 2-2A");
    /* a comma before a list's first member: no location; nor after a list's last member */
    CHECK_STR(lists_of(&v, "[CLS] [[houston]] , [[texas]] , [[japan]] and [[britain]] [SEP]"), "0-3 0-3 0-3 0-3");
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] met [[houston]] , [[texas]] [SEP]"), "0-0 1-1L 2-2A");
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] and [[britain]] , [[texas]] [SEP]"), "0-1 0-1 2-2");
    /* other words between mentions end a list; the list after them is found */
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] met the [[britain]] , [[west germany]] and [[texas]] [SEP]"), "0-0 1-3 1-3 1-3");
    /* a gap that starts and ends with a comma is longer than one: no list */
    CHECK_STR(lists_of(&v, "[CLS] [[japan]] , the capital , and [[britain]] [SEP]"), "0-0 1-1");
    genus_vocab_free(&v);
}

/* The heads around the mention of text (its own span) and its title. */
static const char *heads_of(const genus_vocab *v, const char *text) {
    int32_t ids[64], h[HEAD_WORDS][GENUS_PIECES];
    int mask, len = encode(text, ids, &mask);
    int n = hearst_span_heads(v, ids, mask, ids, len, mask, h);
    if (n < HEAD_WORDS) n += hearst_title(v, ids, mask, h[n]);
    for (int w = n; w < HEAD_WORDS; w++) CHECK_EQ_INT(h[w][0], -1);
    return words_text((const int32_t(*)[GENUS_PIECES])h, n);
}

static void test_hearst_heads(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    CHECK_STR(heads_of(&v, "[CLS] exporters such as [MASK] met [SEP]"), "exporters");
    CHECK_STR(heads_of(&v, "[CLS] exporters , such as [MASK] [SEP]"), "exporters");
    CHECK_STR(heads_of(&v, "[CLS] such exporters as [MASK] [SEP]"), "exporters");
    CHECK_STR(heads_of(&v, "[CLS] grain exporters , including [MASK] [SEP]"), "exporters");
    CHECK_STR(heads_of(&v, "[CLS] met [MASK] and other countries in 1987 [SEP]"), "countries");
    CHECK_STR(heads_of(&v, "[CLS] [MASK] and other banks and brokers [SEP]"), "banks|brokers");
    /* a title: a word before the name, after another word */
    CHECK_STR(heads_of(&v, "[CLS] treasury secretary [MASK] said [SEP]"), "secretary");
    /* none: a verb of speech, a function word, the sentence start, "other" without a conjunction */
    CHECK_STR(heads_of(&v, "[CLS] economist said [MASK] [SEP]"), "");
    CHECK_STR(heads_of(&v, "[CLS] met in [MASK] [SEP]"), "");
    CHECK_STR(heads_of(&v, "[CLS] secretary [MASK] [SEP]"), "");
    CHECK_STR(heads_of(&v, "[CLS] [MASK] other countries [SEP]"), "");
    CHECK_STR(heads_of(&v, "[CLS] such as [MASK] [SEP]"), "");
    /* the span of a list: the text before its first member and after its last one */
    int32_t a[64], b[64], h[HEAD_WORDS][GENUS_PIECES];
    int ma, mb;
    encode("[CLS] countries such as [MASK] , britain and other exporters [SEP]", a, &ma);
    int lb = encode("[CLS] countries such as japan , [MASK] and other exporters [SEP]", b, &mb);
    int n = hearst_span_heads(&v, a, ma, b, lb, mb, h);
    CHECK_STR(words_text((const int32_t(*)[GENUS_PIECES])h, n), "countries|exporters");
    genus_vocab_free(&v);
}

static const char *name_of(const genus_vocab *v, const char *name) {
    int32_t ids[64], h[1][GENUS_PIECES];
    int mask, n = encode(name, ids, &mask);
    return words_text((const int32_t(*)[GENUS_PIECES])h, name_head(v, ids, n, h[0]));
}

static void test_name_head(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    CHECK_STR(name_of(&v, "new york stock exch ##ange"), "exch ##ange");
    CHECK_STR(name_of(&v, "ministry of trade"), "ministry");
    CHECK_STR(name_of(&v, "bank of japan"), "bank");
    CHECK_STR(name_of(&v, "texas inc ."), "inc");
    CHECK_STR(name_of(&v, "james baker"), "baker");
    /* one word, or nothing that is a word: no head */
    CHECK_STR(name_of(&v, "japan"), "");
    CHECK_STR(name_of(&v, "japan ."), "");
    CHECK_STR(name_of(&v, "1987"), "");
    CHECK_STR(name_of(&v, "of japan"), "");
    genus_vocab_free(&v);
}

/* The titles of "miyazawa" in its longer names: the words before it, nearest first, each once. */
static void test_name_titles(void) {
    genus_vocab v;
    genus_vocab_init(&v, vocab, NV);
    int32_t a[64], b[64], t[4][GENUS_PIECES];
    int mask, na = encode("finance minister kiichi miyazawa", a, &mask), nb = encode("the minister , miyazawa", b, &mask);
    int n = name_titles_add(&v, a, na - 1, t, 0, 4);
    CHECK_STR(words_text((const int32_t(*)[GENUS_PIECES])t, n), "kiichi|minister|finance");
    n = name_titles_add(&v, b, nb - 1, t, n, 4); /* "minister" again; "the" and "," are no words */
    CHECK_STR(words_text((const int32_t(*)[GENUS_PIECES])t, n), "kiichi|minister|finance");
    n = name_titles_add(&v, a, na - 1, t, 2, 3); /* at most max words */
    CHECK_STR(words_text((const int32_t(*)[GENUS_PIECES])t, n), "kiichi|minister|finance");
    CHECK_EQ_INT(name_titles_add(&v, a, 0, t, 0, 4), 0); /* nothing before the name */
    genus_vocab_free(&v);
}

TEST_MAIN_BEGIN("test_text_signals")
RUN(test_coordination_lists);
    RUN(test_apposition_pairs);
RUN(test_hearst_heads);
RUN(test_name_head);
RUN(test_name_titles);
TEST_MAIN_END
