/* sort: qsort comparators of plain numbers, ascending (e.g. qsort(v, n, sizeof(int64_t), cmp_i64)),
 * and a stable partition of a list's positions. */
#ifndef PROBEXPAN_SORT_H
#define PROBEXPAN_SORT_H

int cmp_i32(const void *a, const void *b);
int cmp_i64(const void *a, const void *b);
int cmp_u64(const void *a, const void *b);
/* NaNs compare equal to everything: keep them out of what is sorted. */
int cmp_double(const void *a, const void *b);

/* order[0..n) receives the positions i with moved[i] == 0 in their order, then those with
 * moved[i] != 0 in theirs (a list whose flagged entries go to its end); returns how many are
 * flagged. */
int order_moved_last(const unsigned char *moved, int n, int *order);

#endif
