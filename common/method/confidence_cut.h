/* confidence_cut: where the method's confidence drops in a ranked list ("where to cut",
 * docs/cut.md). The curve is each listed entity's -KL against the final set (the re-ranking's
 * s(e), common/method/rerank.h: `query`'s kl_score, the API's figure kl_score, a `ranked`
 * artifact's kl_score), best rank first. It starts high (the seeds' own class) and flattens at
 * a lower level once the list has drifted to other entities. With
 *   top    = the mean of the first CONFIDENCE_CUT_HEAD values (all of them if fewer),
 *   bottom = the mean of the last quarter of the list (ranks floor(3n/4)+1..n),
 *   threshold = top - fraction * (top - bottom),
 * the cut is before the first entity whose value is below the threshold: ranks 1..above are
 * above it. When no value is below it (a flat curve), nothing drops: above = n. When the tail
 * is above the head (bottom > top: the list's order goes against its own -KL) in a list of at
 * least CONFIDENCE_CUT_RISING_MIN, the threshold is above the head's mean and the cut comes
 * inside the head, usually at 0: no part of the list is confident. In a shorter list head and
 * tail overlap or are a handful of values, and a tail above the head is mostly the noise of a
 * list that is all one class: nothing drops (above = n), as in a flat list.
 * The fraction CONFIDENCE_CUT_FRACTION was chosen by leave-one-corpus-out on wordnet-ese dev
 * and reuters-ese dev (make bench-cut). The cut is relative to the list: a shorter list has a
 * higher bottom and so an earlier cut; the figures of docs/cut.md are for lists of 200.
 * Cost O(n); no allocation. The ranking itself is never changed: the cut is information about it.
 * confidence_cut_oracle is the measure of what any cut of a list could do: the best cut position
 * chosen knowing which entities are members (evaluate --cut-fraction, make bench-cut). */
#ifndef PROBEXPAN_CONFIDENCE_CUT_H
#define PROBEXPAN_CONFIDENCE_CUT_H

#include <jansson.h>

#define CONFIDENCE_CUT_HEAD 10
#define CONFIDENCE_CUT_FRACTION 0.45
/* The shortest list whose rising curve is a judgement: a head of CONFIDENCE_CUT_HEAD and a last
 * quarter at least as long, apart. */
#define CONFIDENCE_CUT_RISING_MIN (4 * CONFIDENCE_CUT_HEAD)

typedef struct {
    int n;            /* entities in the list */
    int above;        /* entities above the cut: ranks 1..above (0..n) */
    int dropped;      /* 1: the curve fell below the threshold inside the list; 0: above == n */
    double fraction;  /* the fraction used */
    double top, bottom, threshold;
} confidence_cut;

/* The --cut-fraction option of the tools that compute a cut (query, evaluate); `more` is a string
 * literal that ends its help. */
#define CONFIDENCE_CUT_CLI_OPTION(fraction, more)                                                                 \
    {"cut-fraction", OPT_DOUBLE, &(fraction), "F",                                                                \
     "where to cut: before the first entity whose -KL falls below top - F x (top - bottom) (docs/cut.md)" more, 0, 1}

/* The cut of curve[0..n) (n >= 0; a value per listed entity, best rank first) at `fraction` in
 * [0, 1]. n == 0: above 0, dropped 0, the levels 0. */
void confidence_cut_find(confidence_cut *c, const double *curve, int n, double fraction);

/* The best single cut of a list knowing the answers (member[i] nonzero: rank i+1 is a member; n >= 0):
 * among the cuts 1..n that keep at least min_recall of the members the list holds, the one with the
 * highest precision (ties: the longer). No member in the list: 0. What a rule on the curve cannot
 * beat on that list: a list whose oracle precision is below a goal misses it by its ranking. */
int confidence_cut_oracle(const unsigned char *member, int n, double min_recall);

/* {"above": K, "dropped": bool, "curve": "kl_score", "fraction", "top", "bottom", "threshold"}. */
json_t *confidence_cut_json(const confidence_cut *c);

#endif
