/* windowsearch: round-robin window search over a group of queries. */
#include "method/windowsearch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/budget.h"
#include "base/error.h"

int windowsearch_window(const windowsearch_params *p, int set_size, int added) {
    double w;
    if (!p->official) {
        w = p->w0 + p->g * (double)(set_size / p->s);
    } else if (added >= 100) {
        w = 1;
    } else if (added < p->s) {
        w = p->w0;
    } else {
        w = p->w0 + (double)added / p->s * p->g * (added < 50 ? 1.0 : 1.25);
    }
    return (int)w;
}

typedef struct {
    candidates_order cand;
    unsigned char *blocked;
    int64_t *top;
} query_state;

void windowsearch_group(anchor_scorer *scorer, const row_source *cand_rows, windowsearch_query *q, int nq,
                  const windowsearch_params *p, int exclusive) {
    int64_t n = scorer->n;
    int maxset = 0;
    for (int k = 0; k < nq; k++)
        if (q[k].nseeds + p->size > maxset) maxset = q[k].nseeds + p->size;
    double *mult = xmalloc(sizeof(double) * (size_t)(maxset + 1));
    for (int i = 0; i < maxset; i++) mult[i] = anchor_multiplier(&p->weights, i);

    query_state *st = xcalloc((size_t)nq, sizeof *st);
    int wmax = 1;
    for (int k = 0; k < nq; k++) {
        int cap = q[k].nseeds + p->size;
        q[k].rows = xmalloc(sizeof(int64_t) * (size_t)cap);
        q[k].score = xmalloc(sizeof(double) * (size_t)(p->size + 1));
        memcpy(q[k].rows, q[k].seeds, sizeof(int64_t) * (size_t)q[k].nseeds);
        q[k].n = q[k].nseeds;
        st[k].blocked = xcalloc((size_t)n, 1);
        candidates_init(&st[k].cand, cand_rows, p->cand);
        for (int i = 0; i < q[k].nseeds; i++) candidates_add_member(&st[k].cand, q[k].seeds[i]);
        for (int i = 0; i < q[k].nneg; i++) st[k].blocked[q[k].negatives[i]] = 1;
        for (int a = 0; a < nq; a++)
            if (a == k || exclusive)
                for (int i = 0; i < q[a].nseeds; i++) st[k].blocked[q[a].seeds[i]] = 1;
        for (int set = q[k].nseeds; set <= cap; set++) {
            int w = windowsearch_window(p, set, set - q[k].nseeds);
            if (w > wmax) wmax = w;
        }
    }
    for (int k = 0; k < nq; k++) st[k].top = xmalloc(sizeof(int64_t) * (size_t)wmax);

    for (int round = 0; round < p->size && !budget_spent(); round++) { /* a spent budget ends the search short */
        for (int k = 0; k < nq; k++) {
            windowsearch_query *x = &q[k];
            if (x->n - x->nseeds != round) continue; /* ran out of candidates earlier */
            int w = windowsearch_window(p, x->n, round);
            int nc = candidates_top(&st[k].cand, st[k].blocked, w, st[k].top);
            if (nc == 0) continue;
            int best = 0;
            double best_score = -INFINITY;
            for (int c = 0; c < nc; c++) {
                double sc = anchor_score(scorer, st[k].top[c], -1, x->rows, mult, x->n);
                if (sc > best_score || c == 0) {
                    best = c;
                    best_score = sc;
                }
            }
            int64_t e = st[k].top[best];
            x->score[round] = best_score;
            x->rows[x->n++] = e;
            candidates_add_member(&st[k].cand, e);
            for (int a = 0; a < nq; a++)
                if (a == k || exclusive) st[a].blocked[e] = 1;
        }
    }
    for (int k = 0; k < nq; k++) {
        candidates_free(&st[k].cand);
        free(st[k].blocked);
        free(st[k].top);
    }
    free(st);
    free(mult);
}

void windowsearch_query_free(windowsearch_query *q) {
    free(q->rows);
    free(q->score);
    q->rows = NULL;
    q->score = NULL;
}
