/* test_epoch_sampler: --samples-per-entity parsing and the per-epoch draws (counts per
 * entity, without replacement when enough, with replacement otherwise, shuffled,
 * reproducible from the rng state). */
#include "check.h"
#include "model/epoch_sampler.h"
#include "base/error.h"

static void test_per_entity(void) {
    CHECK_EQ_INT(epoch_per_entity("256", 100, 10), 256);
    CHECK_EQ_INT(epoch_per_entity("avg", 100, 10), 10);
    CHECK_EQ_INT(epoch_per_entity("avg", 104, 10), 10);   /* 10.4 -> 10 */
    CHECK_EQ_INT(epoch_per_entity("avg", 105, 10), 11);   /* 10.5 -> 11 */
    CHECK_EQ_INT(epoch_per_entity("avg", 3, 10), 1);      /* at least 1 */
    CHECK_EQ_INT(epoch_per_entity("all", 3, 10), EPOCH_ALL);
}

static void bad_spec(void *arg) { epoch_per_entity(arg, 10, 2); }
static void test_per_entity_bad(void) {
    CHECK_DIES(2, "samples-per-entity", bad_spec, "0");
    CHECK_DIES(2, "samples-per-entity", bad_spec, "12x");
    CHECK_DIES(2, "samples-per-entity", bad_spec, "average");
}

static void test_draw(void) {
    /* entity 0: 10 samples [0,10); entity 1: 3 samples [10,13); entity 2: 5 samples [13,18) */
    int64_t first[3] = {0, 10, 13}, count[3] = {10, 3, 5}, k = 5;
    int64_t out[15], again[15];
    rng_t r, r2;
    rng_seed(&r, 42);
    rng_seed(&r2, 42);
    epoch_draw(3, first, count, k, &r, out);
    epoch_draw(3, first, count, k, &r2, again);
    CHECK(memcmp(out, again, sizeof out) == 0);
    int per[3] = {0}, seen0[10] = {0}, seen2[5] = {0}, sorted = 1;
    for (int i = 0; i < 15; i++) {
        int64_t j = out[i];
        CHECK(j >= 0 && j < 18);
        int e = j < 10 ? 0 : j < 13 ? 1 : 2;
        per[e]++;
        if (e == 0) seen0[j]++;
        if (e == 2) seen2[j - 13]++;
        if (i && out[i] < out[i - 1]) sorted = 0;
    }
    CHECK_EQ_INT(per[0], 5);
    CHECK_EQ_INT(per[1], 5);   /* 3 samples, drawn 5 times: with replacement */
    CHECK_EQ_INT(per[2], 5);
    for (int i = 0; i < 10; i++) CHECK(seen0[i] <= 1);   /* without replacement */
    for (int i = 0; i < 5; i++) CHECK_EQ_INT(seen2[i], 1); /* n == k: every sample once */
    CHECK(!sorted);            /* shuffled across entities */
    /* the next epoch continues the stream: a different draw */
    epoch_draw(3, first, count, k, &r, again);
    CHECK(memcmp(out, again, sizeof out) != 0);
}

static void test_draw_all(void) {
    int64_t first[2] = {0, 4}, count[2] = {4, 2}, out[6];
    rng_t r;
    rng_seed(&r, 1);
    CHECK_EQ_INT(epoch_size(2, count, EPOCH_ALL), 6);
    CHECK_EQ_INT(epoch_size(2, count, 3), 6);
    epoch_draw(2, first, count, EPOCH_ALL, &r, out);
    int seen[6] = {0};
    for (int i = 0; i < 6; i++) {
        CHECK(out[i] >= 0 && out[i] < 6);
        if (out[i] >= 0 && out[i] < 6) seen[out[i]]++;
    }
    for (int i = 0; i < 6; i++) CHECK_EQ_INT(seen[i], 1);
}

TEST_MAIN_BEGIN("test_epoch_sampler")
    RUN(test_per_entity);
    RUN(test_per_entity_bad);
    RUN(test_draw);
    RUN(test_draw_all);
TEST_MAIN_END
