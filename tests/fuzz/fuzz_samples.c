/* fuzz_samples: libFuzzer target for the samples artifact reader (samples_open
 * and every getter, common/artifacts/samples.h). The input is the file. For an accepted
 * file the promises of common/artifacts/samples.h are checked through the getters:
 * rows own consecutive, non-empty sample ranges and map back from their eid;
 * every sample is [CLS] ... [MASK] ... [SEP] with ids inside the vocabulary and
 * belongs to its row. */
#include <stdint.h>

#include "fuzz.h"
#include "artifacts/samples.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static samples *s;
    static int32_t *tok;
    const char *path = fuzz_input_file("samples.mp", data, size);
    s = NULL;
    FUZZ_OPEN(s = samples_open(path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    int64_t E = samples_entities(s), S = samples_count(s);
    int32_t V = samples_vocab_size(s);
    samples_special_ids sp = samples_specials(s);
    FUZZ_ASSERT(E >= 1 && S >= E && V >= 1);
    for (int32_t i = 0; i < V; i++) FUZZ_ASSERT(samples_vocab_token(s, i) != NULL);
    int maxlen = samples_max_length(s);
    FUZZ_ASSERT(maxlen >= 3);
    tok = realloc(tok, (size_t)maxlen * sizeof *tok);
    int64_t next = 0;
    for (int64_t row = 0; row < E; row++) {
        int64_t first, n;
        samples_range(s, row, &first, &n);
        FUZZ_ASSERT(first == next && n >= 1);
        next = first + n;
        FUZZ_ASSERT(samples_row_of_eid(s, samples_eid(s, row)) == row);
        FUZZ_ASSERT(samples_name(s, row) != NULL);
        for (int64_t j = first; j < first + n; j++) {
            FUZZ_ASSERT(samples_entity(s, j) == row);
            int len = samples_tokens(s, j, tok), m = samples_mask_pos(s, j);
            FUZZ_ASSERT(len == samples_length(s, j) && len >= 3 && len <= maxlen);
            FUZZ_ASSERT(m >= 1 && m <= len - 2);
            FUZZ_ASSERT(tok[0] == sp.cls && tok[m] == sp.mask && tok[len - 1] == sp.sep);
            for (int k = 0; k < len; k++) FUZZ_ASSERT(tok[k] >= 0 && tok[k] < V);
            (void)samples_sentence(s, j);
        }
    }
    FUZZ_ASSERT(next == S);
    samples_close(s);
    return 0;
}
