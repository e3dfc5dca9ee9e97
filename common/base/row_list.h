/* row_list: a short list of entity rows (int64_t, unsorted) asked whether it holds a row —
 * the seeds, negatives and accepted entities of one request, where a linear scan is cheapest. */
#ifndef PROBEXPAN_ROW_LIST_H
#define PROBEXPAN_ROW_LIST_H

#include <stdint.h>

/* 1 when rows[0..n) holds r, else 0 (n <= 0: 0). O(n). */
int row_list_contains(const int64_t *rows, int n, int64_t r);

#endif
