/* apk: AP@K and MAP@K of ranked entity lists (docs/design.md §3 Evaluation).
 *
 * AP@K = (1 / min(|gt|, K)) * sum over the hits among the first K list
 * positions of the precision at that position; an entity repeated in the list
 * counts as a hit only the first time (its later positions still count as
 * positions). A list shorter than K is scored as it is. |gt| > 0.
 *
 * The official protocol's |gt| counts every member, the seeds too, although the seeds are
 * removed from the list: a class of 7 with 3 seeds scores at most 4/7 at K = 10. With the
 * seeds left out, |gt| = |gt \ seeds| and a perfect list scores 1. */
#ifndef PROBEXPAN_APK_H
#define PROBEXPAN_APK_H

#include <stdint.h>

#include "base/hashmap.h"

/* gt: eid -> anything >= 0 for members; ngt = number of members (the denominator's |gt|). */
double ap_at_k(const int64_t *list, int n, const intmap *gt, int64_t ngt, int k);

/* P@K = (members among the first K positions, each counted once) / K; a list shorter
 * than K still divides by K. */
double precision_at_k(const int64_t *list, int n, const intmap *gt, int k);

/* How many distinct seeds are members: |gt| - this is the denominator's |gt| when the
 * seeds are left out of it (evaluate --ap-denominator non-seeds). */
int64_t seeds_in_gt(const int64_t *seeds, int nseeds, const intmap *gt);

#endif
