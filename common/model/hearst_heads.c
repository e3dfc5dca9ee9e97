/* hearst_heads: class nouns of Hearst's patterns and titles around mentions (contract in
 * hearst_heads.h). */
#include "model/hearst_heads.h"

#include <string.h>

/* The word ending at ids[end] (skipping one "," before it) as head n of out; returns n + 1
 * when there is one, else n. */
static int head_before(const genus_vocab *v, const int32_t *ids, int end, int32_t out[HEAD_WORDS][GENUS_PIECES], int n) {
    if (end >= 1 && genus_is_comma(v, ids[end])) end--;
    if (end < 1 || n >= HEAD_WORDS) return n;
    return genus_word_ending_at(v, ids, end, out[n]) >= 1 ? n + 1 : n;
}

int hearst_span_heads(const genus_vocab *v, const int32_t *before, int start, const int32_t *after, int after_len,
                      int end, int32_t out[HEAD_WORDS][GENUS_PIECES]) {
    for (int w = 0; w < HEAD_WORDS; w++)
        for (int p = 0; p < GENUS_PIECES; p++) out[w][p] = -1;
    int n = 0;
    genus_cue c1 = start >= 2 ? genus_cue_of(v, before[start - 1]) : CUE_NONE;
    if (c1 == CUE_AS && start >= 3 && genus_cue_of(v, before[start - 2]) == CUE_SUCH) {
        n = head_before(v, before, start - 3, out, n); /* Y such as X */
    } else if (c1 == CUE_AS) { /* such Y as X */
        int32_t w[GENUS_PIECES];
        int q = genus_word_ending_at(v, before, start - 2, w);
        if (q >= 2 && genus_cue_of(v, before[q - 1]) == CUE_SUCH) {
            memcpy(out[n++], w, sizeof w);
        }
    } else if (c1 == CUE_INCLUDING) {
        n = head_before(v, before, start - 2, out, n); /* Y including X */
    }
    if (end + 3 < after_len && genus_is_conjunction(v, after[end + 1]) && genus_cue_of(v, after[end + 2]) == CUE_OTHER) {
        int32_t h[GENUS_WORDS][GENUS_PIECES]; /* X and other Y */
        int k = genus_phrase_heads(v, after, after_len, end + 3, h);
        for (int i = 0; i < k && n < HEAD_WORDS; i++) memcpy(out[n++], h[i], sizeof h[i]);
    }
    return n;
}

int hearst_title(const genus_vocab *v, const int32_t *ids, int mask, int32_t out[GENUS_PIECES]) {
    int32_t prev[GENUS_PIECES];
    int q = genus_word_ending_at(v, ids, mask - 1, out);
    if (q >= 2 && genus_word_ending_at(v, ids, q - 1, prev) >= 1) return 1;
    for (int p = 0; p < GENUS_PIECES; p++) out[p] = -1;
    return 0;
}
