/* test_sentence_split: tokenisation and sentence boundaries on hand-written text
 * (expected outputs written by hand, see sentence_split.h for the rules). */
#include "check.h"
#include "text/sentence_split.h"

/* Collects sentences as "tok tok tok" strings joined with " | ". */
typedef struct { char out[4096]; int n; } collect;

static void on_sent(void *ctx, char **tok, int n) {
    collect *c = ctx;
    size_t l = strlen(c->out);
    if (c->n++) l += (size_t)snprintf(c->out + l, sizeof c->out - l, " | ");
    for (int i = 0; i < n; i++) l += (size_t)snprintf(c->out + l, sizeof c->out - l, "%s%s", i ? " " : "", tok[i]);
}

/* Splits text fed in pieces of `step` bytes (0 = at once). */
static const char *split(const char *text, int max_tokens, size_t step, int64_t *overlong) {
    static collect c;
    memset(&c, 0, sizeof c);
    splitter *s = splitter_new(max_tokens, on_sent, &c);
    size_t n = strlen(text);
    if (!step) step = n ? n : 1;
    for (size_t i = 0; i < n; i += step) {
        size_t k = i + step > n ? n - i : step;
        while (i + k < n && ((unsigned char)text[i + k] & 0xC0) == 0x80) k++; /* code-point boundary */
        splitter_feed(s, text + i, k);
        i += k - step;
    }
    splitter_end_document(s);
    if (overlong) *overlong = splitter_overlong(s);
    splitter_free(s);
    return c.out;
}

static const char *tokens(const char *text) {
    static char out[2048];
    char **t;
    int n = word_tokenize(text, &t);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        strcat(out, i ? " " : "");
        strcat(out, t[i]);
    }
    free(t);
    return out;
}

static void test_punctuation_split_off(void) {
    CHECK_STR(tokens("Hello, world! (really) \"quoted\" 50% $5"), "Hello , world ! ( really ) \" quoted \" 50 % $ 5");
    CHECK_STR(tokens("well-known 3.14 1,000 AT&T and/or"), "well-known 3.14 1,000 AT&T and/or");
    CHECK_STR(tokens("wait... what?! yes--no \xE2\x80\x9Cq\xE2\x80\x9D"), "wait ... what ?! yes -- no \xE2\x80\x9C q \xE2\x80\x9D");
    CHECK_STR(tokens("a\xE2\x80\x94" "b"), "a \xE2\x80\x94 b");
}

static void test_clitics(void) {
    CHECK_STR(tokens("Elizabeth's don't can't we're I'd Williams' O'Neil"),
              "Elizabeth 's do n't ca n't we 're I 'd Williams ' O'Neil");
    CHECK_STR(tokens("Bach\xE2\x80\x99s"), "Bach \xE2\x80\x99s");
}

static void test_abbreviations_keep_dot(void) {
    CHECK_STR(tokens("Dr. Smith of the U.S. Army, J. S. Bach, e.g. Ph.D. St. Louis end."),
              "Dr. Smith of the U.S. Army , J. S. Bach , e.g. Ph.D. St. Louis end .");
    CHECK_STR(tokens("Washington, D.C."), "Washington , D.C.");
}

static void test_sentence_boundaries(void) {
    CHECK_STR(split("Dr. Smith came. He left! Why? Because.", 100, 0, NULL),
              "Dr. Smith came . | He left ! | Why ? | Because .");
    /* U.S. and initials do not end sentences; etc. does before a capital */
    CHECK_STR(split("The U.S. Army won. J. S. Bach wrote it. Pears etc. Then apples etc. and more.", 100, 0, NULL),
              "The U.S. Army won . | J. S. Bach wrote it . | Pears etc. | Then apples etc. and more .");
    /* closing quote stays with its sentence; lower case after a period does not split */
    CHECK_STR(split("He said \"Stop.\" Then he ran. \"Go!\" she cried. Approx. ten items, ca. 5 each. it goes on.", 100, 0, NULL),
              "He said \" Stop . \" | Then he ran . | \" Go ! \" she cried . | Approx. ten items , ca. 5 each . it goes on .");
    /* a blank line ends a sentence; single newlines do not */
    CHECK_STR(split("first line\ncontinues here\n\nnew paragraph", 100, 0, NULL),
              "first line continues here | new paragraph");
}

static void test_streaming_pieces_agree(void) {
    const char *text = "Dr. M\xC3\xBCller went to Z\xC3\xBCrich. It's far\xE2\x80\xA6 Isn't it? Yes.\n\nNext one";
    char whole[4096];
    snprintf(whole, sizeof whole, "%s", split(text, 100, 0, NULL));
    CHECK_STR(whole, "Dr. M\xC3\xBCller went to Z\xC3\xBCrich . | It 's far \xE2\x80\xA6 | Is n't it ? | Yes . | Next one");
    for (size_t step = 1; step < 8; step++) CHECK_STR(split(text, 100, step, NULL), whole);
}

static void test_max_tokens(void) {
    int64_t over = 0;
    CHECK_STR(split("One two three. A b. X y z w v u. One two three four. Ok.", 4, 0, &over), "One two three . | A b . | Ok .");
    CHECK_EQ_INT(over, 2);
}

TEST_MAIN_BEGIN("test_sentence_split")
RUN(test_punctuation_split_off);
RUN(test_clitics);
RUN(test_abbreviations_keep_dot);
RUN(test_sentence_boundaries);
RUN(test_streaming_pieces_agree);
RUN(test_max_tokens);
TEST_MAIN_END
