/* sort: qsort comparators of plain numbers, ascending (e.g. qsort(v, n, sizeof(int64_t), cmp_i64)). */
#ifndef PROBEXPAN_SORT_H
#define PROBEXPAN_SORT_H

int cmp_i32(const void *a, const void *b);
int cmp_i64(const void *a, const void *b);
int cmp_u64(const void *a, const void *b);
/* NaNs compare equal to everything: keep them out of what is sorted. */
int cmp_double(const void *a, const void *b);

#endif
