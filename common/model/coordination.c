/* coordination: coordination lists, "X , Y" locations and apposition pairs among a sentence's mentions (contract
 * in coordination.h). */
#include "model/coordination.h"

enum { GAP_OTHER, GAP_COMMA, GAP_CONJ };

/* The text between mention a and the next one, b (a->mask < b->mask): the longest g that ends
 * b's prefix and starts a's suffix, classified. */
static int gap_kind(const genus_vocab *v, const sentence_mention *a, const sentence_mention *b) {
    int maxg = b->mask - a->mask - 1; /* a spans at least one token */
    if (maxg > a->len - a->mask - 2) maxg = a->len - a->mask - 2; /* [SEP] ends a's suffix */
    int g = maxg;
    for (; g > 0; g--) {
        int i = 0;
        while (i < g && b->ids[b->mask - g + i] == a->ids[a->mask + 1 + i]) i++;
        if (i == g) break;
    }
    const int32_t *t = a->ids + a->mask + 1;
    if (g == 1 && genus_is_comma(v, t[0])) return GAP_COMMA;
    if (g == 1 && genus_is_conjunction(v, t[0])) return GAP_CONJ;
    if (g == 2 && genus_is_comma(v, t[0]) && genus_is_conjunction(v, t[1])) return GAP_CONJ;
    return GAP_OTHER;
}

/* The gap after mention j (GAP_OTHER when the next one does not start after it: nested or
 * repeated spans). */
static int gap_after(const genus_vocab *v, const sentence_mention *m, int j) {
    return m[j].mask < m[j + 1].mask ? gap_kind(v, &m[j], &m[j + 1]) : GAP_OTHER;
}

void coordination_lists(const genus_vocab *v, const sentence_mention *m, int n, int *first, int *last) {
    for (int i = 0; i < n; i++) first[i] = last[i] = i;
    for (int i = 0; i + 1 < n;) {
        int j = i, kind;
        while ((kind = gap_after(v, m, j)) == GAP_COMMA && j + 2 < n) j++;
        if (kind == GAP_CONJ) { /* m[i .. j+1] */
            for (int k = i; k <= j + 1; k++) first[k] = i, last[k] = j + 1;
            i = j + 2;
        } else {
            i = j > i ? j : i + 1; /* a run of commas that ends without a conjunction: go on from its end */
        }
    }
}

void coordination_located(const genus_vocab *v, const sentence_mention *m, int n, const int *first,
                          const int *last, int *located) {
    for (int i = 0; i < n; i++) located[i] = 0;
    for (int i = 0; i + 1 < n; i++) {
        if (first[i] != last[i] || first[i + 1] != last[i + 1] || gap_after(v, m, i) != GAP_COMMA) continue;
        located[i] |= LOCATED_BEFORE;
        const sentence_mention *b = &m[i + 1];
        if (genus_ends_phrase(v, b->ids[b->mask + 1])) located[i + 1] |= LOCATED_AFTER;
    }
}

int coordination_pair(const genus_vocab *v, const sentence_mention *m, int n, const int *located, int i) {
    if (!(located[i] & LOCATED_BEFORE) || i + 1 >= n) return 0;
    if (i > 0 && (located[i - 1] & LOCATED_BEFORE)) return 0;
    if (located[i + 1] & LOCATED_BEFORE) return 0;
    const sentence_mention *b = &m[i + 1];
    return b->mask + 1 >= b->len || !genus_is_conjunction(v, b->ids[b->mask + 1]);
}
