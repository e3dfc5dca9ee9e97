/* test_refine_check: the seeds' vote between the refinement check's candidates — a higher
 * held-out score alone does not replace the simpler candidate (one seed's near-tie), a
 * majority of seeds with a higher score does, ties keep the simpler, and the refined ensemble
 * is judged against whichever candidate won before it. */
#include "check.h"
#include "engine/refine_check.h"

static void test_score_is_the_mean(void) {
    const double row[3] = {1, 0.5, 0.25};
    CHECK_NEAR(refine_check_score(row, 3), 1.75 / 3, 1e-12);
    CHECK_NEAR(refine_check_score(row, 1), 1, 1e-12);
}

static void test_prefers_needs_the_mean_and_the_majority(void) {
    const double simple[3] = {0.30, 0.30, 0.30};
    /* one seed jumps from rank 3 to rank 1, two fall a little: the mean rises, the seeds say no
     * (mini-ese's national capitals query: the ensemble won the old check by 0.0007) */
    const double one_jump[3] = {0.80, 0.29, 0.29};
    CHECK(refine_check_score(one_jump, 3) > refine_check_score(simple, 3));
    CHECK(!refine_check_prefers(one_jump, simple, 3));
    /* two seeds up, one down, the mean up: preferred */
    const double majority[3] = {0.35, 0.32, 0.28};
    CHECK(refine_check_prefers(majority, simple, 3));
    /* a majority up but the mean down: not preferred */
    const double majority_lower_mean[3] = {0.31, 0.31, 0.05};
    CHECK(!refine_check_prefers(majority_lower_mean, simple, 3));
    /* one up, one equal, one down: a tie of the judges keeps the simpler */
    const double split[3] = {0.50, 0.30, 0.29};
    CHECK(!refine_check_prefers(split, simple, 3));
    /* one up, two equal: preferred */
    const double one_up[3] = {0.31, 0.30, 0.30};
    CHECK(refine_check_prefers(one_up, simple, 3));
    /* equal rows are never preferred, in either direction */
    CHECK(!refine_check_prefers(simple, simple, 3));
}

static void test_choice_order(void) {
    const double low[3] = {0.2, 0.2, 0.2}, mid[3] = {0.3, 0.3, 0.3}, high[3] = {0.4, 0.4, 0.4};
    const double spike[3] = {0.9, 0.1, 0.1}; /* the highest mean (0.367), one seed's vote */
    {
        const double *const rows[REFINE_CHECK_CANDIDATES] = {mid, low, low};
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_MODEL1);
    }
    {
        const double *const rows[REFINE_CHECK_CANDIDATES] = {low, mid, low};
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_ENSEMBLE);
    }
    {
        const double *const rows[REFINE_CHECK_CANDIDATES] = {low, mid, high};
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_REFINED);
    }
    { /* the refined ensemble beats model 1 but not the ensemble that replaced it */
        const double *const rows[REFINE_CHECK_CANDIDATES] = {low, high, mid};
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_ENSEMBLE);
    }
    { /* the highest mean from one seed's spike: model 1 stays */
        const double *const rows[REFINE_CHECK_CANDIDATES] = {mid, mid, spike};
        CHECK(refine_check_score(spike, 3) > refine_check_score(mid, 3));
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_MODEL1);
    }
    { /* all equal: the simplest */
        const double *const rows[REFINE_CHECK_CANDIDATES] = {mid, mid, mid};
        CHECK_EQ_INT(refine_check_choice(rows, 3), REFINE_CHECK_MODEL1);
    }
    { /* two seeds: one up and one down is a tie, both up wins */
        const double a[2] = {0.5, 0.5}, up_down[2] = {0.9, 0.4}, both_up[2] = {0.6, 0.55};
        const double *const tie[REFINE_CHECK_CANDIDATES] = {a, up_down, a};
        CHECK_EQ_INT(refine_check_choice(tie, 2), REFINE_CHECK_MODEL1);
        const double *const win[REFINE_CHECK_CANDIDATES] = {a, a, both_up};
        CHECK_EQ_INT(refine_check_choice(win, 2), REFINE_CHECK_REFINED);
    }
}

TEST_MAIN_BEGIN("test_refine_check")
RUN(test_score_is_the_mean);
RUN(test_prefers_needs_the_mean_and_the_majority);
RUN(test_choice_order);
TEST_MAIN_END
