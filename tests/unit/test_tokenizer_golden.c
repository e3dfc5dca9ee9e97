/* test_tokenizer_golden: wp_encode on every case of ../shared/golden/tokenizer/ (HuggingFace's
 * Rust tokenizer on the genuine bert-base-uncased vocabulary): the 434 texts of cases.jsonl
 * (with [CLS]/[SEP] added; the special_tokens cases also with WP_PLAIN_SPECIALS) and the 94
 * word lists of cases_pretokenized.jsonl (each word encoded on its own). Every case must give
 * the reference ids except those named in tests/fixtures/text/golden-tokenizer-differences.tsv,
 * which must differ (so the list stays exact); the list gives the reason for each.
 * SKIP when ../shared/golden/tokenizer is absent. */
#include <jansson.h>
#include <stdint.h>

#include "check.h"
#include "golden.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "text/wordpiece.h"

static wp_vocab V;
static strmap expected_differences; /* case key -> line of the list */
static int listed_seen[1024];
static int nlisted;

/* The list: "KEY<TAB>reason" lines; KEY is a case id, with ":no-literals" for the
 * WP_PLAIN_SPECIALS encoding of a special_tokens case; '#' lines are comments. */
static void load_differences(void) {
    strmap_init(&expected_differences);
    const char *root = getenv("PROBEXPAN_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/text/golden-tokenizer-differences.tsv", root ? root : ".");
    FILE *f = fopen(path, "r");
    if (!f) { CHECK_MSG(0, "cannot open %s", path); return; }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tab = strchr(line, '\t');
        CHECK_MSG(tab && tab[1] != '\n', "%s: '%s' has no reason", path, line);
        if (!tab) continue;
        CHECK_MSG(strmap_put(&expected_differences, line, (size_t)(tab - line), nlisted) < 0, "%s: %.*s listed twice",
                  path, (int)(tab - line), line);
        nlisted++;
    }
    fclose(f);
}

/* Compares one encoding with the reference; returns 1 when identical. A difference must be
 * listed, and a listed key must differ. */
static int judge(const char *key, const wp_ids *got, const json_t *want) {
    size_t n = json_array_size(want);
    int same = got->n == n;
    for (size_t i = 0; same && i < n; i++) same = got->id[i] == json_integer_value(json_array_get(want, i));
    int64_t listed = strmap_get(&expected_differences, key, strlen(key));
    if (listed >= 0) {
        listed_seen[listed] = 1;
        CHECK_MSG(!same, "%s is listed as an expected difference but matches the reference now: unlist it", key);
    } else if (!same) {
        char g[512] = "", w[512] = "";
        for (size_t i = 0, o = 0; i < got->n && o < sizeof g - 16; i++) o += (size_t)snprintf(g + o, sizeof g - o, " %d", got->id[i]);
        for (size_t i = 0, o = 0; i < n && o < sizeof w - 16; i++)
            o += (size_t)snprintf(w + o, sizeof w - o, " %lld", (long long)json_integer_value(json_array_get(want, i)));
        CHECK_MSG(0, "%s: ids%s, reference%s", key, g, w);
    }
    return same;
}

static void encode_into(const char *text, size_t len, int flags, wp_ids *out) {
    size_t bad = 0;
    long n = wp_encode(&V, text, len, flags, out, &bad, NULL);
    CHECK_MSG(n >= 0, "invalid UTF-8 at byte %zu", bad);
}

/* Calls fn on each JSON object of golden/tokenizer/<name>; returns the number of lines. */
static int each_case(const char *name, void (*fn)(const json_t *c, int *same)) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tokenizer/%s", golden_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f) { CHECK_MSG(0, "cannot open %s", path); return 0; }
    char *line = NULL;
    size_t cap = 0;
    int cases = 0, same = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t err;
        json_t *c = json_loads(line, JSON_ALLOW_NUL, &err);
        CHECK_MSG(c, "%s: line %d: %s", path, cases + 1, err.text);
        if (!c) continue;
        fn(c, &same);
        json_decref(c);
        cases++;
    }
    free(line);
    fclose(f);
    fprintf(stderr, "  %s: %d of %d encodings identical to the reference\n", name, same, cases);
    return cases;
}

static void text_case(const json_t *c, int *same) {
    const char *id = json_string_value(json_object_get(c, "id")), *hex = json_string_value(json_object_get(c, "text_utf8_hex"));
    size_t len = strlen(hex) / 2;
    char *text = xmalloc(len + 1);
    for (size_t i = 0; i < len; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        text[i] = (char)v;
    }
    const char *modes[2] = {"ids", "ids_no_special_literals"};
    for (int m = 0; m < 2; m++) {
        const json_t *want = json_object_get(c, modes[m]);
        if (!want) continue;
        wp_ids got = {0};
        wp_ids_push(&got, V.sp.cls);
        encode_into(text, len, m ? WP_PLAIN_SPECIALS : 0, &got);
        wp_ids_push(&got, V.sp.sep);
        char key[128];
        snprintf(key, sizeof key, "%s%s", id, m ? ":no-literals" : "");
        *same += m == 0 && judge(key, &got, want);
        wp_ids_free(&got);
    }
    free(text);
}

static void pretokenized_case(const json_t *c, int *same) {
    const json_t *words = json_object_get(c, "words");
    int flags = json_is_true(json_object_get(c, "match_special")) ? 0 : WP_PLAIN_SPECIALS;
    wp_ids got = {0};
    for (size_t i = 0; i < json_array_size(words); i++) {
        const json_t *w = json_array_get(words, i);
        encode_into(json_string_value(w), json_string_length(w), flags, &got);
    }
    *same += judge(json_string_value(json_object_get(c, "id")), &got, json_object_get(c, "ids"));
    wp_ids_free(&got);
}

static void test_golden_cases(void) {
    if (!golden_dir()) SKIP("no ../shared/golden");
    char vocab[4096];
    snprintf(vocab, sizeof vocab, "%s/tokenizer/vocab.txt", golden_dir());
    if (access(vocab, R_OK) != 0) SKIP("no ../shared/golden/tokenizer");
    wp_vocab_load(&V, vocab);
    load_differences();
    CHECK_EQ_INT(each_case("cases.jsonl", text_case), 434);
    CHECK_EQ_INT(each_case("cases_pretokenized.jsonl", pretokenized_case), 94);
    for (int i = 0; i < nlisted; i++) CHECK_MSG(listed_seen[i], "entry %d of the differences names no case", i + 1);
    strmap_free(&expected_differences);
    wp_vocab_free(&V);
}

TEST_MAIN_BEGIN("test_tokenizer_golden")
    RUN(test_golden_cases);
TEST_MAIN_END
