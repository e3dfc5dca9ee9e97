/* test_sort: the number comparators order ascending, past the range a difference would overflow;
 * the stable partition keeps each part's order. */
#include <stdint.h>
#include <stdlib.h>

#include "base/sort.h"
#include "check.h"

static void test_i32(void) {
    int32_t v[] = {5, INT32_MIN, -1, INT32_MAX, 0, 5};
    qsort(v, 6, sizeof *v, cmp_i32);
    CHECK(v[0] == INT32_MIN && v[1] == -1 && v[2] == 0 && v[3] == 5 && v[4] == 5 && v[5] == INT32_MAX);
}

static void test_i64(void) {
    int64_t v[] = {INT64_MAX, 3, INT64_MIN, -7, 3};
    qsort(v, 5, sizeof *v, cmp_i64);
    CHECK(v[0] == INT64_MIN && v[1] == -7 && v[2] == 3 && v[3] == 3 && v[4] == INT64_MAX);
}

static void test_u64(void) {
    uint64_t v[] = {UINT64_MAX, 1, 0, (uint64_t)1 << 63, 1};
    qsort(v, 5, sizeof *v, cmp_u64);
    CHECK(v[0] == 0 && v[1] == 1 && v[2] == 1 && v[3] == (uint64_t)1 << 63 && v[4] == UINT64_MAX);
}

static void test_double(void) {
    double v[] = {2.5, -1e300, 0.25, 1e300, -0.5};
    qsort(v, 5, sizeof *v, cmp_double);
    CHECK(v[0] == -1e300 && v[1] == -0.5 && v[2] == 0.25 && v[3] == 2.5 && v[4] == 1e300);
}

/* Flagged positions go last, each part in its own order; nothing flagged: the identity. */
static void test_order_moved_last(void) {
    const unsigned char moved[] = {0, 1, 0, 1, 1, 0}, none[] = {0, 0, 0};
    int order[6];
    CHECK(order_moved_last(moved, 6, order) == 3);
    CHECK(order[0] == 0 && order[1] == 2 && order[2] == 5 && order[3] == 1 && order[4] == 3 && order[5] == 4);
    CHECK(order_moved_last(none, 3, order) == 0 && order[0] == 0 && order[1] == 1 && order[2] == 2);
}

TEST_MAIN_BEGIN("test_sort")
RUN(test_i32);
RUN(test_i64);
RUN(test_u64);
RUN(test_double);
RUN(test_order_moved_last);
TEST_MAIN_END
