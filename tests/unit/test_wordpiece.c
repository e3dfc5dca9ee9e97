/* test_wordpiece: the uncased BERT tokenizer against hand-written expectations
 * of HuggingFace BertTokenizer behaviour (its own unit-test cases plus the
 * Unicode corners: CJK, accents, control and format characters, punctuation
 * categories, final sigma, special-token literals, the 100-character limit),
 * and WordPiece vocabulary learning on the classic low/lower/newest/widest
 * word counts with the merge order worked out by hand. test_tokenizer_golden runs
 * the golden HuggingFace cases of ../shared/golden/tokenizer/. */
#include <stdint.h>

#include "check.h"
#include "base/error.h"
#include "text/wordpiece.h"

static const char *const toy[] = {
    "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "want", "##want", "##ed", "wa", "un", "runn", "##ing",
    "hello", "how", "are", "you", "!", "?", ",", ".", "-", "[", "]", "mask", "a", "##a", "b", "##b",
    "cafe", "hallo", "u", "s", "$", "5", "€", "##€", "ah", "zz", "\xe5\x8d\x9a", "\xe6\x8e\xa8", "x",
    "\xe8\xb1\x88", "\xe3\x81\xb2\xe3\x82\x89\xe3\x81\x8b\xe3\x81\xaa", "i", "\xce\xbf\xce\xb4\xce\xbf\xcf\x82",
    "\xce\xbf\xce\xb4\xce\xbf\xcf\x83\xce\xb1", "\xe2\x80\x94", "\xc2\xab", "\xc2\xbb", "^", "+", "`", "cls", "sep",
};

static wp_vocab V;

/* Encodes text and renders the tokens joined by single spaces. */
static const char *enc(const char *text, int flags) {
    static char buf[8192];
    wp_ids ids = {0};
    size_t bad = 0;
    long n = wp_encode(&V, text, strlen(text), flags, &ids, &bad, NULL);
    if (n < 0) { snprintf(buf, sizeof buf, "<invalid utf-8 at %zu>", bad); wp_ids_free(&ids); return buf; }
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; i < ids.n && o < sizeof buf - 200; i++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? " " : "", V.tok[ids.id[i]]);
    wp_ids_free(&ids);
    return buf;
}

static void test_hf_wordpiece(void) {
    CHECK_STR(enc("", 0), "");
    CHECK_STR(enc("unwanted running", 0), "un ##want ##ed runn ##ing");
    CHECK_STR(enc("unwantedX running", 0), "[UNK] runn ##ing");
    CHECK_STR(enc("UNwant\xc3\xa9\x64,running", 0), "un ##want ##ed , runn ##ing"); /* HF test_full_tokenizer */
}

static void test_hf_basic(void) {
    CHECK_STR(enc(" \tHeLLo!how  \n Are yoU?  ", 0), "hello ! how are you ?");
    CHECK_STR(enc("H\xc3\xa9llo", 0), "hello"); /* héllo -> hello */
    CHECK_STR(enc(" \tH\xc3\xa4LLo!how  \n Are yoU?  ", 0), "hallo ! how are you ?");
    CHECK_STR(enc("ah\xe5\x8d\x9a\xe6\x8e\xa8zz", 0), "ah \xe5\x8d\x9a \xe6\x8e\xa8 zz"); /* ah博推zz */
    CHECK_STR(enc(" \tHeLLo!how  \n Are yoU? [UNK]", 0), "hello ! how are you ? [UNK]");
}

static void test_clean_and_space(void) {
    CHECK_STR(enc("a\x01" "b", 0), "a ##b");                 /* control char dropped */
    CHECK_STR(enc("a\xe2\x80\x8b" "b", 0), "a ##b");         /* U+200B (Cf) dropped */
    CHECK_STR(enc("a\xef\xbf\xbd" "b", 0), "a ##b");         /* U+FFFD dropped */
    CHECK_STR(enc("a\xc2\xa0" "b", 0), "a b");               /* NBSP (Zs) separates */
    CHECK_STR(enc("a\xe2\x80\xa8" "b", 0), "a b");           /* U+2028 (Zl) separates */
    CHECK_STR(enc("a\x7f" "b\x0b" "a", 0), "a ##b ##a");      /* DEL and VT are controls */
    CHECK_STR(enc("a\r\nb\tb", 0), "a b b");
    CHECK_STR(enc("a\xee\x80\x80" "b", 0), "a ##b");          /* private use (Co) is removed */
    CHECK_STR(enc("a\xcd\xb8" "b", 0), "[UNK]");              /* unassigned U+0378 (Cn) stays in the word */
    CHECK_STR(enc("a\xef\xbf\xbf", 0), "[UNK]");             /* ... as does U+FFFF */
    char z[4] = {'a', 0, 'b', 0};
    wp_ids ids = {0};
    CHECK_EQ_INT(wp_encode(&V, z, 3, 0, &ids, NULL, NULL), 2); /* NUL dropped: a ##b */
    wp_ids_free(&ids);
}

static void test_unicode(void) {
    CHECK_STR(enc("Caf\xc3\xa9", 0), "cafe");                /* precomposed é */
    CHECK_STR(enc("CAFE\xcc\x81", 0), "cafe");               /* e + combining acute */
    CHECK_STR(enc("x\xef\xa4\x80x", 0), "x \xe8\xb1\x88 x"); /* U+F900 -> NFD U+8C48, own word */
    /* hiragana is not CJK-split; NFD splits が into か + U+3099 (Mn), stripped */
    CHECK_STR(enc("\xe3\x81\xb2\xe3\x82\x89\xe3\x81\x8c\xe3\x81\xaa", 0),
              "\xe3\x81\xb2\xe3\x82\x89\xe3\x81\x8b\xe3\x81\xaa");
    CHECK_STR(enc("\xc4\xb0", 0), "i");                      /* İ: Python lower gives i + U+0307 */
    /* final sigma: ΟΔΟΣ -> οδος with ς; ΟΔΟΣΑ keeps σ inside the word */
    CHECK_STR(enc("\xce\x9f\xce\x94\xce\x9f\xce\xa3", 0), "\xce\xbf\xce\xb4\xce\xbf\xcf\x82");
    CHECK_STR(enc("\xce\x9f\xce\x94\xce\x9f\xce\xa3\xce\x91", 0), "\xce\xbf\xce\xb4\xce\xbf\xcf\x83\xce\xb1");
    CHECK_STR(enc("\xce\x9f\xce\x94\xce\x9f\xce\xa3.", 0), "\xce\xbf\xce\xb4\xce\xbf\xcf\x82 .");
}

static void test_punctuation(void) {
    CHECK_STR(enc("a-b", 0), "a - b");
    CHECK_STR(enc("U.S.", 0), "u . s .");
    CHECK_STR(enc("$5", 0), "$ 5");
    CHECK_STR(enc("5\xe2\x82\xac", 0), "5 ##€");              /* € is Sc, not punctuation: one word */
    CHECK_STR(enc("5\xe2\x82\xac" "x", 0), "[UNK]");          /* 5€x: no piece ##x */
    CHECK_STR(enc("a^b+a`b", 0), "a ^ b + a ` b");           /* ASCII symbol ranges */
    CHECK_STR(enc("a\xe2\x80\x94" "b", 0), "a \xe2\x80\x94 b"); /* em dash (Pd) */
    CHECK_STR(enc("\xc2\xab" "a\xc2\xbb", 0), "\xc2\xab a \xc2\xbb"); /* « » (Pi/Pf) */
}

static void test_specials(void) {
    CHECK_STR(enc("hello [MASK] you", 0), "hello [MASK] you");
    CHECK_STR(enc("hello[MASK]you", 0), "hello [MASK] you");
    CHECK_STR(enc("[CLS] a [SEP]", 0), "[CLS] a [SEP]");
    CHECK_STR(enc("[mask]", 0), "[ mask ]");                 /* literals are case-sensitive */
    CHECK_STR(enc("hello [MASK] you", WP_PLAIN_SPECIALS), "hello [ mask ] you");
    CHECK_STR(enc("[CLS]", WP_PLAIN_SPECIALS), "[ cls ]");
    CHECK_STR(enc("[MASK", 0), "[ mask");
    CHECK_STR(enc("a [MA\xe2\x80\x8bSK] b", 0), "a [MASK] b");         /* never_split after cleaning */
    CHECK_STR(enc("a [MA\xe2\x80\x8bSK]b", 0), "a [ mask ] b");        /* ... only as a whole token */
    CHECK_STR(enc("a [MA\xe2\x80\x8bSK] b", WP_PLAIN_SPECIALS), "a [ mask ] b");
}

static void test_long_words(void) {
    char w[202];
    memset(w, 'a', 100);
    w[100] = 0;
    const char *r = enc(w, 0);
    int n = 1;
    for (const char *p = r; *p; p++) n += *p == ' ';
    CHECK_EQ_INT(n, 100);                                    /* a ##a x 99 */
    CHECK(strncmp(r, "a ##a ##a", 9) == 0);
    memset(w, 'a', 101);
    w[101] = 0;
    CHECK_STR(enc(w, 0), "[UNK]");                           /* > 100 characters */
    /* 101 characters, but split by punctuation into short words */
    memset(w, 'a', 101);
    w[50] = '.';
    CHECK(strncmp(enc(w, 0), "a ##a", 5) == 0);
    int64_t unk = 0;
    wp_ids ids = {0};
    wp_encode(&V, "unwantedX running xyz", 21, 0, &ids, NULL, &unk);
    CHECK_EQ_INT(unk, 2);
    wp_ids_free(&ids);
}

static void test_whole_words_and_utf8(void) {
    CHECK_STR(enc("Hello", WP_WHOLE_WORDS), "hello");
    CHECK_STR(enc("running", WP_WHOLE_WORDS), "[UNK]");      /* no WordPiece split */
    CHECK_STR(enc("Caf\xc3\xa9", WP_WHOLE_WORDS), "[UNK]");  /* str.lower() keeps the accent */
    CHECK_STR(enc("\xce\x9f\xce\x94\xce\x9f\xce\xa3", WP_WHOLE_WORDS), "\xce\xbf\xce\xb4\xce\xbf\xcf\x82");
    CHECK_STR(enc("ab\xff", 0), "<invalid utf-8 at 2>");
    CHECK_STR(enc("ab\xc3", 0), "<invalid utf-8 at 2>");      /* truncated sequence */
    CHECK_STR(enc("\xed\xa0\x80", 0), "<invalid utf-8 at 0>"); /* UTF-16 surrogate */
    CHECK_STR(enc("\xc0\xaf", 0), "<invalid utf-8 at 0>");     /* overlong '/' */
    CHECK_EQ_INT(wp_utf8_invalid_at("h\xc3\xa9", 3), -1);
}

static void add_count(strmap *m, const char *w, int64_t n) { strmap_add(m, w, strlen(w), n); }

static void test_learn(void) {
    strmap counts;
    strmap_init(&counts);
    add_count(&counts, "low", 5);
    add_count(&counts, "lower", 2);
    add_count(&counts, "newest", 6);
    add_count(&counts, "widest", 3);
    static const char *const expect[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "##d", "##e", "##i", "l", "n",
                                         "##o", "##r", "##s", "##t", "w", "##w", "##es", "##est", "lo", "low", "##ew",
                                         "new", "newest", "##dest", "##idest", "widest", "##er", "lower"};
    int ne = (int)(sizeof expect / sizeof *expect);
    wp_vocab v;
    wp_learn(&v, &counts, 1000);
    CHECK_EQ_INT(v.n, ne); /* stops when no pair occurs twice */
    for (int i = 0; i < ne && i < v.n; i++) CHECK_STR(v.tok[i], expect[i]);
    CHECK_EQ_INT(v.sp.pad, 0);
    CHECK_EQ_INT(v.sp.mask, 4);
    /* the learned vocabulary tokenizes its training words */
    wp_ids ids = {0};
    wp_encode(&v, "lowest widest", 13, 0, &ids, NULL, NULL);
    CHECK_EQ_INT(ids.n, 3); /* low ##est widest */
    if (ids.n == 3) { CHECK_STR(v.tok[ids.id[0]], "low"); CHECK_STR(v.tok[ids.id[1]], "##est"); }
    wp_ids_free(&ids);
    wp_vocab_free(&v);
    wp_learn(&v, &counts, 20);
    CHECK_EQ_INT(v.n, 20);
    CHECK_STR(v.tok[19], "low");
    wp_vocab_free(&v);
    strmap_free(&counts);
}

static void test_vocab_file(void) {
    char path[] = "/tmp/test_wordpiece_vocab.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char text[] = "[PAD]\r\n[UNK]\nfoo\n\nbar\nfoo\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    wp_vocab v;
    wp_vocab_load(&v, path);
    CHECK_EQ_INT(v.n, 6);
    CHECK_EQ_INT(v.sp.unk, 1);
    CHECK_EQ_INT(v.sp.cls, -1);
    CHECK_EQ_INT(wp_vocab_id(&v, "foo", 3), 5); /* a later duplicate wins, as in HF */
    CHECK_EQ_INT(wp_vocab_id(&v, "", 0), 3);
    CHECK_STR(v.tok[4], "bar");
    wp_vocab_write(&v, path);
    wp_vocab w;
    wp_vocab_load(&w, path);
    CHECK_EQ_INT(w.n, 6);
    CHECK_STR(w.tok[0], "[PAD]");
    wp_vocab_free(&w);
    wp_vocab_free(&v);
    unlink(path);
}

TEST_MAIN_BEGIN("test_wordpiece")
    wp_vocab_from_tokens(&V, (char *const *)toy, (int32_t)(sizeof toy / sizeof *toy));
    RUN(test_hf_wordpiece);
    RUN(test_hf_basic);
    RUN(test_clean_and_space);
    RUN(test_unicode);
    RUN(test_punctuation);
    RUN(test_specials);
    RUN(test_long_words);
    RUN(test_whole_words_and_utf8);
    RUN(test_learn);
    RUN(test_vocab_file);
    wp_vocab_free(&V);
TEST_MAIN_END
