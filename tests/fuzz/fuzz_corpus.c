/* fuzz_corpus: libFuzzer target for the corpus artifact reader (corpus_open,
 * corpus_next, common/artifacts/corpus.h) that build-samples runs on tokenize's output.
 * The input is the file. Every sentence handed out must have its ids inside
 * the vocabulary and its mention spans inside the sentence; the totals must
 * count the sentences read. */
#include <stdint.h>

#include "artifacts/corpus.h"
#include "fuzz.h"

/* Reads the whole file (dies on a defect); checks every sentence. */
static void read_all(const char *path) {
    corpus_reader c;
    corpus_open(&c, path);
    int64_t n = 0;
    while (corpus_next(&c)) {
        FUZZ_ASSERT(c.index == n++);
        for (int32_t i = 0; i < c.nids; i++) FUZZ_ASSERT(c.ids[i] >= 0 && c.ids[i] < c.vocab.n);
        for (int32_t i = 0; i < c.nm; i++)
            FUZZ_ASSERT(c.m[i].wp_start >= 0 && c.m[i].wp_start <= c.m[i].wp_end && c.m[i].wp_end <= c.nids);
    }
    FUZZ_ASSERT(c.totals.sentences == n);
    corpus_close(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_input_file("corpus.mp", data, size);
    FUZZ_OPEN(read_all(path)); /* a trapped error: the reader leaks, its mapping is released */
    return 0;
}
