/* class_proposals: classes of a corpus from its definitions' heads (contract in class_proposals.h). */
#include "model/class_proposals.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

class_options class_options_defaults(void) {
    return (class_options){.min_core = 5, .members = 10, .limit = 100, .words = 3, .min_lift = 4};
}

/* qsort_r comparator; ctx: the mentions of every entity row */
static int by_typicality(const void *a, const void *b, void *ctx) {
    const class_member *p = a, *q = b;
    const int64_t *mentions_of = ctx;
    if (p->share != q->share) return p->share > q->share ? -1 : 1;
    if (p->count != q->count) return p->count > q->count ? -1 : 1;
    if (mentions_of[p->row] != mentions_of[q->row]) return mentions_of[p->row] > mentions_of[q->row] ? -1 : 1;
    return (p->row > q->row) - (p->row < q->row);
}

static int by_score(const void *a, const void *b) {
    const class_proposal *p = a, *q = b;
    if (p->score != q->score) return p->score > q->score ? -1 : 1;
    if (p->feature != q->feature) return (p->feature > q->feature) - (p->feature < q->feature);
    return (p->word > q->word) - (p->word < q->word);
}

/* Members of p among the typical members of q. */
static int shared_members(const class_proposal *p, const class_proposal *q) {
    int n = 0;
    for (int i = 0; i < p->nmembers; i++)
        for (int j = 0; j < q->nmembers; j++) n += p->members[i].row == q->members[j].row;
    return n;
}

/* Sizes a proposal from its entities m[0..n) (shares of its head), sorts them by typicality
 * and keeps the typical ones; 0 when it has too small a core. */
static int proposal_fill(class_proposal *p, class_member *m, int64_t n, const corpus_index *x, const class_options *o) {
    p->entities = n;
    for (int64_t i = 0; i < n; i++) {
        p->size += m[i].share;
        p->core += m[i].share >= 0.5;
    }
    if (p->core < o->min_core) return 0;
    p->coherence = p->size / (double)n;
    p->score = p->size * p->coherence;
    qsort_r(m, (size_t)n, sizeof *m, by_typicality, x->mentions);
    p->nmembers = (int)(n < o->members ? n : o->members);
    p->members = xmalloc(sizeof *m * (size_t)p->nmembers);
    memcpy(p->members, m, sizeof *m * (size_t)p->nmembers);
    return 1;
}

typedef struct {
    int64_t feature;
    double held, rank; /* core members holding the word; its rank: held x log(lift) */
} word_choice;

static int by_word_rank(const void *a, const void *b) {
    const word_choice *p = a, *q = b;
    if (p->rank != q->rank) return p->rank > q->rank ? -1 : 1;
    return (p->feature > q->feature) - (p->feature < q->feature);
}

/* The words narrowing head class m[0..n) (its entities with their shares): up to o->words
 * bag words that at least min_core of its core members hold, at most 80 % of them, at least
 * min_lift times more often than the corpus' entities do. held[]: scratch of F zeros. */
static int narrowing_words(const class_member *m, int64_t n, int64_t core, const genus_heads *w, const corpus_index *x,
                           const class_options *o, double *held, word_choice *out) {
    int64_t touched = 0, cap = 64;
    int64_t *list = xmalloc(sizeof(int64_t) * (size_t)cap);
    for (int64_t i = 0; i < n; i++) {
        if (m[i].share < 0.5) continue;
        for (int64_t p = w->off[m[i].row]; p < w->off[m[i].row + 1]; p++) {
            int64_t f = w->feat[p];
            if (held[f] == 0) {
                if (touched == cap) list = xrealloc(list, sizeof(int64_t) * (size_t)(cap *= 2));
                list[touched++] = f;
            }
            held[f] += 1;
        }
    }
    int k = 0;
    word_choice *best = xmalloc(sizeof *best * (size_t)(touched + 1));
    for (int64_t i = 0; i < touched; i++) {
        int64_t f = list[i];
        int64_t holding = x->counts.foff[f + 1] - x->counts.foff[f];
        double h = held[f], lift = h / (double)core / ((double)holding / (double)x->ent.n);
        held[f] = 0;
        if (h < o->min_core || h > 0.8 * (double)core || lift < o->min_lift) continue;
        best[k++] = (word_choice){f, h, h * log(lift)};
    }
    qsort(best, (size_t)k, sizeof *best, by_word_rank);
    if (k > o->words) k = o->words;
    memcpy(out, best, sizeof *best * (size_t)k);
    free(best);
    free(list);
    return k;
}

int class_proposals_build(const corpus_index *x, const genus_heads *h, const class_options *o, class_proposal **out) {
    const pattern_counts *k = &x->counts;
    int64_t n = 0, cap = h->features + 1;
    class_proposal *all = xmalloc(sizeof *all * (size_t)cap);
    class_member *m = xmalloc(sizeof *m * (size_t)(k->E + 1)), *sub = xmalloc(sizeof *sub * (size_t)(k->E + 1));
    genus_heads w; /* the bag words of each entity */
    genus_heads_build_kind(&w, k, PATTERN_BAG);
    double *held = xcalloc((size_t)k->F + 1, sizeof(double));
    word_choice *words = xmalloc(sizeof *words * (size_t)(o->words + 1));
    for (int64_t f = 0; f < k->F; f++) {
        if (pattern_key_kind(k->key[f]) != PATTERN_GENUS) continue;
        int64_t ne = k->foff[f + 1] - k->foff[f];
        for (int64_t q = k->foff[f]; q < k->foff[f + 1]; q++)
            m[q - k->foff[f]] = (class_member){k->ent[q], (double)k->cnt[q] / (double)h->total[k->ent[q]], k->cnt[q]};
        class_proposal p = {.feature = f, .word = -1};
        if (!proposal_fill(&p, m, ne, x, o)) continue;
        if (n + 1 + o->words > cap) all = xrealloc(all, sizeof *all * (size_t)(cap = 2 * cap + o->words));
        all[n++] = p;
        int nw = narrowing_words(m, ne, p.core, &w, x, o, held, words);
        for (int i = 0; i < nw; i++) { /* the head's entities whose contexts also show the word */
            int64_t ns = 0;
            for (int64_t q = 0; q < ne; q++)
                if (genus_heads_count(&w, m[q].row, words[i].feature) > 0) sub[ns++] = m[q];
            class_proposal s = {.feature = f, .word = words[i].feature};
            if (proposal_fill(&s, sub, ns, x, o)) all[n++] = s;
        }
    }
    free(words);
    free(held);
    genus_heads_free(&w);
    free(m);
    free(sub);
    qsort(all, (size_t)n, sizeof *all, by_score);
    int kept = 0;
    for (int64_t i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < kept && !dup; j++) dup = 2 * shared_members(&all[i], &all[j]) > all[i].nmembers;
        if (dup || kept == o->limit) free(all[i].members);
        else all[kept++] = all[i];
    }
    *out = xrealloc(all, sizeof *all * (size_t)(kept + 1));
    return kept;
}

void class_proposals_free(class_proposal *p, int n) {
    for (int i = 0; i < n; i++) free(p[i].members);
    free(p);
}
