/* located_pairs: counting the appositions "A , B" per entity pair and the place-in-place rule
 * (contract in located_pairs.h). */
#include "model/located_pairs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/row_list.h"
#include "base/sort.h"
#include "model/coordination.h"

/* Whether name b abbreviates name a: one word with a's initial after a name of several. */
static int abbreviates(const char *a, const char *b) {
    return strchr(a, ' ') && !strchr(b, ' ') && tolower((unsigned char)a[0]) == tolower((unsigned char)b[0]);
}

/* Whether sample s names its entity with another: "A , B" with A its mention. */
static int names_with(const pattern_sample *s, const char *const *name) {
    return (s->located & LOCATED_BEFORE) && s->located_in >= 0 && s->located_in != s->entity &&
           !abbreviates(name[s->entity], name[s->located_in]);
}

static int by_pair(const void *x, const void *y) {
    const int32_t *p = x, *q = y;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

void located_pairs_count(const pattern_sample *ps, int64_t S, const char *const *name, located_pairs *out) {
    memset(out, 0, sizeof *out);
    int64_t m = 0;
    for (int64_t j = 0; j < S; j++) m += names_with(&ps[j], name);
    int32_t *ab = xmalloc(sizeof(int32_t) * 2 * (size_t)(m + 1));
    m = 0;
    for (int64_t j = 0; j < S; j++)
        if (names_with(&ps[j], name)) {
            ab[2 * m] = (int32_t)ps[j].entity;
            ab[2 * m + 1] = ps[j].located_in;
            m++;
        }
    qsort(ab, (size_t)m, sizeof(int32_t) * 2, by_pair);
    out->a = xmalloc(sizeof(int32_t) * (size_t)(m + 1));
    out->b = xmalloc(sizeof(int32_t) * (size_t)(m + 1));
    out->count = xmalloc(sizeof(int32_t) * (size_t)(m + 1));
    for (int64_t i = 0; i < m; i++) {
        if (out->n && out->a[out->n - 1] == ab[2 * i] && out->b[out->n - 1] == ab[2 * i + 1]) {
            out->count[out->n - 1]++;
            continue;
        }
        out->a[out->n] = ab[2 * i];
        out->b[out->n] = ab[2 * i + 1];
        out->count[out->n++] = 1;
    }
    free(ab);
}

/* The first pair of entity a (pairs are sorted by a). */
static int64_t first_of(const located_pairs *p, int32_t a) {
    int64_t lo = 0, hi = p->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (p->a[mid] < a) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Count of "a , b" (0 when none). */
static int32_t pair_count(const located_pairs *p, int32_t a, int32_t b) {
    for (int64_t i = first_of(p, a); i < p->n && p->a[i] == a; i++)
        if (p->b[i] == b) return p->count[i];
    return 0;
}

int located_pairs_demote(const located_pairs *p, const int64_t *mentions, const int64_t *seeds, int nseeds,
                         const int64_t *rows, int n, double share, int *order) {
    for (int i = 0; i < n; i++) order[i] = i;
    if (share <= 0 || p->n == 0 || n == 0) return 0;
    /* above: the seeds and the rows kept so far (a list of a few hundred: a linear scan) */
    int64_t *above = xmalloc(sizeof(int64_t) * (size_t)(nseeds + n + 1));
    int nabove = nseeds;
    memcpy(above, seeds, sizeof(int64_t) * (size_t)nseeds);
    unsigned char *moved = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        int32_t e = (int32_t)rows[i];
        int64_t inside = 0;
        for (int64_t k = first_of(p, e); k < p->n && p->a[k] == e; k++) {
            int held = row_list_contains(above, nabove, p->b[k]);
            int32_t back = held ? pair_count(p, p->b[k], e) : 0;
            if (held && p->count[k] > back) inside += p->count[k] - back;
        }
        if (inside > 0 && (double)inside >= share * (double)mentions[e]) moved[i] = 1;
        else above[nabove++] = e;
    }
    int nmoved = order_moved_last(moved, n, order);
    free(moved);
    free(above);
    return nmoved;
}
