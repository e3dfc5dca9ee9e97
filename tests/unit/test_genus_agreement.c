/* test_genus_agreement: a list re-ranked by what its entities' own definitions call them, and
 * the candidates whose definitions name the set's heads. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "model/genus_agreement.h"

/* Entities 0..6 over genus features 10 ("company") and 11 ("computer"):
 * 0, 1: seeds called company; 2: a product called computer; 3: no definition;
 * 4: company (3 mentions); 5: company twice, computer twice; 6: company (9 mentions). */
static int64_t off[] = {0, 1, 2, 3, 3, 4, 6, 7};
static int64_t feat[] = {10, 10, 11, 10, 10, 11, 10};
static int32_t cnt[] = {1, 1, 1, 1, 2, 2, 1};
static int64_t total[] = {1, 1, 1, 0, 1, 4, 1};
static const genus_heads h = {7, 2, off, feat, cnt, total};

static void test_agreement_of(void) {
    set_head company = {10, 2, 0};
    CHECK_NEAR(genus_agreement_of(&h, 4, &company, 1), 1.0, 1e-12);
    CHECK_NEAR(genus_agreement_of(&h, 5, &company, 1), 0.5, 1e-12);
    CHECK_NEAR(genus_agreement_of(&h, 2, &company, 1), 0.0, 1e-12);
    CHECK_NEAR(genus_agreement_of(&h, 3, &company, 1), -1.0, 1e-12); /* no definition */
}

static void test_order(void) {
    const int64_t set[] = {0, 1}, ranked[] = {2, 3, 4, 5};
    int order[4];
    /* keys: 1 e^{W/2}, 2, 3 e^{-W/2}, 4; W = 2: 2.72, 2, 1.10, 4 */
    CHECK_EQ_INT(genus_agreement_order(&h, set, 2, ranked, 4, 2.0, order), 1);
    CHECK(order[0] == 2 && order[1] == 1 && order[2] == 0 && order[3] == 3);
    /* weight 0, or a set without a shared head (0 and 2 share none): the list as it was */
    CHECK_EQ_INT(genus_agreement_order(&h, set, 2, ranked, 4, 0.0, order), 0);
    CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3);
    const int64_t mixed[] = {0, 2, 3};
    CHECK_EQ_INT(genus_agreement_order(&h, mixed, 3, ranked, 4, 2.0, order), 0);
    CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3);
}

static void test_candidates(void) {
    const int64_t set[] = {0, 1}, skip[] = {6}, mentions[] = {5, 5, 5, 5, 3, 8, 9};
    int64_t out[4];
    /* 4 (all company) before 5 (half); 6 rejected; 2 and 3 never */
    CHECK_EQ_INT(genus_agreement_candidates(&h, set, 2, skip, 1, mentions, out, 4), 2);
    CHECK(out[0] == 4 && out[1] == 5);
    /* at most max, and none but the agreeing ones: with 6 allowed, 4 and 6 tie on agreement,
     * the more mentioned first */
    CHECK_EQ_INT(genus_agreement_candidates(&h, set, 2, NULL, 0, mentions, out, 2), 2);
    CHECK(out[0] == 6 && out[1] == 4);
}

static void test_list_share(void) {
    const int64_t set[] = {0, 1}, ranked[] = {2, 3, 4, 5}, undefined[] = {3}, product[] = {2};
    /* defined: 2 (computer), 4 (company), 5 (half company): 2 of 3 named by "company" */
    CHECK_NEAR(genus_agreement_list_share(&h, set, 2, ranked, 4), 2.0 / 3.0, 1e-12);
    CHECK_NEAR(genus_agreement_list_share(&h, set, 2, product, 1), 0.0, 1e-12);
    /* no listed entity is a definition's subject, or the set shares no head: -1 */
    CHECK_NEAR(genus_agreement_list_share(&h, set, 2, undefined, 1), -1.0, 1e-12);
    const int64_t mixed[] = {0, 2, 3};
    CHECK_NEAR(genus_agreement_list_share(&h, mixed, 3, ranked, 4), -1.0, 1e-12);
}

TEST_MAIN_BEGIN("test_genus_agreement")
RUN(test_agreement_of);
RUN(test_order);
RUN(test_candidates);
RUN(test_list_share);
TEST_MAIN_END
