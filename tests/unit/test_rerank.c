/* test_rerank: re-ranking order for both aggregations on a 6-entity example
 * (seeds 0, 1; expanded 3, 2, 4, 5 in that order), with the KL scores worked out
 * by hand against the whole final set as anchor (alpha 1000, tau 40). */
#include <math.h>

#include "check.h"
#include "expansion_fixture.h"
#include "method/rerank.h"

static const int64_t SET[6] = {0, 1, 3, 2, 4, 5};
static const anchor_weighting W = {ANCHOR_GEOMETRIC, 1000, 40};

static void check_order(rerank_agg agg, double mu, const int *want_order) {
    anchor_scorer s;
    row_source src = row_source_dense(&P6);
    anchor_init(&s, &src);
    rerank_item it[4];
    rerank_set(&s, SET, 6, 2, &W, agg, mu, it);
    for (int k = 0; k < 4; k++) CHECK_EQ_INT(it[k].order, want_order[k]);
    anchor_free(&s);
}

static void test_kl_ranks(void) {
    /* every member weighs 1000 p with all six entities in the set, so d^ is
     * uniform and s(e) = -KL(uniform || r_e) = mean_j log(6 r_e[j]) */
    anchor_scorer s;
    row_source src = row_source_dense(&P6);
    anchor_init(&s, &src);
    rerank_item it[4];
    rerank_set(&s, SET, 6, 2, &W, RERANK_GEO, 0, it);
    double s3 = 0;
    for (int j = 0; j < 6; j++) s3 += log(6 * M6[3][j]) / 6;
    for (int k = 0; k < 4; k++) {
        if (it[k].order == 1) {
            CHECK_EQ_INT(it[k].rank, 1);
            CHECK_NEAR(it[k].s, s3, 1e-6);
            CHECK_NEAR(it[k].s, -0.3431751420053505, 1e-6);
        }
        if (it[k].order == 2) CHECK_EQ_INT(it[k].rank, 4); /* entity 2: -0.784 */
        if (it[k].order == 3) CHECK_EQ_INT(it[k].rank, 2); /* entity 4: -0.522 */
        if (it[k].order == 4) CHECK_EQ_INT(it[k].rank, 3); /* entity 5: -0.555 */
    }
    anchor_free(&s);
}

static void test_geo(void) {
    /* sqrt(1/(i*rank)): e3 (1,1) 1; e4 (3,2) .408; e2 (2,4) .354; e5 (4,3) .289 */
    int want[4] = {1, 3, 2, 4};
    check_order(RERANK_GEO, 0, want);
}

static void test_sum(void) {
    /* mu = 9: 9/i dominates -> expansion order */
    int official[4] = {1, 2, 3, 4};
    check_order(RERANK_SUM, 9, official);
    /* mu = 0.25: e3 1.25; e4 0.25/3+1/2 = .583; e5 .0625+1/3 = .396; e2 .125+.25 = .375 */
    int small[4] = {1, 3, 4, 2};
    check_order(RERANK_SUM, 0.25, small);
}

TEST_MAIN_BEGIN("test_rerank")
RUN(test_kl_ranks);
RUN(test_geo);
RUN(test_sum);
TEST_MAIN_END
