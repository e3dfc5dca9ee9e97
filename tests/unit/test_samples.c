/* test_samples: tokenize + build-samples end to end, read back through the
 * corpus and samples readers. The tiny hand-made dataset
 * (tests/fixtures/text/tiny, vocab tests/fixtures/text/vocab.txt) has its
 * expected samples written out below; the folder and the .tar.gz form must give
 * the same payload; the real mini-ese dataset must match its stats.txt. */
#include <stdarg.h>
#include <stdint.h>
#include <sys/wait.h>

#include <archive.h>
#include <archive_entry.h>

#include "archive_fixture.h"
#include "format/artifact.h"
#include "check.h"
#include "artifacts/corpus.h"
#include "base/error.h"
#include "artifacts/samples.h"

static char tmp[256], bin[512];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...) {
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Renders sample j as tokens joined by spaces. */
static const char *sample_text(const samples *s, int64_t j) {
    static char buf[4096];
    int32_t ids[512];
    int n = samples_tokens(s, j, ids), o = 0;
    buf[0] = 0;
    for (int i = 0; i < n && o < 3800; i++) o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%s", i ? " " : "", samples_vocab_token(s, ids[i]));
    return buf;
}

typedef struct { const char *name; int64_t eid; const char *text[2]; int64_t sentence[2]; int mask[2]; } expected_entity;

static const expected_entity tiny_expect[] = {
    {"Ohio", 0, {"[CLS] [MASK] is big . [SEP]", "[CLS] i visit ##ed texas and [MASK] [SEP]"}, {0, 1}, {1, 6}},
    {"Texas", 1, {"[CLS] i visit ##ed [MASK] and ohio [SEP]", "[CLS] [MASK] like ##s new york [SEP]"}, {1, 3}, {4, 1}},
    {"New York", 2, {"[CLS] [MASK] city is big [SEP]", "[CLS] texas like ##s [MASK] [SEP]"}, {2, 3}, {1, 4}},
    {"Paris", 3, {"[CLS] [MASK] in france [SEP]", "[CLS] lone ##ly [MASK] [SEP]"}, {4, 5}, {1, 3}},
};

static void check_tiny(const char *path) {
    samples *s = samples_open(path);
    CHECK_EQ_INT(samples_entities(s), 4); /* Lonely (1 sample) and Ghost (none) dropped */
    CHECK_EQ_INT(samples_count(s), 8);
    CHECK_EQ_INT(samples_max_length(s), 8);
    CHECK_EQ_INT(samples_vocab_size(s), 33);
    CHECK_EQ_INT(samples_specials(s).mask, 4);
    CHECK_EQ_INT(samples_row_of_eid(s, 4), -1);
    CHECK_EQ_INT(samples_row_of_eid(s, 2), 2);
    for (int64_t r = 0; r < 4 && r < samples_entities(s); r++) {
        const expected_entity *e = &tiny_expect[r];
        CHECK_STR(samples_name(s, r), e->name);
        CHECK_EQ_INT(samples_eid(s, r), e->eid);
        int64_t first, n;
        samples_range(s, r, &first, &n);
        CHECK_EQ_INT(n, 2);
        for (int k = 0; k < 2 && k < n; k++) {
            CHECK_STR(sample_text(s, first + k), e->text[k]);
            CHECK_EQ_INT(samples_sentence(s, first + k), e->sentence[k]);
            CHECK_EQ_INT(samples_mask_pos(s, first + k), e->mask[k]);
            CHECK_EQ_INT(samples_entity(s, first + k), r);
        }
    }
    samples_close(s);
}

static const char *fx(const char *rel) {
    static char buf[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/tests/fixtures/text/%s", getenv("PROBEXPAN_ROOT") ? getenv("PROBEXPAN_ROOT") : ".", rel);
    return buf[k];
}

static void test_tiny(void) {
    CHECK(sh("%s/tokenize --quiet %s --vocab %s --out %s/tiny-corpus.mp", bin, fx("tiny"), fx("vocab.txt"), tmp) == 0);
    CHECK(sh("%s/build-samples --quiet --corpus %s/tiny-corpus.mp --out %s/tiny-samples.mp", bin, tmp, tmp) == 0);
    char p[512];
    snprintf(p, sizeof p, "%s/tiny-corpus.mp", tmp);
    corpus_reader c;
    corpus_open(&c, p);
    CHECK_EQ_INT(c.ents.n, 6);
    CHECK_STR(c.ents.name[2], "New York");
    int n = 0;
    while (corpus_next(&c)) {
        if (c.index == 1) { /* i visit ##ed texas and ohio: Texas = [3,4), Ohio = [5,6) */
            CHECK_EQ_INT(c.nids, 6);
            CHECK_EQ_INT(c.nwords, 5);
            CHECK_EQ_INT(c.line, 2);
            CHECK_EQ_INT(c.nm, 2);
            if (c.nm == 2) {
                CHECK_EQ_INT(c.m[0].eid, 1);
                CHECK_EQ_INT(c.m[0].wp_start, 3);
                CHECK_EQ_INT(c.m[0].wp_end, 4);
                CHECK_EQ_INT(c.m[1].wp_start, 5);
                CHECK_EQ_INT(c.m[1].wp_end, 6);
            }
            CHECK_EQ_INT(c.ids[2], 24); /* ##ed */
        }
        if (c.index == 2) { CHECK_EQ_INT(c.m[0].wp_start, 0); CHECK_EQ_INT(c.m[0].wp_end, 2); } /* new york */
        n++;
    }
    CHECK_EQ_INT(n, 7);
    CHECK_EQ_INT(c.totals.mentions, 10);
    CHECK_EQ_INT(c.totals.words, 174);
    corpus_close(&c);
    snprintf(p, sizeof p, "%s/tiny-samples.mp", tmp);
    check_tiny(p);
}

/* Bytes of an artifact after its header (the header holds paths, hashes, time). */
static char *payload(const char *path, size_t *len) {
    artifact_reader *r = artifact_open(path, NULL, 100);
    uint64_t off = artifact_offset(r);
    artifact_close(r);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, (long)off, SEEK_SET);
    *len = (size_t)size - off - 105; /* without the checksum trailer (it covers the header too) */
    char *b = xmalloc(*len + 1);
    *len = fread(b, 1, *len, f);
    fclose(f);
    return b;
}

/* tiny.zip with a top folder, written with libarchive (no zip tool needed) */
static void make_zip(const char *out) {
    static const char *const files[] = {"entity2id.txt", "sentences.json", "query/places.txt", "gt/places.txt", NULL};
    struct archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    CHECK(archive_write_open_filename(a, out) == ARCHIVE_OK);
    for (int i = 0; files[i]; i++) {
        char rel[64], name[64];
        snprintf(rel, sizeof rel, "tiny/%s", files[i]);
        snprintf(name, sizeof name, "tiny/%s", files[i]);
        CHECK(archive_add_file(a, fx(rel), name));
    }
    archive_write_close(a);
    archive_write_free(a);
}

static void test_folder_equals_archive(void) {
    CHECK(sh("tar czf %s/tiny.tar.gz -C %s tiny", tmp, fx("")) == 0);
    char zp[512];
    snprintf(zp, sizeof zp, "%s/tiny.zip", tmp);
    make_zip(zp);
    const char *forms[] = {"tiny.tar.gz", "tiny.zip"};
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/tiny-corpus.mp", tmp);
    for (int i = 0; i < 2; i++) {
        CHECK(sh("%s/tokenize --quiet %s/%s --vocab %s --out %s/arch-corpus.mp", bin, tmp, forms[i], fx("vocab.txt"), tmp) == 0);
        snprintf(b, sizeof b, "%s/arch-corpus.mp", tmp);
        size_t la, lb;
        char *pa = payload(a, &la), *pb = payload(b, &lb);
        CHECK_EQ_INT(la, lb);
        CHECK(la == lb && memcmp(pa, pb, la) == 0);
        free(pa);
        free(pb);
    }
}

static void test_options(void) {
    char p[512];
    /* --max-wordpieces 7: Ohio and Texas keep one sample each and are dropped */
    CHECK(sh("%s/build-samples --quiet --corpus %s/tiny-corpus.mp --max-wordpieces 7 --out %s/s7.mp", bin, tmp, tmp) == 0);
    snprintf(p, sizeof p, "%s/s7.mp", tmp);
    samples *s = samples_open(p);
    CHECK_EQ_INT(samples_entities(s), 2);
    CHECK_EQ_INT(samples_eid(s, 0), 2);
    CHECK_EQ_INT(samples_eid(s, 1), 3);
    samples_close(s);
    /* cap 1 with min 1: every mentioned entity (5) keeps exactly one of its samples */
    CHECK(sh("%s/build-samples --quiet --corpus %s/tiny-corpus.mp --min-samples 1 --max-samples-per-entity 1 --random-seed 7 --out %s/c1.mp",
             bin, tmp, tmp) == 0);
    snprintf(p, sizeof p, "%s/c1.mp", tmp);
    s = samples_open(p);
    CHECK_EQ_INT(samples_entities(s), 5);
    CHECK_EQ_INT(samples_count(s), 5);
    for (int r = 0; r < 4 && r < samples_entities(s); r++) {
        const char *t = sample_text(s, r);
        CHECK(strcmp(t, tiny_expect[r].text[0]) == 0 || strcmp(t, tiny_expect[r].text[1]) == 0);
    }
    if (samples_entities(s) == 5) CHECK_STR(sample_text(s, 4), "[CLS] [MASK] paris [SEP]"); /* Lonely */
    samples_close(s);
    CHECK(sh("%s/build-samples --quiet --corpus %s/tiny-corpus.mp --min-samples 1 --max-samples-per-entity 1 --random-seed 7 --out %s/c2.mp",
             bin, tmp, tmp) == 0);
    char q[512];
    snprintf(q, sizeof q, "%s/c2.mp", tmp);
    size_t l1, l2;
    char *p1 = payload(p, &l1), *p2 = payload(q, &l2);
    CHECK(l1 == l2 && memcmp(p1, p2, l1) == 0); /* same seed, same samples */
    free(p1);
    free(p2);
    CHECK(sh("%s/build-samples --quiet --corpus %s/tiny-corpus.mp --max-samples-per-entity 1 --out %s/x.mp 2>/dev/null", bin, tmp, tmp) == 2);
    /* official whole-word lookup: "visited" is not a vocabulary word */
    CHECK(sh("%s/tokenize --quiet %s --whole-words --vocab %s --out %s/ww.mp && %s/build-samples --quiet --corpus %s/ww.mp --out %s/wws.mp",
             bin, fx("tiny"), fx("vocab.txt"), tmp, bin, tmp, tmp) == 0);
    snprintf(p, sizeof p, "%s/wws.mp", tmp);
    s = samples_open(p);
    int64_t first, n;
    samples_range(s, 1, &first, &n);
    CHECK_STR(sample_text(s, first), "[CLS] i [UNK] [MASK] and ohio [SEP]");
    samples_close(s);
}

static void open_samples(void *path) { samples_open(path); }

/* Writes a copy of tiny-samples.mp with the bytes `find` replaced by `repl`
 * (or cut by `cut` bytes) and returns its path. */
static char *corrupt(const char *name, const unsigned char *find, const unsigned char *repl, size_t n, long cut) {
    static char out[600];
    char in[512];
    snprintf(in, sizeof in, "%s/tiny-samples.mp", tmp);
    snprintf(out, sizeof out, "%s/%s", tmp, name);
    FILE *f = fopen(in, "rb");
    static unsigned char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n) {
        unsigned char *at = memmem(buf, len, find, n);
        CHECK(at != NULL);
        if (at) memcpy(at, repl, n);
    }
    f = fopen(out, "wb");
    fwrite(buf, 1, len - (size_t)cut, f);
    fclose(f);
    return out;
}

static void test_corrupt(void) {
    /* the first sample in the token stream: [CLS] [MASK] is big . [SEP] as u16 */
    static const unsigned char first[] = {2, 0, 4, 0, 10, 0, 11, 0, 16, 0, 3, 0};
    unsigned char bad[sizeof first];
    memcpy(bad, first, sizeof bad);
    bad[4] = bad[5] = 0xff;
    CHECK_DIES(3, "id 65535 outside the vocabulary of 33", open_samples, corrupt("bad-id.mp", first, bad, sizeof bad, 0));
    memcpy(bad, first, sizeof bad);
    bad[2] = 10;
    CHECK_DIES(3, "is not [CLS] ... [MASK] ... [SEP]", open_samples, corrupt("bad-mask.mp", first, bad, sizeof bad, 0));
    CHECK_DIES(3, "truncated", open_samples, corrupt("cut.mp", NULL, NULL, 0, 105 + 30)); /* trailer + 30 bytes */
    /* sample 0 at offset INT64_MAX: offset + length overflowed and the [CLS]
     * check then read far outside the token chunk */
    static const unsigned char off0[] = {0xa6, 'o', 'f', 'f', 's', 'e', 't', 0xc4, 0x40, 0, 0, 0, 0, 0, 0, 0, 0};
    unsigned char off_max[sizeof off0];
    memcpy(off_max, off0, sizeof off0);
    memset(off_max + 9, 0xff, 7);
    off_max[16] = 0x7f;
    CHECK_DIES(3, "sample 0: offset 9223372036854775807 length 6 mask 1 inconsistent with 51 tokens", open_samples,
               corrupt("off-max.mp", off0, off_max, sizeof off0, 0));
    char p[512];
    snprintf(p, sizeof p, "%s/tiny-corpus.mp", tmp);
    CHECK_DIES(3, "wrong artifact kind 'corpus', expected 'samples'", open_samples, p);
}

/* The fuzzers' reproducers (tests/fixtures/fuzz-crashes, requests-fuzz.md 1-2):
 * the tiny samples artifact with chunk_first [2^40] and tokens 2^40 + 39 (the
 * [CLS] check of sample 0 read before the chunk: SEGV), and with chunk_first
 * [INT64_MIN] (signed overflow computing the chunk's token count). */
static void test_fuzz_crashers(void) {
    const char *one = fx("../fuzz-crashes/samples-1"), *two = fx("../fuzz-crashes/samples-2");
    CHECK_DIES(3, "fuzz-crashes/samples-1: byte ", open_samples, (void *)one);
    CHECK_DIES(3, "chunk_first[0] = 1099511627776: expected 0 for the first chunk", open_samples, (void *)one);
    CHECK_DIES(3, "chunk_first[0] = -9223372036854775808: expected 0 for the first chunk", open_samples, (void *)two);
}

static void test_mini(void) {
    const char *shd = check_shared_dir();
    if (!shd) SKIP("../shared absent");
    char data[4200];
    snprintf(data, sizeof data, "%s/data/mini-ese.tar.gz", shd);
    if (access(data, R_OK)) SKIP("mini-ese.tar.gz absent");
    /* every mention (--embedded-share 0), as stats.txt counts them */
    CHECK(sh("%s/tokenize --quiet %s --learn-vocab 4000 --embedded-share 0 --out %s/mini-corpus.mp", bin, data, tmp) == 0);
    CHECK(sh("%s/build-samples --quiet --corpus %s/mini-corpus.mp --out %s/mini-samples.mp", bin, tmp, tmp) == 0);
    char p[512];
    snprintf(p, sizeof p, "%s/mini-corpus.mp", tmp);
    corpus_reader c;
    corpus_open(&c, p);
    while (corpus_next(&c)) {}
    /* stats.txt: sentences 19986, entities 1843, mentions 41538, tokens 542656 */
    CHECK_EQ_INT(c.totals.sentences, 19986);
    CHECK_EQ_INT(c.ents.n, 1843);
    CHECK_EQ_INT(c.totals.mentions, 41538);
    CHECK_EQ_INT(c.totals.words, 542656);
    CHECK_EQ_INT(c.vocab.n, 4000);
    corpus_close(&c);
    snprintf(p, sizeof p, "%s/vocab.txt", tmp);
    CHECK(access(p, R_OK) == 0);
    /* the output does not depend on the number of threads (skipped under ASan: slow) */
    if (!getenv("PROBEXPAN_ASAN")) {
        CHECK(sh("%s/tokenize --quiet %s --vocab %s/vocab.txt --threads 1 --out %s/t1.mp", bin, data, tmp, tmp) == 0);
        CHECK(sh("%s/tokenize --quiet %s --vocab %s/vocab.txt --threads 3 --out %s/t3.mp", bin, data, tmp, tmp) == 0);
        char q1[512], q3[512];
        snprintf(q1, sizeof q1, "%s/t1.mp", tmp);
        snprintf(q3, sizeof q3, "%s/t3.mp", tmp);
        size_t l1, l3;
        char *p1 = payload(q1, &l1), *p3 = payload(q3, &l3);
        CHECK(l1 == l3 && memcmp(p1, p3, l1) == 0);
        free(p1);
        free(p3);
    }
    snprintf(p, sizeof p, "%s/mini-samples.mp", tmp);
    samples *s = samples_open(p);
    CHECK(samples_entities(s) > 1800 && samples_entities(s) <= 1843);
    CHECK(samples_count(s) > 41000 && samples_count(s) <= 41538);
    int64_t total = 0;
    for (int64_t r = 0; r < samples_entities(s); r++) {
        int64_t first, n;
        samples_range(s, r, &first, &n);
        CHECK(n >= 2);
        total += n;
    }
    CHECK_EQ_INT(total, samples_count(s));
    CHECK_EQ_INT(samples_row_of_eid(s, samples_eid(s, 100)), 100);
    samples_close(s);
}

TEST_MAIN_BEGIN("test_samples")
    snprintf(tmp, sizeof tmp, "%s/test_samples.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmp)) { perror("mkdtemp"); return 1; }
    snprintf(bin, sizeof bin, "%s", getenv("PROBEXPAN_BIN") ? getenv("PROBEXPAN_BIN") : "bin");
    char cat[400];
    snprintf(cat, sizeof cat, "%s/catalog.sqlite", tmp);
    setenv("PROBEXPAN_CATALOG", cat, 1);
    RUN(test_tiny);
    RUN(test_folder_equals_archive);
    RUN(test_options);
    RUN(test_corrupt);
    RUN(test_fuzz_crashers);
    RUN(test_mini);
    sh("rm -rf %s", tmp);
TEST_MAIN_END
