/* anchor: member multipliers and -KL(anchor || r(e)) in O(members) per candidate. */
#include "method/anchor.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "method/kl.h"

double anchor_multiplier(const anchor_weighting *w, int64_t i) {
    switch (w->kind) {
    case ANCHOR_EXPAND_BANDS: return i <= 40 ? 1000 : i <= 74 ? 500 : 300;
    case ANCHOR_RERANK_BANDS: return i < 20 ? 1600 : i < 35 ? 900 : i < 70 ? 600 : 150;
    case ANCHOR_GEOMETRIC: break;
    }
    return w->alpha * ldexp(1.0, -(int)(i / w->tau));
}

void anchor_init(anchor_scorer *s, const row_source *prob) {
    s->prob = prob;
    s->n = prob->n;
    s->p = 1.0 / (double)s->n;
    s->log_p = log(s->p);
    s->row_logsum = xmalloc(sizeof(double) * (size_t)s->n);
    s->row_sum = xmalloc(sizeof(double) * (size_t)s->n);
    for (int64_t i = 0; i < s->n; i++) s->row_logsum[i] = NAN;
}

void anchor_free(anchor_scorer *s) {
    free(s->row_logsum);
    free(s->row_sum);
    s->row_logsum = s->row_sum = NULL;
}

double anchor_score(anchor_scorer *s, int64_t e, int e_pos, const int64_t *members, const double *mult, int n) {
    const row_source *src = s->prob;
    if (isnan(s->row_logsum[e])) src->sums(src->ctx, e, &s->row_sum[e], &s->row_logsum[e]);
    /* d = p on the bulk B (entities outside the members and e), p*c_i on member i,
     * r[e] on e when it is not a member (its term d log(d/r) is 0).
     * KL(d^||r^) = (1/Z) sum_j d_j (log d_j - log r_j) + log R - log Z. */
    double p = s->p, z = 0, acc = 0, member_logr = 0, last_mult = NAN, log_dm = 0;
    for (int i = 0; i < n; i++) {
        double lr = kl_log(src->at(src->ctx, e, members[i])), dm = p * mult[i];
        if (!(mult[i] == last_mult)) { /* members share a few weights: one log per run of them */
            last_mult = mult[i];
            log_dm = log(dm);
        }
        member_logr += lr;
        z += dm;
        acc += dm * (log_dm - lr);
    }
    double bulk = (double)(s->n - n), bulk_logr = s->row_logsum[e] - member_logr;
    if (e_pos < 0) {
        double r_e = src->at(src->ctx, e, e);
        bulk -= 1;
        bulk_logr -= kl_log(r_e);
        z += r_e;
    }
    z += p * bulk;
    acc += p * (bulk * s->log_p - bulk_logr);
    return -(acc / z + log(s->row_sum[e]) - log(z));
}
