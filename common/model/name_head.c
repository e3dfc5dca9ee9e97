/* name_head: the head word of an entity's name (contract in name_head.h). */
#include "model/name_head.h"

#include <string.h>

int name_head(const genus_vocab *v, const int32_t *ids, int n, int32_t out[GENUS_PIECES]) {
    for (int p = 0; p < GENUS_PIECES; p++) out[p] = -1;
    int end = 0;
    while (end < n && !genus_is_stop(v, ids[end])) end++; /* the part before "of", "for", ... */
    int32_t w[GENUS_PIECES], prev[GENUS_PIECES];
    int q = -1, i = end - 1;
    for (; i >= 0 && (q = genus_word_ending_at(v, ids, i, w)) < 0; i--) {} /* skip punctuation, numbers */
    if (q < 0) return 0;
    int words = 1 + (end < n); /* words after a function word count as one */
    for (int r = q - 1; r >= 0 && words < 2; r--) words += genus_word_ending_at(v, ids, r, prev) >= 0;
    if (words < 2) return 0;
    memcpy(out, w, sizeof w);
    return 1;
}

int name_titles_add(const genus_vocab *v, const int32_t *longer, int prefix, int32_t (*out)[GENUS_PIECES], int n, int max) {
    int32_t w[GENUS_PIECES];
    for (int i = prefix - 1; i >= 0 && n < max; i--) {
        int q = genus_word_ending_at(v, longer, i, w), seen = 0;
        if (q < 0) continue;
        for (int k = 0; k < n && !seen; k++) seen = !memcmp(out[k], w, sizeof w);
        if (!seen) memcpy(out[n++], w, sizeof w);
        i = q;
    }
    return n;
}
