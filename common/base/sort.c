/* sort: qsort comparators of plain numbers, ascending, and a stable partition (sort.h). */
#include "base/sort.h"

#include <stdint.h>

int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int order_moved_last(const unsigned char *moved, int n, int *order) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!moved[i]) order[k++] = i;
    int nkept = k;
    for (int i = 0; i < n; i++)
        if (moved[i]) order[k++] = i;
    return k - nkept;
}
