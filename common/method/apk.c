/* apk: average precision at K with duplicate-aware hits. */
#include "method/apk.h"

double ap_at_k(const int64_t *list, int n, const intmap *gt, int64_t ngt, int k) {
    int lim = n < k ? n : k, hits = 0;
    double sum = 0;
    for (int i = 0; i < lim; i++) {
        if (intmap_get(gt, list[i]) < 0) continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = list[j] == list[i];
        if (seen) continue;
        hits++;
        sum += (double)hits / (i + 1);
    }
    return sum / (double)(ngt < k ? ngt : k);
}
