/* fuzz_sentences: libFuzzer target for the sentences.json line parser of
 * tokenize (sentence_parse, common/dataset/sentences.h). Each line of the input is one
 * sentences.json line; entity2id has eids 0..9. Every line goes through both
 * modes: word counting (--learn-vocab) and encoding with smallvocab.h, in the
 * flag mode chosen by the input size. Checked: a line fails in both modes or in
 * neither, always with a reason; both modes agree on blank lines and word
 * counts; every mention of an encoded sentence maps to a non-empty wordpiece
 * span inside the sentence, and kept + dropped + left-out mentions = all
 * mentions, the left-out ones (embedded mentions of even eids, in half of the
 * inputs) no more than the embedded ones. */
#include "fuzz.h"
#include "dataset/sentences.h"
#include "smallvocab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static wp_vocab vocab;
    static intmap eids;
    static sentence s;
    static strmap counts;
    static char *line, err[512];
    if (!vocab.n) {
        small_vocab(&vocab);
        intmap_init(&eids);
        for (int64_t e = 0; e < 10; e++) intmap_put(&eids, e, e);
        strmap_init(&counts);
    }
    int flags = (int)(size % 4); /* WP_PLAIN_SPECIALS | WP_WHOLE_WORDS */
    static const uint8_t leave[10] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    const sentence_opts count_opts = {NULL, flags, &eids, NULL},
                        enc_opts = {&vocab, flags, &eids, (size / 4) % 2 ? leave : NULL};
    strmap_free(&counts);
    strmap_init(&counts);
    line = realloc(line, size + 1);
    for (size_t pos = 0; pos < size;) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - data) - pos : size - pos;
        memcpy(line, data + pos, len);
        line[len] = 0;
        pos += len + 1;
        err[0] = 0;
        int counted = sentence_parse(&count_opts, line, len, &s, &counts, err, sizeof err);
        FUZZ_ASSERT(counted >= -1 && counted <= 1);
        FUZZ_ASSERT(counted >= 0 || err[0]);
        int32_t nwords = s.nwords, nm = s.nm, embedded = 0;
        for (int32_t i = 0; counted > 0 && i < nm; i++) embedded += s.embedded[i];
        err[0] = 0;
        int encoded = sentence_parse(&enc_opts, line, len, &s, NULL, err, sizeof err);
        FUZZ_ASSERT(encoded == counted);
        FUZZ_ASSERT(encoded >= 0 || err[0]);
        if (encoded <= 0) continue;
        FUZZ_ASSERT(s.nwords == nwords && s.nm + s.dropped + s.left_out == nm);
        FUZZ_ASSERT(s.left_out <= embedded && (enc_opts.leave_embedded || !s.left_out));
        for (int32_t i = 0; i < s.nm; i++) {
            FUZZ_ASSERT(s.m[i].wp_start >= 0);
            FUZZ_ASSERT(s.m[i].wp_start < s.m[i].wp_end);
            FUZZ_ASSERT((size_t)s.m[i].wp_end <= s.ids.n);
            FUZZ_ASSERT(intmap_get(&eids, s.m[i].eid) >= 0);
        }
    }
    return 0;
}
