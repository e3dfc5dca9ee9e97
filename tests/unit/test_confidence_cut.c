/* test_confidence_cut: the cut of small -KL curves worked out by hand (confidence_cut.h): the
 * head and tail means, the threshold at several fractions, a flat curve (no drop), a rising
 * one (the cut inside the head from CONFIDENCE_CUT_RISING_MIN values, no drop below), a list
 * shorter than the head, the empty list, and the JSON object; the oracle cut of member lists
 * worked out by hand. */
#include <string.h>

#include "check.h"
#include "method/confidence_cut.h"

/* 16 values: five -1.0, -1.5, -1.7, nine -2.0. top = mean of the first 10
 * = (-5 - 1.5 - 1.7 - 3 x 2) / 10 = -1.42; bottom = ranks 13..16 = -2.0; top - bottom = 0.58. */
static const double STEP[16] = {-1, -1, -1, -1, -1, -1.5, -1.7, -2, -2, -2, -2, -2, -2, -2, -2, -2};

static void test_levels_and_fractions(void) {
    confidence_cut c;
    confidence_cut_find(&c, STEP, 16, 0.45); /* threshold -1.42 - 0.261 = -1.681: -1.7 is the first below */
    CHECK_NEAR(c.top, -1.42, 1e-12);
    CHECK_NEAR(c.bottom, -2.0, 1e-12);
    CHECK_NEAR(c.threshold, -1.681, 1e-12);
    CHECK_EQ_INT(c.above, 6);
    CHECK_EQ_INT(c.dropped, 1);
    CHECK_EQ_INT(c.n, 16);
    confidence_cut_find(&c, STEP, 16, 0.1); /* -1.478: -1.5 is below */
    CHECK_EQ_INT(c.above, 5);
    confidence_cut_find(&c, STEP, 16, 0.9); /* -1.942: only the -2.0 are below */
    CHECK_EQ_INT(c.above, 7);
    confidence_cut_find(&c, STEP, 16, 1.0); /* -2.0 itself: nothing is strictly below */
    CHECK_EQ_INT(c.above, 16);
    CHECK_EQ_INT(c.dropped, 0);
}

static void test_no_drop(void) {
    const double flat[8] = {-3, -3, -3, -3, -3, -3, -3, -3};
    confidence_cut c;
    confidence_cut_find(&c, flat, 8, 0.45);
    CHECK_EQ_INT(c.above, 8);
    CHECK_EQ_INT(c.dropped, 0);
}

static void test_rising(void) {
    /* 8 values: top = mean of all 8 = -2.9125 < bottom = mean(-2.7, -2.6) = -2.65, but a list
     * shorter than CONFIDENCE_CUT_RISING_MIN: nothing drops */
    const double short_rising[8] = {-3, -3.2, -3.1, -3, -2.9, -2.8, -2.7, -2.6};
    confidence_cut c;
    confidence_cut_find(&c, short_rising, 8, 0.45);
    CHECK_EQ_INT(c.above, 8);
    CHECK_EQ_INT(c.dropped, 0);
    CHECK_NEAR(c.top, -2.9125, 1e-12);
    CHECK_NEAR(c.bottom, -2.65, 1e-12);
    /* 40 values: ten -3.0, twenty -2.9, ten -2.5: top -3.0 < bottom (ranks 31..40) -2.5; the
     * threshold -3.0 + 0.45 x 0.5 = -2.775 is above the head and the first value is below it:
     * no part of the list is confident */
    double rising[CONFIDENCE_CUT_RISING_MIN];
    for (int i = 0; i < CONFIDENCE_CUT_RISING_MIN; i++) rising[i] = i < 10 ? -3.0 : i < 30 ? -2.9 : -2.5;
    confidence_cut_find(&c, rising, CONFIDENCE_CUT_RISING_MIN, 0.45);
    CHECK_EQ_INT(c.above, 0);
    CHECK_EQ_INT(c.dropped, 1);
    CHECK_NEAR(c.threshold, -2.775, 1e-12);
    /* the same with its first two at -2.0: top = (2 x -2 + 8 x -3) / 10 = -2.8, threshold
     * -2.8 + 0.45 x 0.3 = -2.665: the cut comes after them */
    rising[0] = rising[1] = -2.0;
    confidence_cut_find(&c, rising, CONFIDENCE_CUT_RISING_MIN, 0.45);
    CHECK_EQ_INT(c.above, 2);
    CHECK_EQ_INT(c.dropped, 1);
    CHECK_NEAR(c.threshold, -2.665, 1e-12);
    /* one value fewer: a short list again, nothing drops */
    confidence_cut_find(&c, rising, CONFIDENCE_CUT_RISING_MIN - 1, 0.45);
    CHECK_EQ_INT(c.above, CONFIDENCE_CUT_RISING_MIN - 1);
    CHECK_EQ_INT(c.dropped, 0);
}

static void test_short_and_empty(void) {
    /* 3 values: top = mean of all = -5/3, bottom = rank 3 (from floor(9/4) = 2) = -3,
     * threshold = -5/3 - 0.45 x 4/3 = -2.2667: the third is below */
    const double three[3] = {-1, -1, -3};
    confidence_cut c;
    confidence_cut_find(&c, three, 3, 0.45);
    CHECK_EQ_INT(c.above, 2);
    CHECK_NEAR(c.threshold, -5.0 / 3 - 0.6, 1e-12);
    confidence_cut_find(&c, NULL, 0, 0.45);
    CHECK_EQ_INT(c.above, 0);
    CHECK_EQ_INT(c.dropped, 0);
}

static void test_json(void) {
    confidence_cut c;
    confidence_cut_find(&c, STEP, 16, 0.45);
    json_t *j = confidence_cut_json(&c);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "above")), 6);
    CHECK(json_is_true(json_object_get(j, "dropped")));
    CHECK_STR(json_string_value(json_object_get(j, "curve")), "kl_score");
    CHECK_NEAR(json_real_value(json_object_get(j, "threshold")), -1.681, 1e-12);
    CHECK_NEAR(json_real_value(json_object_get(j, "fraction")), 0.45, 1e-12);
    json_decref(j);
}

/* The oracle cut: the highest precision among the cuts keeping >= min_recall of the members. */
static void test_oracle(void) {
    /* members at ranks 1, 2, 4, 7, 8 (5 in all). Recall >= 0.5 needs 3 hits: k = 4 (3/4 = 0.75),
     * k = 5, 6 (3/5, 3/6), k = 7 (4/7), k = 8 (5/8 = 0.625): the best is 4. */
    const unsigned char m[10] = {1, 1, 0, 1, 0, 0, 1, 1, 0, 0};
    CHECK_EQ_INT(confidence_cut_oracle(m, 10, 0.5), 4);
    /* recall >= 0.2 (one hit): k = 1 and 2 both have precision 1; ties go to the longer */
    CHECK_EQ_INT(confidence_cut_oracle(m, 10, 0.2), 2);
    /* all the members: k = 8 (5/8), the shortest cut that holds them all */
    CHECK_EQ_INT(confidence_cut_oracle(m, 10, 1.0), 8);
    /* a list that starts with non-members: the cut still has to reach the recall */
    const unsigned char late[6] = {0, 0, 1, 0, 1, 1};
    CHECK_EQ_INT(confidence_cut_oracle(late, 6, 0.5), 6); /* 2 hits needed: k = 5 (2/5), k = 6 (3/6) is higher */
    /* no member in the list, and the empty list: 0 */
    const unsigned char none[3] = {0, 0, 0};
    CHECK_EQ_INT(confidence_cut_oracle(none, 3, 0.5), 0);
    CHECK_EQ_INT(confidence_cut_oracle(none, 0, 0.5), 0);
}

TEST_MAIN_BEGIN("test_confidence_cut")
RUN(test_levels_and_fractions);
RUN(test_no_drop);
RUN(test_rising);
RUN(test_short_and_empty);
RUN(test_json);
RUN(test_oracle);
TEST_MAIN_END
