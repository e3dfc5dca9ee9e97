/* fuzz_discover: libFuzzer target for entity discovery (common/discover/discover.h)
 * fed by the text tokenizer (sentence_split.h word_tokenize), on arbitrary
 * bytes: each line of valid UTF-8 is a sentence, added three times so that
 * candidates reach min_count, with a small candidate table so that pruning runs;
 * then a second pass of the same lines (discover_add_lower_case), and a line
 * that starts with '@' is also a link target (discover_add_link), 3 links.
 * Checked: every name is its tokens joined by single spaces, starts with a
 * capitalised word or a particle and ends with a capitalised word or numeral,
 * has at most max_len tokens, no tab or newline; counts are >= min_count and in descending order;
 * aliases (merged variants, acronyms) are tokens joined by single spaces,
 * never another entity's name, and each has a merge rule with a name. */
#include <stdint.h>

#include "discover/discover.h"
#include "fuzz.h"
#include "text/sentence_split.h"
#include "text/text_source.h"

/* Each valid line of data: pass 0 counts it (and its link), pass 1 is the second pass. */
static void feed(discover *d, const uint8_t *data, size_t size, int pass) {
    const char *s = (const char *)data, *end = s + size;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (utf8_invalid_offset(s, len) < 0) {
            char *line = malloc(len + 1), **tok;
            memcpy(line, s, len);
            line[len] = 0;
            int n = word_tokenize(line, &tok);
            for (int k = 0; k < 3 && n; k++) pass ? discover_add_lower_case(d, tok, n) : discover_add_sentence(d, tok, n);
            if (!pass && line[0] == '@') discover_add_link(d, line + 1, 3);
            free(tok);
            free(line);
        }
        s += len + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    discover_params p;
    discover_params_default(&p);
    p.max_table = 64;
    discover *d = discover_new(&p);
    feed(d, data, size, 0);
    feed(d, data, size, 1);
    discovered_name *names;
    int64_t n = discover_finish(d, &names);
    discover_free(d);
    for (int64_t i = 0; i < n; i++) {
        /* the discovered tokens, joined by single spaces */
        char *copy = strdup(names[i].name), *tok[64], *save = NULL;
        int nt = 0;
        for (char *t = strtok_r(copy, " ", &save); t && nt < 64; t = strtok_r(NULL, " ", &save)) tok[nt++] = t;
        FUZZ_ASSERT(nt >= 1 && nt <= p.max_len);
        FUZZ_ASSERT(!strpbrk(names[i].name, "\t\n"));
        token_class first = discover_token_class(tok[0]), last = discover_token_class(tok[nt - 1]);
        FUZZ_ASSERT(first == TOKEN_NAME || (first == TOKEN_CONNECTOR && nt >= 2));
        FUZZ_ASSERT(last == TOKEN_NAME || last == TOKEN_NUMERAL);
        free(copy);
        FUZZ_ASSERT(names[i].count >= p.min_count);
        if (i) FUZZ_ASSERT(names[i - 1].count >= names[i].count);
        for (int k = 0; k < names[i].naliases; k++) {
            const char *a = names[i].aliases[k];
            FUZZ_ASSERT(*a && *a != ' ' && a[strlen(a) - 1] != ' ' && !strstr(a, "  ") && !strpbrk(a, "\t\n"));
            FUZZ_ASSERT(names[i].alias_rules[k] >= MERGE_SPELLING && names[i].alias_rules[k] < MERGE_RULES);
            FUZZ_ASSERT(*merge_rule_name(names[i].alias_rules[k]));
            for (int64_t j = 0; j < n; j++) FUZZ_ASSERT(strcmp(a, names[j].name));
        }
    }
    discovered_names_free(names, n);
    return 0;
}
