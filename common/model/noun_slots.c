/* noun_slots: mentions in a noun's slot per entity, and the modifier rule (noun_slots.h). */
#include "model/noun_slots.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"

enum { BEFORE_NOUN = 1, AFTER_NOUN = 2 };

/* The words before a noun ("in Japan") and after one ("Egypt 's", "Kenya said", "... Chad ."). */
static const char *const before_noun[] = {"in", "to", "from"};
static const char *const after_noun[] = {".", "'", ";", ":", ")", "said", "says", "has", "had", "have", "is",
                                         "was", "are", "were", "will", "would", "could", "can", "may", "might",
                                         "should", "to", "in", "for", "of", "on", "at", "with", "from", "by", "as"};

static void mark(uint8_t *flag, const char *const *tokens, int32_t n, const char *const *words, size_t nwords,
                 uint8_t bit) {
    for (int32_t i = 0; i < n; i++)
        for (size_t w = 0; w < nwords; w++)
            if (!strcmp(tokens[i], words[w])) flag[i] |= bit;
}

static uint8_t flag_of(const uint8_t *flag, int32_t n, int32_t id) { return id >= 0 && id < n ? flag[id] : 0; }

void noun_slots_count(const pattern_sample *ps, int64_t S, const char *const *tokens, int32_t ntokens, int64_t E,
                      int32_t *out) {
    uint8_t *flag = xcalloc((size_t)ntokens + 1, 1);
    mark(flag, tokens, ntokens, before_noun, sizeof before_noun / sizeof *before_noun, BEFORE_NOUN);
    mark(flag, tokens, ntokens, after_noun, sizeof after_noun / sizeof *after_noun, AFTER_NOUN);
    memset(out, 0, sizeof(int32_t) * (size_t)E);
    for (int64_t j = 0; j < S; j++)
        if ((flag_of(flag, ntokens, ps[j].left[0]) & BEFORE_NOUN) || (flag_of(flag, ntokens, ps[j].right[0]) & AFTER_NOUN))
            out[ps[j].entity]++;
    free(flag);
}

static double share(const int32_t *slots, const int64_t *mentions, int64_t e) {
    return (double)slots[e] / (double)mentions[e];
}

int noun_slots_demote(const int32_t *slots, const int64_t *mentions, const int64_t *members, int m,
                      const int64_t *rows, int n, double ratio, int *order) {
    for (int i = 0; i < n; i++) order[i] = i;
    if (ratio <= 0 || !slots || m < 1 || n == 0) return 0;
    double *s = xmalloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++) s[i] = share(slots, mentions, members[i]);
    qsort(s, (size_t)m, sizeof *s, cmp_double);
    double median = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
    free(s);
    unsigned char *moved = xmalloc((size_t)n + 1);
    for (int i = 0; i < n; i++)
        moved[i] = mentions[rows[i]] >= NOUN_SLOTS_MIN_MENTIONS && share(slots, mentions, rows[i]) < ratio * median;
    int nmoved = order_moved_last(moved, n, order);
    free(moved);
    return nmoved;
}
