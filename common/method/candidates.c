/* candidates: incremental candidate scores and top-w selection. */
#include "method/candidates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

void candidates_init(candidates_order *c, const row_source *rows, candidates_mode mode) {
    c->rows = rows;
    c->mode = mode;
    c->n = rows->n;
    c->score = xcalloc((size_t)c->n, sizeof(double));
    c->scratch = xmalloc(sizeof(float) * (size_t)(c->n + 1));
    c->log_row = mode == CAND_LOGZ ? xmalloc(sizeof(double) * (size_t)c->n) : NULL;
}

void candidates_free(candidates_order *c) {
    free(c->score);
    free(c->scratch);
    free(c->log_row);
    c->score = c->log_row = NULL;
    c->scratch = NULL;
}

void candidates_add_member(candidates_order *c, int64_t row) {
    const float *x = c->rows->row(c->rows->ctx, row, c->scratch);
    int64_t n = c->n;
    if (c->mode == CAND_MEAN) {
        for (int64_t j = 0; j < n; j++) c->score[j] += x[j];
        return;
    }
    double *lx = c->log_row, s = 0, ss = 0;
    for (int64_t j = 0; j < n; j++) s += lx[j] = log(x[j] > 1e-30f ? (double)x[j] : 1e-30);
    double mu = s / (double)n;
    for (int64_t j = 0; j < n; j++) ss += (lx[j] - mu) * (lx[j] - mu);
    double sd = sqrt(ss / (double)n);
    double inv = sd > 0 ? 1.0 / sd : 0.0; /* a constant row carries no order */
    for (int64_t j = 0; j < n; j++) c->score[j] += (lx[j] - mu) * inv;
}

int candidates_top(const candidates_order *c, const unsigned char *blocked, int w, int64_t *out) {
    /* out[0..k-1] sorted by descending score (ties: lower row first, which the
     * ascending scan gives by inserting after equal scores) */
    if (w <= 0) return 0;
    int k = 0;
    const double *sc = c->score;
    for (int64_t j = 0; j < c->n; j++) {
        if (blocked[j]) continue;
        double v = sc[j];
        if (k == w && !(v > sc[out[k - 1]])) continue;
        int pos = k < w ? k : w - 1;
        while (pos > 0 && v > sc[out[pos - 1]]) {
            out[pos] = out[pos - 1];
            pos--;
        }
        out[pos] = j;
        if (k < w) k++;
    }
    return k;
}

int candidates_mode_parse(const char *s) {
    if (!strcmp(s, "mean")) return CAND_MEAN;
    if (!strcmp(s, "logz")) return CAND_LOGZ;
    return -1;
}
