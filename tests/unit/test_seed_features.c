/* test_seed_features: the features a set of entities shares, chosen and weighted by hand on a
 * six-entity pattern model — the shared feature first, the share threshold, the scores, the
 * flat and proportional log-weights, a base refinement multiplied in, and the rows of the
 * refined model pulling the set together. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "base/error.h"
#include "model/pattern_model.h"
#include "model/seed_features.h"

/* One sample of entity e with the id l1 just before the mask; every other id is fresh, so the
 * only feature kept is the pattern "l1 _" (seen with >= 2 entities). */
static int fresh_id = 1000;
static pattern_sample sample(int64_t e, int32_t l1) {
    pattern_sample s = {.entity = e, .left = {l1, fresh_id++, PATTERN_OUTSIDE}, .right = {fresh_id++, fresh_id++, PATTERN_OUTSIDE}};
    return s;
}

/* Features: A = "10 _" {e0, e1}, B = "20 _" {e2, e3}, C = "30 _" {e0, e2, e4, e5},
 * D = "40 _" {e1, e4}; one sample each, so N = 10, c(e0) = c(e1) = c(e4) = 2. */
static pattern_model *six_entities(void) {
    pattern_sample s[] = {sample(0, 10), sample(1, 10), sample(2, 20), sample(3, 20), sample(0, 30),
                          sample(2, 30), sample(4, 30), sample(5, 30), sample(1, 40), sample(4, 40)};
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.long_patterns = 0;
    c.bag = 0;
    c.min_entities = 2;
    pattern_model *m = pattern_model_build(&c, 6, 10, s);
    pattern_model_fit(m);
    return m;
}

/* The model feature held by exactly the entities of mask (bit e = entity e), else -1. */
static int32_t feature_of(const pattern_model *m, unsigned mask) {
    int64_t F = pattern_model_stats(m).features;
    for (int32_t f = 0; f < F; f++) {
        unsigned held = 0;
        for (int64_t e = 0; e < 6; e++) {
            const int32_t *pf;
            const float *pv;
            double norm;
            int64_t n = pattern_model_profile(m, e, &pf, &pv, &norm);
            for (int64_t q = 0; q < n; q++)
                if (pf[q] == f) held |= 1u << e;
        }
        if (held == mask) return f;
    }
    return -1;
}

/* PMI(e0, A) = PMI(e1, A) = PMI(e1, D) = log 2.5; PMI(e0, C) = log(10 / 8). */
static const double L25 = 0.91629073187415511, L125 = 0.22314355131420976;

static void test_selection_and_scores(void) {
    pattern_model *m = six_entities();
    CHECK_EQ_INT(pattern_model_stats(m).features, 4);
    int32_t A = feature_of(m, 0x3), D = feature_of(m, 0x12), C = feature_of(m, 0x35);
    CHECK(A >= 0 && C >= 0 && D >= 0);
    int64_t set[] = {0, 1}, rest[] = {4, 5};
    seedfeat_set S = {set, 2}, none = {NULL, 0}, others = {rest, 2};
    int32_t feat[4];
    double score[4];
    double zA0 = L25 / sqrt(L25 * L25 + L125 * L125), zC0 = L125 / sqrt(L25 * L25 + L125 * L125), z1 = 1 / sqrt(2.0);
    /* shared by both: A only */
    seedfeat_opts o = {4, 2, 1.0, 0, 0.0, 0.0, 0.0};
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &none, &o, feat, score), 1);
    CHECK_EQ_INT(feat[0], A);
    CHECK_NEAR(score[0], (zA0 + z1) / 2, 1e-6);
    /* held by one is enough: A, then D (e1's), then C (e0's smaller PMI); never B */
    o.min_share = 1;
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &none, &o, feat, score), 3);
    CHECK_EQ_INT(feat[1], D);
    CHECK_EQ_INT(feat[2], C);
    CHECK_NEAR(score[1], z1 / 2, 1e-6);
    CHECK_NEAR(score[2], zC0 / 2, 1e-6);
    /* a share of the set: half of 2 members is 1 (as min_share), all of them is 2 */
    o.share_fraction = 0.5;
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &none, &o, feat, score), 3);
    o.share_fraction = 1;
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &none, &o, feat, score), 1);
    CHECK_EQ_INT(feat[0], A);
    o.share_fraction = 0;
    /* top cuts the list */
    o.top = 2;
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &none, &o, feat, score), 2);
    CHECK_EQ_INT(feat[1], D);
    /* against the others {e4, e5}: C (all of e5, part of e4) and D (most of e4) fall below 0 */
    o.others = 1;
    CHECK_EQ_INT(seedfeat_select(m, &S, &others, &none, &o, feat, score), 1);
    CHECK_EQ_INT(feat[0], A);
    CHECK_NEAR(score[0], (zA0 + z1) / 2, 1e-6);
    o.others = 0.1; /* a small weight keeps them, lowered by 0.1 x the others' mean */
    CHECK_EQ_INT(seedfeat_select(m, &S, &others, &none, &o, feat, score), 2);
    CHECK_NEAR(score[1], z1 / 2 - 0.1 * zA0 / 2, 1e-6);
    /* the same entities as the rejected: their mean counts with weight mu, added to the others' */
    o.others = 0;
    o.rejected = 1;
    CHECK_EQ_INT(seedfeat_select(m, &S, &none, &others, &o, feat, score), 1);
    CHECK_EQ_INT(feat[0], A);
    o.others = 0.1;
    o.rejected = 0.1;
    CHECK_EQ_INT(seedfeat_select(m, &S, &others, &others, &o, feat, score), 2);
    CHECK_NEAR(score[1], z1 / 2 - 0.2 * zA0 / 2, 1e-6);
    o.rejected = 0; /* mu = 0: the rejected are not read */
    CHECK_EQ_INT(seedfeat_select(m, &S, &others, &others, &o, feat, score), 2);
    CHECK_NEAR(score[1], z1 / 2 - 0.1 * zA0 / 2, 1e-6);
    pattern_model_free(m);
}

static void test_weights_and_rows(void) {
    pattern_model *m = six_entities();
    int32_t A = feature_of(m, 0x3), D = feature_of(m, 0x12);
    int64_t set[] = {0, 1};
    seedfeat_set S = {set, 2}, none = {NULL, 0};
    seedfeat_opts o = {4, 2, 1.5, 0, 0.0, 0.0, 0.0};
    pattern_refinement *r = seedfeat_refinement(m, &S, &none, &none, &o);
    const float *w = pattern_refinement_weights(r);
    for (int32_t f = 0; f < 4; f++) CHECK_NEAR(w[f], f == A ? exp(1.5) : 1.0, 1e-5);
    /* proportional: D gets 1.5 x score_D / score_A */
    o.min_share = 1;
    o.proportional = 1;
    pattern_refinement *sel = seedfeat_refinement(m, &S, &none, &none, &o);
    pattern_refinement *p = pattern_refinement_product(m, sel, r);
    double zA0 = L25 / sqrt(L25 * L25 + L125 * L125), z1 = 1 / sqrt(2.0);
    const float *wp = pattern_refinement_weights(p);
    CHECK_NEAR(wp[A], exp(1.5) * exp(1.5), 1e-4); /* times the base's exp(1.5) */
    CHECK_NEAR(wp[D], exp(1.5 * (z1 / 2) / ((zA0 + z1) / 2)), 1e-5);
    /* the refined row of e0 moves mass towards e1 (they share A) */
    pattern_scratch *s = pattern_scratch_new(m);
    sparse_row plain, refined;
    pattern_model_sparse_row(m, NULL, 0, s, &plain);
    pattern_model_sparse_row(m, r, 0, s, &refined);
    CHECK(sparse_row_at(&refined, 1) > sparse_row_at(&plain, 1) + 1e-4);
    CHECK(sparse_row_at(&refined, 4) < sparse_row_at(&plain, 4));
    sparse_row_free(&plain);
    sparse_row_free(&refined);
    pattern_scratch_free(s);
    pattern_refinement_free(p);
    pattern_refinement_free(sel);
    pattern_refinement_free(r);
    pattern_model_free(m);
}

TEST_MAIN_BEGIN("test_seed_features")
RUN(test_selection_and_scores);
RUN(test_weights_and_rows);
TEST_MAIN_END
