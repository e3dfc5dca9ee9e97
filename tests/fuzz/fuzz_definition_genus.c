/* fuzz_definition_genus: libFuzzer target for the definition reader (common/model/
 * definition_genus.h) on arbitrary vocabularies and id sequences: must never crash or read
 * outside the sequence. The input's lines up to the first empty one are the vocabulary (any
 * bytes, "##" pieces, "[...]" specials, empty tokens); every byte after it is one id (byte
 * - 2: -2, -1 and ids past the vocabulary occur). Every position is tried as the mention.
 * Checked: at most GENUS_WORDS words; each word's pieces are ids of the vocabulary that occur
 * in the sequence after the mention, padded with -1 to GENUS_PIECES; unused words all -1. */
#include <stdint.h>

#include "fuzz.h"
#include "model/definition_genus.h"

#define MAX_TOKENS 256
#define MAX_IDS 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char buf[65536 + 1];
    if (size > 65536) return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    const char *tokens[MAX_TOKENS];
    int32_t nt = 0;
    size_t i = 0;
    while (i < size && nt < MAX_TOKENS) { /* the vocabulary: lines up to an empty one */
        char *nl = memchr(buf + i, '\n', size - i);
        size_t end = nl ? (size_t)(nl - buf) : size;
        buf[end] = 0;
        if (end == i) {
            i++;
            break;
        }
        tokens[nt++] = buf + i;
        i = end + 1;
    }
    int32_t ids[MAX_IDS];
    int len = 0;
    for (; i < size && len < MAX_IDS; i++) ids[len++] = (int32_t)data[i] - 2;
    genus_vocab v;
    genus_vocab_init(&v, tokens, nt);
    for (int mask = 0; mask < len; mask++) {
        int32_t out[GENUS_WORDS][GENUS_PIECES];
        int n = definition_genus(&v, ids, len, mask, out);
        FUZZ_ASSERT(n >= 0 && n <= GENUS_WORDS);
        for (int w = 0; w < GENUS_WORDS; w++) {
            int pad = w >= n;
            FUZZ_ASSERT(pad || out[w][0] >= 0);
            for (int p = 0; p < GENUS_PIECES; p++) {
                if (out[w][p] < 0) pad = 1;
                if (pad) {
                    FUZZ_ASSERT(out[w][p] == -1);
                    continue;
                }
                FUZZ_ASSERT(out[w][p] < nt);
                int seen = 0;
                for (int q = mask + 1; q < len && !seen; q++) seen = ids[q] == out[w][p];
                FUZZ_ASSERT(seen);
            }
        }
    }
    genus_vocab_free(&v);
    return 0;
}
