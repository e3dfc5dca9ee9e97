/* apk: average precision and precision at K with duplicate-aware hits. */
#include "method/apk.h"

/* Is list[i] a member seen for the first time at position i? */
static int first_hit(const int64_t *list, int i, const intmap *gt) {
    if (intmap_get(gt, list[i]) < 0) return 0;
    for (int j = 0; j < i; j++)
        if (list[j] == list[i]) return 0;
    return 1;
}

double ap_at_k(const int64_t *list, int n, const intmap *gt, int64_t ngt, int k) {
    int lim = n < k ? n : k, hits = 0;
    double sum = 0;
    for (int i = 0; i < lim; i++)
        if (first_hit(list, i, gt)) sum += (double)++hits / (i + 1);
    return sum / (double)(ngt < k ? ngt : k);
}

double precision_at_k(const int64_t *list, int n, const intmap *gt, int k) {
    int lim = n < k ? n : k, hits = 0;
    for (int i = 0; i < lim; i++) hits += first_hit(list, i, gt);
    return (double)hits / k;
}

int64_t seeds_in_gt(const int64_t *seeds, int nseeds, const intmap *gt) {
    int64_t n = 0;
    for (int s = 0; s < nseeds; s++) n += first_hit(seeds, s, gt);
    return n;
}
