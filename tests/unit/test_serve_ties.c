/* test_serve_ties: the features tying an entity to a seed set (common/serve/ties.h) on a
 * small hand-made corpus — each listed feature really occurs with the entity and with a
 * seed (recounted from the samples), the contributions add up to the mean cosine the
 * model's own rows imply, best first, and an entity sharing nothing with the seeds gets an
 * empty list; the counts of features shared with every seed and with one (ties_shared_counts)
 * agree with that list. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "model/pattern_model.h"
#include "serve/ties.h"

/* A sample of entity e with l1 before the mask and r1 after it (nothing else around). */
static pattern_sample sample(int64_t e, int32_t l1, int32_t r1) {
    pattern_sample s = {.entity = e};
    for (int i = 0; i < PATTERN_SIDE; i++) s.left[i] = s.right[i] = PATTERN_OUTSIDE;
    s.left[0] = l1;
    s.right[0] = r1;
    return s;
}

/* Samples of entity e showing the feature with this key (recounted from the samples). */
static int64_t recount(const pattern_sample *s, int64_t S, const pattern_config *c, int64_t e, uint64_t key) {
    int64_t n = 0;
    pattern_feature d[PATTERN_MAX];
    for (int64_t j = 0; j < S; j++) {
        if (s[j].entity != e) continue;
        int nf = pattern_sample_features(&s[j], c, d), hit = 0;
        for (int k = 0; k < nf; k++) hit |= d[k].key == key;
        n += hit;
    }
    return n;
}

static void test_ties(void) {
    /* 0 and 1 (the seeds) and 2 share left words 10, 11 and right words 20-22 and a genus
     * word (the pieces 60 61); 3 and 4 share 30, 31, 40, 41 with each other only; 5 mixes both
     * groups */
    pattern_sample s[] = {sample(0, 10, 20), sample(0, 11, 21), sample(1, 10, 20), sample(1, 11, 22),
                                sample(2, 10, 21), sample(2, 12, 22), sample(3, 30, 40), sample(3, 31, 41),
                                sample(4, 30, 40), sample(4, 31, 41), sample(5, 10, 40), sample(5, 30, 20),
                                sample(5, 12, 50), sample(4, 32, 50)};
    const int64_t S = sizeof s / sizeof s[0], E = 6, seeds[] = {0, 1};
    for (int j = 0; j < 5; j += 2) { /* samples 0, 2, 4: entities 0, 1, 2 */
        s[j].ngenus = 1;
        s[j].genus[0][0] = 60;
        s[j].genus[0][1] = 61;
        s[j].genus[0][2] = s[j].genus[0][3] = -1;
    }
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.long_patterns = 0;
    c.bag = 1;
    c.evidence = 0; /* the rows below are softmax(cos / T), unshrunk */
    pattern_counts k;
    pattern_counts_build(&k, &c, E, S, s);
    pattern_model *m = pattern_model_from_counts(&c, &k);
    float r[6 * 6];
    pattern_model_rows(m, 0, E, r);

    ties_result t;
    ties_rank(m, &k, 2, seeds, 2, 1000, &t);
    CHECK(t.n > 0);
    CHECK_EQ_INT(t.n, t.shared);
    CHECK_EQ_INT(t.nseeds, 2);
    double sum = 0;
    int genus = 0;
    for (int i = 0; i < t.n; i++) {
        const tie *it = &t.items[i];
        uint64_t key = k.key[it->feature];
        CHECK_EQ_INT(it->kind, (key & 1) ? PATTERN_NGRAM : (key & 3) == 0 ? PATTERN_BAG : PATTERN_GENUS);
        genus += it->kind == PATTERN_GENUS;
        CHECK(it->contribution > 0);
        if (i) CHECK(it->contribution <= t.items[i - 1].contribution);
        CHECK_EQ_INT(it->count, recount(s, S, &c, 2, key));
        CHECK(it->count > 0);
        int sharing = 0;
        for (int q = 0; q < 2; q++) {
            CHECK_EQ_INT(t.seed_count[i * 2 + q], recount(s, S, &c, seeds[q], key));
            sharing += t.seed_count[i * 2 + q] > 0;
        }
        CHECK(sharing >= it->seeds_sharing && it->seeds_sharing >= 1);
        CHECK_NEAR(it->weight, it->kind == PATTERN_BAG ? c.bag_weight : it->kind == PATTERN_GENUS ? c.genus_weight : 1.0, 1e-9);
        CHECK_EQ_INT(it->text[0], 0); /* the text comes from ties_explain */
        sum += it->contribution;
    }
    CHECK_EQ_INT(genus, 1);
    CHECK_NEAR(sum, t.similarity, 1e-12);
    /* the rows are softmax(cos / T), cos(e, e) = 1: the mean cosine they imply */
    double cos_mean = 0;
    for (int q = 0; q < 2; q++) cos_mean += (1 + c.temperature * log((double)r[2 * E + seeds[q]] / r[2 * E + 2])) / 2;
    CHECK_NEAR(t.similarity, cos_mean, 1e-5);
    const tie best = t.items[0];

    /* the shared counts: with at least one seed = the features that contribute, with both =
     * those both seeds share; the seeds' own rows count what the other seed shares */
    int64_t rows[] = {2, 3, 0}, all[3], any[3];
    int both = 0;
    for (int i = 0; i < t.n; i++) both += t.items[i].seeds_sharing == 2;
    ties_shared_counts(m, seeds, 2, rows, 3, all, any);
    CHECK_EQ_INT(any[0], t.shared);
    CHECK_EQ_INT(all[0], both);
    CHECK(all[0] > 0);
    CHECK_EQ_INT(any[1], 0);
    CHECK_EQ_INT(all[1], 0);
    CHECK(all[2] > 0 && any[2] >= all[2]);
    ties_result_free(&t);

    ties_rank(m, &k, 2, seeds, 2, 1, &t); /* a limit keeps the best */
    CHECK_EQ_INT(t.n, 1);
    CHECK_EQ_INT(t.items[0].feature, best.feature);
    ties_result_free(&t);

    ties_rank(m, &k, 3, seeds, 2, 1000, &t); /* nothing in common with the seeds */
    CHECK_EQ_INT(t.n, 0);
    CHECK_EQ_INT(t.shared, 0);
    CHECK_NEAR(t.similarity, 0, 0);
    CHECK_NEAR(1 + c.temperature * log((double)r[3 * E + 0] / r[3 * E + 3]), 0, 1e-5);
    ties_result_free(&t);

    ties_rank(m, &k, 2, seeds, 0, 1000, &t); /* no seeds, nothing to explain */
    CHECK_EQ_INT(t.n, 0);
    ties_result_free(&t);

    pattern_model_free(m);
    pattern_counts_free(&k);
}

TEST_MAIN_BEGIN("test_serve_ties")
RUN(test_ties);
TEST_MAIN_END
