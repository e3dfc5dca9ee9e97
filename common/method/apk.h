/* apk: AP@K and MAP@K of ranked entity lists (docs/design.md §3 Evaluation).
 *
 * AP@K = (1 / min(|gt|, K)) * sum over the hits among the first K list
 * positions of the precision at that position; an entity repeated in the list
 * counts as a hit only the first time (its later positions still count as
 * positions). A list shorter than K is scored as it is. |gt| > 0. */
#ifndef PROBEXPAN_APK_H
#define PROBEXPAN_APK_H

#include <stdint.h>

#include "base/hashmap.h"

/* gt: eid -> anything >= 0 for members; ngt = number of members. */
double ap_at_k(const int64_t *list, int n, const intmap *gt, int64_t ngt, int k);

#endif
