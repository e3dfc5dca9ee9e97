/* test_apk: AP@K by hand — duplicates, lists shorter than K, gt smaller than K, the seeds
 * left out of |gt|; P@K. */
#include "method/apk.h"
#include "check.h"

static intmap gt_of(const int64_t *eids, int n) {
    intmap m;
    intmap_init(&m);
    for (int i = 0; i < n; i++) intmap_put(&m, eids[i], i);
    return m;
}

static void test_duplicates(void) {
    /* list 1,1,2,3 against {1,3}: the repeated 1 is a position but not a hit */
    int64_t gt[] = {1, 3}, list[] = {1, 1, 2, 3};
    intmap m = gt_of(gt, 2);
    CHECK_NEAR(ap_at_k(list, 4, &m, 2, 3), 1.0 / 2, 1e-12);             /* (1/1) / min(2,3) */
    CHECK_NEAR(ap_at_k(list, 4, &m, 2, 4), (1.0 + 2.0 / 4) / 2, 1e-12); /* + 2 hits at position 4 */
    intmap_free(&m);
}

static void test_fewer_than_k(void) {
    /* 2 results, both right, 12 gt members, K = 10: (1 + 1) / 10 */
    int64_t gt[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, list[] = {5, 6};
    intmap m = gt_of(gt, 12);
    CHECK_NEAR(ap_at_k(list, 2, &m, 12, 10), 0.2, 1e-12);
    CHECK_NEAR(ap_at_k(list, 0, &m, 12, 10), 0.0, 0);
    intmap_free(&m);
}

static void test_gt_smaller_than_k(void) {
    /* hits at positions 1, 3, 5 of 5 results; |gt| = 3 < K = 10: (1 + 2/3 + 3/5) / 3 */
    int64_t gt[] = {1, 2, 3}, list[] = {1, 9, 2, 8, 3};
    intmap m = gt_of(gt, 3);
    CHECK_NEAR(ap_at_k(list, 5, &m, 3, 10), (1.0 + 2.0 / 3 + 3.0 / 5) / 3, 1e-12);
    /* K = 2 cuts after position 2: (1/1) / min(3, 2) */
    CHECK_NEAR(ap_at_k(list, 5, &m, 3, 2), 0.5, 1e-12);
    intmap_free(&m);
}

static void test_seeds_out_of_denominator(void) {
    /* a class of 7 with 3 seeds; the list (seeds removed) is the other 4 members, first:
     * official |gt| = 7 -> 4/7; without the seeds |gt| = 4 -> 1 */
    int64_t gt[] = {1, 2, 3, 4, 5, 6, 7}, seeds[] = {1, 2, 3}, list[] = {4, 5, 6, 7, 8};
    intmap m = gt_of(gt, 7);
    CHECK_NEAR(ap_at_k(list, 5, &m, 7, 10), 4.0 / 7, 1e-12);
    CHECK(seeds_in_gt(seeds, 3, &m) == 3);
    CHECK_NEAR(ap_at_k(list, 5, &m, 7 - seeds_in_gt(seeds, 3, &m), 10), 1.0, 1e-12);
    /* a repeated seed and a seed outside the class count once / not at all */
    int64_t odd[] = {1, 1, 9};
    CHECK(seeds_in_gt(odd, 3, &m) == 1);
    intmap_free(&m);
}

static void test_precision(void) {
    /* hits at 1 and 3 (the repeat at 4 is none): P@2 = 1/2, P@4 = 2/4, P@10 = 2/10 */
    int64_t gt[] = {1, 2}, list[] = {1, 9, 2, 2};
    intmap m = gt_of(gt, 2);
    CHECK_NEAR(precision_at_k(list, 4, &m, 2), 0.5, 1e-12);
    CHECK_NEAR(precision_at_k(list, 4, &m, 4), 0.5, 1e-12);
    CHECK_NEAR(precision_at_k(list, 4, &m, 10), 0.2, 1e-12);
    CHECK_NEAR(precision_at_k(list, 0, &m, 10), 0.0, 0);
    intmap_free(&m);
}

TEST_MAIN_BEGIN("test_apk")
RUN(test_duplicates);
RUN(test_fewer_than_k);
RUN(test_gt_smaller_than_k);
RUN(test_seeds_out_of_denominator);
RUN(test_precision);
TEST_MAIN_END
