/* fuzz_definition_genus: libFuzzer target for the definition reader (common/model/
 * definition_genus.h) and the readers of running text built on its vocabulary (coordination.h,
 * hearst_heads.h, name_head.h) on arbitrary vocabularies and id sequences: must never crash or
 * read outside the sequence. The input's lines up to the first empty one are the vocabulary
 * (any bytes, "##" pieces, "[...]" specials, empty tokens); every byte after it is one id
 * (byte - 2: -2, -1 and ids past the vocabulary occur). Every position is tried as the mention.
 * Checked, for the genus and the differentia: at most GENUS_WORDS (DIFFERENTIA_WORDS) words;
 * each word's pieces are ids of the vocabulary that occur in the sequence after the mention,
 * padded with -1 to GENUS_PIECES; unused words all -1; no differentia without a genus. The
 * class nouns and the name head: at most HEAD_WORDS words of vocabulary ids, -1 padded; the
 * lists among the sequence read as one sentence's samples (every position a mask): each
 * position inside its own list. */
#include <stdint.h>

#include "fuzz.h"
#include "model/coordination.h"
#include "model/definition_genus.h"
#include "model/hearst_heads.h"
#include "model/name_head.h"

#define MAX_TOKENS 256
#define MAX_IDS 512

/* The n words of out[0..slots) read for the mention at ids[mask], checked as above. */
static void check_words(const int32_t (*out)[GENUS_PIECES], int n, int slots, const int32_t *ids, int len, int mask, int32_t nt) {
    FUZZ_ASSERT(n >= 0 && n <= slots);
    for (int w = 0; w < slots; w++) {
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
        int32_t out[GENUS_WORDS][GENUS_PIECES], diff[DIFFERENTIA_WORDS][GENUS_PIECES];
        int nd, n = definition_genus(&v, ids, len, mask, out, diff, &nd);
        check_words((const int32_t(*)[GENUS_PIECES])out, n, GENUS_WORDS, ids, len, mask, nt);
        check_words((const int32_t(*)[GENUS_PIECES])diff, nd, DIFFERENTIA_WORDS, ids, len, mask, nt);
        FUZZ_ASSERT(n > 0 || nd == 0);
    }
    static sentence_mention m[MAX_IDS];
    static int first[MAX_IDS], last[MAX_IDS];
    for (int mask = 0; mask < len; mask++) {
        int32_t h[HEAD_WORDS][GENUS_PIECES];
        int n = hearst_span_heads(&v, ids, mask, ids, len, mask, h);
        FUZZ_ASSERT(n >= 0 && n <= HEAD_WORDS);
        if (n < HEAD_WORDS) n += hearst_title(&v, ids, mask, h[n]);
        for (int w = 0; w < HEAD_WORDS; w++)
            for (int p = 0; p < GENUS_PIECES; p++)
                FUZZ_ASSERT(w >= n ? h[w][p] == -1 : h[w][p] >= (p ? -1 : 0) && h[w][p] < nt);
        m[mask] = (sentence_mention){ids, len, mask};
    }
    coordination_lists(&v, m, len, first, last);
    for (int k = 0; k < len; k++) FUZZ_ASSERT(first[k] <= k && k <= last[k] && last[k] < len);
    int32_t head[GENUS_PIECES];
    int named = name_head(&v, ids, len, head);
    FUZZ_ASSERT(named == 0 ? head[0] == -1 : head[0] >= 0 && head[0] < nt);
    genus_vocab_free(&v);
    return 0;
}
