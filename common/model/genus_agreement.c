/* genus_agreement: an expansion re-ranked by its candidates' own definitions (contract in genus_agreement.h). */
#include "model/genus_agreement.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/row_list.h"

int genus_agreement_glossary(const genus_heads *h, int64_t samples) {
    int64_t counts = 0;
    for (int64_t e = 0; e < h->E; e++) counts += h->total[e];
    return samples > 0 && (double)counts >= PATTERN_GLOSSARY_SHARE * (double)samples;
}

double genus_agreement_of(const genus_heads *h, int64_t e, const set_head *heads, int n) {
    if (h->total[e] <= 0) return -1;
    int64_t on = 0;
    for (int i = 0; i < n; i++) on += genus_heads_count(h, e, heads[i].feature);
    return (double)on / (double)h->total[e];
}

/* The set's heads held by the most of its members (at least half: genus_heads_of_set) into
 * heads[0..GENUS_AGREEMENT_HEADS); returns how many. A head fewer members hold is a word
 * some definitions add ("capital and largest city": city beside capital), not the class. */
static int set_heads(const genus_heads *h, const int64_t *set, int nset, set_head *heads) {
    int n = genus_heads_of_set(h, set, nset, NULL, 0, heads, GENUS_AGREEMENT_HEADS), k = 0;
    while (k < n && heads[k].set_holding == heads[0].set_holding) k++;
    return k;
}

typedef struct {
    double key;
    int at;
} keyed;

static int by_key(const void *a, const void *b) {
    const keyed *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->at - q->at;
}

int genus_agreement_order(const genus_heads *h, const int64_t *set, int nset, const int64_t *ranked, int n,
                          double weight, int *order) {
    for (int i = 0; i < n; i++) order[i] = i;
    set_head heads[GENUS_AGREEMENT_HEADS];
    int nh = weight > 0 ? set_heads(h, set, nset, heads) : 0;
    if (nh == 0) return 0;
    keyed *k = xmalloc(sizeof *k * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        double a = genus_agreement_of(h, ranked[i], heads, nh);
        if (a < 0) a = 0.5;
        k[i] = (keyed){(double)(i + 1) * exp(-weight * (a - 0.5)), i};
    }
    qsort(k, (size_t)n, sizeof *k, by_key);
    for (int i = 0; i < n; i++) order[i] = k[i].at;
    free(k);
    return nh;
}

double genus_agreement_list_share(const genus_heads *h, const int64_t *set, int nset, const int64_t *ranked, int n) {
    set_head heads[GENUS_AGREEMENT_HEADS];
    int nh = set_heads(h, set, nset, heads), defined = 0, naming = 0;
    if (nh == 0) return -1;
    for (int i = 0; i < n; i++) {
        double a = genus_agreement_of(h, ranked[i], heads, nh);
        if (a < 0) continue;
        defined++;
        naming += a > 0;
    }
    return defined ? (double)naming / defined : -1;
}

typedef struct {
    double agreement;
    int64_t mentions, row;
} candidate;

static int by_agreement(const void *a, const void *b) {
    const candidate *p = a, *q = b;
    if (p->agreement != q->agreement) return p->agreement > q->agreement ? -1 : 1;
    if (p->mentions != q->mentions) return p->mentions > q->mentions ? -1 : 1;
    return (p->row > q->row) - (p->row < q->row);
}

int genus_agreement_candidates(const genus_heads *h, const int64_t *set, int nset, const int64_t *skip, int nskip,
                               const int64_t *mentions, int64_t *out, int max) {
    set_head heads[GENUS_AGREEMENT_HEADS];
    int nh = set_heads(h, set, nset, heads);
    if (nh == 0) return 0;
    candidate *c = xmalloc(sizeof *c * (size_t)(h->E + 1));
    int64_t n = 0;
    for (int64_t e = 0; e < h->E; e++) {
        double a = genus_agreement_of(h, e, heads, nh);
        if (a > 0 && !row_list_contains(set, nset, e) && !row_list_contains(skip, nskip, e)) c[n++] = (candidate){a, mentions[e], e};
    }
    qsort(c, (size_t)n, sizeof *c, by_agreement);
    int k = n < max ? (int)n : max;
    for (int i = 0; i < k; i++) out[i] = c[i].row;
    free(c);
    return k;
}
