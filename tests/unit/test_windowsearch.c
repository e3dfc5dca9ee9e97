/* test_windowsearch: candidate order, anchor distribution and its normalisation,
 * one window-search step where the best entity is not the top candidate, window
 * growth (default and --official), and --exclusive, all against values worked
 * out by hand (the KL terms are written out in the tests). */
#include <math.h>
#include <string.h>

#include "method/anchor.h"
#include "method/candidates.h"
#include "check.h"
#include "expansion_fixture.h"
#include "method/windowsearch.h"


/* -sum d_j log(d_j / r_j) for an already normalised anchor d and row r (sum 1). */
static double neg_kl(const double *d, const float *r, int n) {
    double k = 0;
    for (int j = 0; j < n; j++) k += d[j] * log(d[j] / r[j]);
    return -k;
}

static void test_anchor_normalisation(void) {
    /* V = 6, p = 1/6, alpha = 4, tau = 1: members 0, 1, 3 weigh p*4, p*2, p*1,
     * candidate 4 keeps r4[4] = 0.5, the rest p: d = (4,2,1,1,3,1)/6, sum 2,
     * so d^ = (1/3, 1/6, 1/12, 1/12, 1/4, 1/12). */
    anchor_weighting w = {ANCHOR_GEOMETRIC, 4, 1};
    CHECK_NEAR(anchor_multiplier(&w, 0), 4, 0);
    CHECK_NEAR(anchor_multiplier(&w, 1), 2, 0);
    CHECK_NEAR(anchor_multiplier(&w, 2), 1, 0);
    anchor_scorer s;
    row_source src = row_source_dense(&P6);
    anchor_init(&s, &src);
    int64_t members[3] = {0, 1, 3};
    double mult[3] = {4, 2, 1};
    double d[6] = {1.0 / 3, 1.0 / 6, 1.0 / 12, 1.0 / 12, 1.0 / 4, 1.0 / 12};
    double want = -(1.0 / 3 * log((1.0 / 3) / 0.05) + 1.0 / 6 * log((1.0 / 6) / 0.05) + 1.0 / 12 * log((1.0 / 12) / 0.3) +
                    1.0 / 12 * log((1.0 / 12) / 0.05) + 1.0 / 4 * log(0.25 / 0.5) + 1.0 / 12 * log((1.0 / 12) / 0.05));
    CHECK_NEAR(neg_kl(d, M6[4], 6), want, 1e-6);
    CHECK_NEAR(anchor_score(&s, 4, -1, members, mult, 3), want, 1e-6);
    CHECK_NEAR(anchor_score(&s, 4, -1, members, mult, 3), -0.638141784049, 1e-6);
    /* tau = 2, alpha = 1000: multipliers 1000, 1000, 500, 500 for members 0,1,3,2 */
    anchor_weighting w2 = {ANCHOR_GEOMETRIC, 1000, 2};
    CHECK_NEAR(anchor_multiplier(&w2, 1), 1000, 0);
    CHECK_NEAR(anchor_multiplier(&w2, 2), 500, 0);
    int64_t m2[4] = {0, 1, 3, 2};
    double mu2[4] = {1000, 1000, 500, 500};
    CHECK_NEAR(anchor_score(&s, 5, -1, m2, mu2, 4), -1.311454978592, 1e-6);
    /* the official bands */
    anchor_weighting eb = {ANCHOR_EXPAND_BANDS, 0, 1}, rb = {ANCHOR_RERANK_BANDS, 0, 1};
    CHECK_NEAR(anchor_multiplier(&eb, 40), 1000, 0);
    CHECK_NEAR(anchor_multiplier(&eb, 41), 500, 0);
    CHECK_NEAR(anchor_multiplier(&eb, 74), 500, 0);
    CHECK_NEAR(anchor_multiplier(&eb, 75), 300, 0);
    CHECK_NEAR(anchor_multiplier(&rb, 19), 1600, 0);
    CHECK_NEAR(anchor_multiplier(&rb, 20), 900, 0);
    CHECK_NEAR(anchor_multiplier(&rb, 35), 600, 0);
    CHECK_NEAR(anchor_multiplier(&rb, 69), 600, 0);
    CHECK_NEAR(anchor_multiplier(&rb, 70), 150, 0);
    anchor_free(&s);
}

static void test_candidate_order(void) {
    candidates_order c;
    row_source src = row_source_dense(&P6);
    candidates_init(&c, &src, CAND_MEAN);
    candidates_add_member(&c, 0);
    candidates_add_member(&c, 1);
    unsigned char blocked[6] = {1, 1, 0, 0, 0, 0};
    int64_t top[3];
    CHECK_EQ_INT(candidates_top(&c, blocked, 3, top), 3);
    CHECK_EQ_INT(top[0], 2); /* 0.40 */
    CHECK_EQ_INT(top[1], 3); /* 0.30 */
    CHECK_EQ_INT(top[2], 4); /* 0.10, ties with 5: lower row first */
    blocked[2] = blocked[3] = blocked[4] = blocked[5] = 1;
    CHECK_EQ_INT(candidates_top(&c, blocked, 3, top), 0);
    candidates_free(&c);
}

static void test_candidate_order_logz(void) {
    /* probability rows whose logs are a = (-1,-2,-3,-4): mean -2.5, population std
     * sqrt(1.25); b = (-8,-2,-2,-4): mean -4, std sqrt(6) (the log is taken on read).
     * Standardised sums: j=0: 1.5/sqrt(1.25) - 4/sqrt(6), j=1: .5/sqrt(1.25) + 2/sqrt(6),
     * j=2: -.5/sqrt(1.25) + 2/sqrt(6), j=3: -1.5/sqrt(1.25) + 0 -> order 1, 2, 0, 3,
     * where the raw sums (-9,-4,-5,-8) would give 1, 2, 3, 0. */
    static const float L[2][4] = {{-1, -2, -3, -4}, {-8, -2, -2, -4}};
    float P[2][4];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) P[i][j] = expf(L[i][j]);
    const row_matrix lm = {.rows = 2, .cols = 4, .stride = 4, .data = &P[0][0]};
    candidates_order c;
    row_source src = row_source_dense(&lm);
    candidates_init(&c, &src, CAND_LOGZ);
    candidates_add_member(&c, 0);
    candidates_add_member(&c, 1);
    double a = sqrt(1.25), b = sqrt(6.0);
    CHECK_NEAR(c.score[0], 1.5 / a - 4 / b, 1e-6);
    CHECK_NEAR(c.score[1], 0.5 / a + 2 / b, 1e-6);
    CHECK_NEAR(c.score[2], -0.5 / a + 2 / b, 1e-6);
    CHECK_NEAR(c.score[3], -1.5 / a, 1e-6);
    unsigned char blocked[4] = {0, 0, 0, 0};
    int64_t top[4];
    CHECK_EQ_INT(candidates_top(&c, blocked, 4, top), 4);
    CHECK_EQ_INT(top[0], 1);
    CHECK_EQ_INT(top[1], 2);
    CHECK_EQ_INT(top[2], 0);
    CHECK_EQ_INT(top[3], 3);
    candidates_free(&c);
}

static void test_window_step(void) {
    /* w = 2: candidates 2 (top) and 3; alpha 4, tau 1.
     * s(2): d = (4/6, 2/6, 0.5, 1/6, 1/6, 1/6), sum 2 -> KL against r2;
     * s(3): d = (4/6, 2/6, 1/6, 0.35, 1/6, 1/6), sum 1.85 -> KL against r3. */
    double d2[6] = {4.0 / 12, 2.0 / 12, 0.25, 1.0 / 12, 1.0 / 12, 1.0 / 12};
    double d3[6] = {4 / 6.0 / 1.85, 2 / 6.0 / 1.85, 1 / 6.0 / 1.85, 0.35 / 1.85, 1 / 6.0 / 1.85, 1 / 6.0 / 1.85};
    double s2 = neg_kl(d2, M6[2], 6), s3 = neg_kl(d3, M6[3], 6);
    CHECK_NEAR(s2, -1.075023909924, 1e-6);
    CHECK_NEAR(s3, -0.115499006849, 1e-6);
    anchor_scorer s;
    row_source src = row_source_dense(&P6);
    anchor_init(&s, &src);
    int64_t seeds[2] = {0, 1};
    windowsearch_query q = {2, seeds, 0, NULL, 0, NULL, NULL};
    windowsearch_params p = {1, 2, 0, 20, 0, CAND_MEAN, {ANCHOR_GEOMETRIC, 4, 1}};
    windowsearch_group(&s, &src, &q, 1, &p, 0);
    CHECK_EQ_INT(q.n, 3);
    CHECK_EQ_INT(q.rows[2], 3);
    CHECK_NEAR(q.score[0], s3, 1e-6);
    windowsearch_query_free(&q);
    /* with a window of 1 only the top candidate is looked at */
    p.w0 = 1;
    windowsearch_group(&s, &src, &q, 1, &p, 0);
    CHECK_EQ_INT(q.rows[2], 2);
    CHECK_NEAR(q.score[0], s2, 1e-6);
    windowsearch_query_free(&q);
    /* a negative seed leaves the candidates: with 2 out, the top one is 3 */
    int64_t neg[1] = {2};
    windowsearch_query qn = {2, seeds, 1, neg, 0, NULL, NULL};
    windowsearch_group(&s, &src, &qn, 1, &p, 0);
    CHECK_EQ_INT(qn.rows[2], 3);
    windowsearch_query_free(&qn);
    anchor_free(&s);
}

static void test_window_growth(void) {
    windowsearch_params p = {100, 1, 2.5, 20, 0, CAND_MEAN, {ANCHOR_GEOMETRIC, 1000, 40}};
    /* w = floor(1 + 2.5 * floor(|L|/20)) */
    CHECK_EQ_INT(windowsearch_window(&p, 3, 0), 1);
    CHECK_EQ_INT(windowsearch_window(&p, 19, 16), 1);
    CHECK_EQ_INT(windowsearch_window(&p, 20, 17), 3);  /* 3.5 */
    CHECK_EQ_INT(windowsearch_window(&p, 40, 37), 6);
    CHECK_EQ_INT(windowsearch_window(&p, 60, 57), 8);  /* 8.5 */
    CHECK_EQ_INT(windowsearch_window(&p, 103, 100), 13); /* 13.5 */
    /* official: by entities added r: 1 below 20, 1 + 2.5 r/20 below 50,
     * 1 + 1.25 * 2.5 r/20 below 100, then 1 */
    p.official = 1;
    CHECK_EQ_INT(windowsearch_window(&p, 22, 19), 1);
    CHECK_EQ_INT(windowsearch_window(&p, 23, 20), 3);
    CHECK_EQ_INT(windowsearch_window(&p, 33, 30), 4);  /* 4.75 */
    CHECK_EQ_INT(windowsearch_window(&p, 52, 49), 7);  /* 7.125 */
    CHECK_EQ_INT(windowsearch_window(&p, 53, 50), 8);  /* 8.8125 */
    CHECK_EQ_INT(windowsearch_window(&p, 102, 99), 16); /* 16.46875 */
    CHECK_EQ_INT(windowsearch_window(&p, 103, 100), 1);
}

/* Query A (seed 0) and B (seed 1) both rank 2 first. */
static float X6[6][6] = {
    {0.30f, 0.25f, 0.30f, 0.10f, 0.03f, 0.02f},
    {0.20f, 0.30f, 0.35f, 0.02f, 0.10f, 0.03f},
    {0.10f, 0.10f, 0.50f, 0.10f, 0.10f, 0.10f},
    {0.20f, 0.20f, 0.20f, 0.20f, 0.10f, 0.10f},
    {0.05f, 0.05f, 0.10f, 0.10f, 0.60f, 0.10f},
    {0.10f, 0.10f, 0.10f, 0.10f, 0.10f, 0.50f},
};
static const row_matrix PX = {.rows = 6, .cols = 6, .stride = 6, .data = &X6[0][0]};

static void test_exclusive(void) {
    anchor_scorer s;
    row_source src = row_source_dense(&PX);
    anchor_init(&s, &src);
    int64_t a = 0, b = 1;
    windowsearch_params p = {2, 1, 0, 20, 0, CAND_MEAN, {ANCHOR_GEOMETRIC, 1000, 40}};
    /* independent: A = 0 +2 (0.30) +1 (0.25+0.10); B = 1 +2 (0.35) +0 (0.20+0.10) */
    windowsearch_query q[2] = {{1, &a, 0, NULL, 0, NULL, NULL}, {1, &b, 0, NULL, 0, NULL, NULL}};
    windowsearch_group(&s, &src, &q[0], 1, &p, 0);
    windowsearch_group(&s, &src, &q[1], 1, &p, 0);
    CHECK_EQ_INT(q[0].rows[1], 2);
    CHECK_EQ_INT(q[0].rows[2], 1);
    CHECK_EQ_INT(q[1].rows[1], 2);
    CHECK_EQ_INT(q[1].rows[2], 0);
    windowsearch_query_free(&q[0]);
    windowsearch_query_free(&q[1]);
    /* exclusive, A first: both seeds leave both pools; round 1: A takes 2, B gets
     * 4 (0.10); round 2: A takes 3 (0.10+0.10 over 5: 0.02+0.10), B gets 5. */
    windowsearch_group(&s, &src, q, 2, &p, 1);
    CHECK_EQ_INT(q[0].rows[1], 2);
    CHECK_EQ_INT(q[0].rows[2], 3);
    CHECK_EQ_INT(q[1].rows[1], 4);
    CHECK_EQ_INT(q[1].rows[2], 5);
    windowsearch_query_free(&q[0]);
    windowsearch_query_free(&q[1]);
    anchor_free(&s);
}

TEST_MAIN_BEGIN("test_windowsearch")
RUN(test_anchor_normalisation);
RUN(test_candidate_order);
RUN(test_candidate_order_logz);
RUN(test_window_step);
RUN(test_window_growth);
RUN(test_exclusive);
TEST_MAIN_END
