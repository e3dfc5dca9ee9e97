/* genus_heads: the genus features of each entity, and a set's shared heads (contract in genus_heads.h). */
#include "model/genus_heads.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"

void genus_heads_build(genus_heads *h, const pattern_counts *k) { genus_heads_build_kind(h, k, PATTERN_GENUS); }

void genus_heads_build_kind(genus_heads *h, const pattern_counts *k, pattern_kind kind) {
    memset(h, 0, sizeof *h);
    h->E = k->E;
    h->off = xcalloc((size_t)k->E + 1, sizeof(int64_t));
    h->total = xcalloc((size_t)k->E + 1, sizeof(int64_t));
    int64_t pairs = 0;
    for (int64_t f = 0; f < k->F; f++) {
        if (pattern_key_kind(k->key[f]) != kind) continue;
        h->features++;
        for (int64_t p = k->foff[f]; p < k->foff[f + 1]; p++) h->off[k->ent[p] + 1]++;
        pairs += k->foff[f + 1] - k->foff[f];
    }
    for (int64_t e = 0; e < k->E; e++) h->off[e + 1] += h->off[e];
    h->feat = xmalloc(sizeof(int64_t) * (size_t)(pairs + 1));
    h->cnt = xmalloc(sizeof(int32_t) * (size_t)(pairs + 1));
    int64_t *fill = xmalloc(sizeof(int64_t) * (size_t)(k->E + 1));
    memcpy(fill, h->off, sizeof(int64_t) * (size_t)k->E);
    for (int64_t f = 0; f < k->F; f++) { /* features ascending: each entity's list comes out sorted */
        if (pattern_key_kind(k->key[f]) != kind) continue;
        for (int64_t p = k->foff[f]; p < k->foff[f + 1]; p++) {
            int64_t e = k->ent[p], at = fill[e]++;
            h->feat[at] = f;
            h->cnt[at] = k->cnt[p];
            h->total[e] += k->cnt[p];
        }
    }
    free(fill);
}

void genus_heads_free(genus_heads *h) {
    free(h->off);
    free(h->feat);
    free(h->cnt);
    free(h->total);
    memset(h, 0, sizeof *h);
}

int32_t genus_heads_count(const genus_heads *h, int64_t e, int64_t f) {
    int64_t lo = h->off[e], hi = h->off[e + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (h->feat[mid] < f) lo = mid + 1;
        else hi = mid;
    }
    return lo < h->off[e + 1] && h->feat[lo] == f ? h->cnt[lo] : 0;
}

static int by_support(const void *a, const void *b) {
    const set_head *p = a, *q = b;
    if (p->set_holding != q->set_holding) return q->set_holding - p->set_holding;
    if (p->list_holding != q->list_holding) return q->list_holding - p->list_holding;
    return (p->feature > q->feature) - (p->feature < q->feature);
}

int genus_heads_of_set(const genus_heads *h, const int64_t *set, int nset, const int64_t *list, int nlist, set_head *out,
                       int max) {
    intmap slot; /* feature -> position in heads */
    intmap_init(&slot);
    int64_t n = 0, cap = 16;
    set_head *heads = xmalloc(sizeof *heads * (size_t)cap);
    for (int i = 0; i < nset; i++)
        for (int64_t p = h->off[set[i]]; p < h->off[set[i] + 1]; p++) {
            int64_t at = intmap_put(&slot, h->feat[p], n);
            if (at < 0) {
                if (n == cap) heads = xrealloc(heads, sizeof *heads * (size_t)(cap *= 2));
                heads[n++] = (set_head){h->feat[p], 1, 0};
            } else {
                heads[at].set_holding++;
            }
        }
    for (int i = 0; i < nlist; i++)
        for (int64_t p = h->off[list[i]]; p < h->off[list[i] + 1]; p++) {
            int64_t at = intmap_get(&slot, h->feat[p]);
            if (at >= 0) heads[at].list_holding++;
        }
    int need = nset > 1 ? (nset + 1) / 2 : 1, k = 0;
    qsort(heads, (size_t)n, sizeof *heads, by_support);
    for (int64_t i = 0; i < n && k < max && heads[i].set_holding >= need; i++) out[k++] = heads[i];
    free(heads);
    intmap_free(&slot);
    return k;
}
