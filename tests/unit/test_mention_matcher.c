/* test_mention_matcher: longest match, aliases, duplicates and case folding on
 * hand-written token sequences. */
#include "check.h"
#include "text/mention_matcher.h"
#include "text/sentence_split.h"

static int32_t add(mention_matcher *m, const char *name, int32_t v) {
    char **t;
    int n = word_tokenize(name, &t);
    int32_t r = matcher_add(m, t, n, v);
    free(t);
    return r;
}

/* Mentions of `text` as "start-end:value" joined by spaces. */
static const char *mentions(const mention_matcher *m, const char *text) {
    static char out[512];
    char **t;
    int n = word_tokenize(text, &t);
    out[0] = 0;
    for (int i = 0; i < n;) {
        int32_t v;
        int len = matcher_longest(m, t, n, i, &v);
        if (!len) { i++; continue; }
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%d-%d:%d", out[0] ? " " : "", i, i + len - 1, v);
        i += len;
    }
    free(t);
    return out;
}

static void test_longest_match(void) {
    mention_matcher *m = matcher_new(0);
    CHECK_EQ_INT(add(m, "New York", 0), -1);
    CHECK_EQ_INT(add(m, "York", 1), -1);
    CHECK_EQ_INT(add(m, "New York City", 2), -1);
    CHECK_EQ_INT(add(m, "City", 3), -1);
    /* tokens: 0 From 1 New 2 York 3 City 4 to 5 New 6 York 7 and 8 York 9 . 10 New 11 Jersey */
    CHECK_STR(mentions(m, "From New York City to New York and York. New Jersey"), "1-3:2 5-6:0 8-8:1");
    CHECK_EQ_INT(matcher_size(m), 4);
    matcher_free(m);
}

static void test_aliases_and_duplicates(void) {
    mention_matcher *m = matcher_new(0);
    CHECK_EQ_INT(add(m, "United States", 7), -1);
    CHECK_EQ_INT(add(m, "U.S.", 7), -1);
    CHECK_EQ_INT(add(m, "U.S.", 7), -1);        /* same name, same entity: fine */
    CHECK_EQ_INT(add(m, "United  States", 9), 7); /* same tokens, other entity: reported */
    CHECK_STR(mentions(m, "the U.S. and the United States."), "1-1:7 4-5:7");
    char *q[] = {"United", "States"};
    CHECK_EQ_INT(matcher_get(m, q, 2), 7);
    CHECK_EQ_INT(matcher_get(m, q, 1), -1);
    matcher_free(m);
}

static void test_case(void) {
    mention_matcher *cs = matcher_new(0), *ci = matcher_new(1);
    add(cs, "Texas", 1);
    add(ci, "Texas", 1);
    add(ci, "\xC3\x9C" "ber Stadt", 2); /* Über Stadt */
    CHECK_STR(mentions(cs, "TEXAS texas Texas"), "2-2:1");
    CHECK_STR(mentions(ci, "TEXAS texas Texas \xC3\xBC" "BER stadt"), "0-0:1 1-1:1 2-2:1 3-4:2");
    matcher_free(cs);
    matcher_free(ci);
}

TEST_MAIN_BEGIN("test_mention_matcher")
RUN(test_longest_match);
RUN(test_aliases_and_duplicates);
RUN(test_case);
TEST_MAIN_END
