/* fuzz_sentences: libFuzzer target for the sentences.json JSON-line parser of
 * tokenize (encode_line, static in stages/tokenize.c: reached by including that
 * file with its main renamed, until the parser moves to a common module; see
 * /work/notes/requests-fuzz.md). Each line of the input is one sentences.json
 * line; entity2id has eids 0..9. Every line goes through both passes: word
 * counting (--learn-vocab) and encoding with smallvocab.h into corpus
 * sentences, in the flag mode chosen by the input size. Checked: a line fails
 * in both passes or in neither, always with a reason, and every mention of an
 * encoded sentence maps to a wordpiece span inside the sentence. */
#define main tokenize_main
#include "../../stages/tokenize.c"
#undef main

#include "fuzz.h"
#include "smallvocab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static wp_vocab vocab;
    static shared count_sh, enc_sh;
    static scratch c;
    static batch b;
    static char *line;
    if (!vocab.n) {
        small_vocab(&vocab);
        intmap_init(&count_sh.eid_row);
        for (int64_t e = 0; e < 10; e++) intmap_put(&count_sh.eid_row, e, e);
        enc_sh = count_sh;
        enc_sh.vocab = &vocab;
        msgpack_sbuffer_init(&b.out);
        strmap_init(&b.counts);
    }
    count_sh.flags = enc_sh.flags = (int)(size % 4); /* WP_PLAIN_SPECIALS | WP_WHOLE_WORDS */
    b.out.size = 0;
    memset(&b.tot, 0, sizeof b.tot);
    strmap_free(&b.counts);
    strmap_init(&b.counts);
    line = realloc(line, size + 1);
    int64_t lineno = 0;
    for (size_t pos = 0; pos < size;) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - data) - pos : size - pos;
        memcpy(line, data + pos, len);
        line[len] = 0;
        pos += len + 1;
        lineno++;
        b.err_line = 0;
        int counted = encode_line(&count_sh, &c, &b, lineno, line, len);
        FUZZ_ASSERT(counted == 0 ? b.err_line == 0 : b.err_line == lineno && b.err[0]);
        b.err_line = 0;
        int64_t before = b.tot.mentions;
        int encoded = encode_line(&enc_sh, &c, &b, lineno, line, len);
        FUZZ_ASSERT(encoded == counted);
        if (encoded) continue;
        FUZZ_ASSERT(b.err_line == 0);
        for (int64_t i = 0; i < b.tot.mentions - before; i++) {
            FUZZ_ASSERT(c.m[i].wp_start >= 0);
            FUZZ_ASSERT(c.m[i].wp_start <= c.m[i].wp_end);
            FUZZ_ASSERT((size_t)c.m[i].wp_end <= c.ids.n);
        }
    }
    return 0;
}
