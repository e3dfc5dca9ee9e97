/* confidence_cut: the rank where a ranked list's -KL curve falls below a level between its head
 * and its tail (confidence_cut.h, docs/cut.md). */
#include "method/confidence_cut.h"

static double mean_of(const double *x, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) s += x[i];
    return to > from ? s / (double)(to - from) : 0;
}

void confidence_cut_find(confidence_cut *c, const double *curve, int n, double fraction) {
    c->n = n;
    c->fraction = fraction;
    c->top = mean_of(curve, 0, n < CONFIDENCE_CUT_HEAD ? n : CONFIDENCE_CUT_HEAD);
    c->bottom = mean_of(curve, 3 * n / 4, n);
    c->threshold = c->top - fraction * (c->top - c->bottom);
    c->above = n;
    c->dropped = 0;
    /* a tail above the head (bottom > top): in a list of CONFIDENCE_CUT_RISING_MIN or more the
     * threshold, above the head's mean, puts the cut inside the head; in a shorter one head and
     * tail overlap or are a few values, and nothing drops, as in a flat list */
    if (c->bottom == c->top || (c->bottom > c->top && n < CONFIDENCE_CUT_RISING_MIN)) return;
    for (int i = 0; i < n; i++)
        if (curve[i] < c->threshold) {
            c->above = i;
            c->dropped = 1;
            return;
        }
}

int confidence_cut_oracle(const unsigned char *member, int n, double min_recall) {
    int reach = 0;
    for (int i = 0; i < n; i++) reach += member[i] != 0;
    int best = 0, best_hits = 0;
    for (int k = 1, hits = 0; k <= n; k++) {
        hits += member[k - 1] != 0;
        if ((double)hits < min_recall * (double)reach) continue;
        /* hits / k >= best_hits / best, compared without division (best 0: the first cut that qualifies) */
        if (!best || (long)hits * best >= (long)best_hits * k) {
            best = k;
            best_hits = hits;
        }
    }
    return reach ? best : 0;
}

json_t *confidence_cut_json(const confidence_cut *c) {
    return json_pack("{s:i,s:b,s:s,s:f,s:f,s:f,s:f}", "above", c->above, "dropped", c->dropped, "curve", "kl_score",
                     "fraction", c->fraction, "top", c->top, "bottom", c->bottom, "threshold", c->threshold);
}
