/* test_expansions: the ranked-list reader (expansion_set_read) every list consumer goes through
 * — evaluate, rerank, build-pairs — refuses a list naming an entity twice, a
 * negative eid or a NaN score (exit 3 naming the query and the position), and reads a sound
 * one, ±inf scores included. */
#include <math.h>
#include <stdlib.h>

#include "artifacts/expansions.h"
#include "base/error.h"
#include "check.h"

static char dir[] = "/tmp/probexpan-expansions-XXXXXX";

/* Writes an `expansions` artifact of one query listing `n` entities. */
static char *write_list(const char *name, const int64_t *eids, const double *scores, int n) {
    char *path = xasprintf("%s/%s", dir, name);
    artifact_writer *w = expansions_create(path);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, 1, 100);
    int64_t seeds[2] = {1, 2};
    char *seed_names[2] = {"one", "two"}, *names[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    expansion_record r = {.class_name = "states", .query = 0, .nseeds = 2, .n = n, .seeds = seeds,
                          .seed_names = seed_names, .eids = (int64_t *)eids, .names = names, .scores = (double *)scores};
    expansion_record_pack(pk, &r);
    artifact_commit(w);
    return path;
}

static void read_list(void *path) {
    expansion_set s;
    expansion_set_read(&s, path);
    expansion_set_free(&s);
}

static void test_sound_list_reads(void) {
    int64_t eids[4] = {7, 3, 9, 4};
    double scores[4] = {2.0, 1.0, -INFINITY, -INFINITY};
    char *p = write_list("sound.mp", eids, scores, 4);
    CHECK_DIES(0, "", read_list, p);
    free(p);
}

static void test_duplicate_refused(void) {
    int64_t eids[5] = {7, 3, 9, 3, 4};
    double scores[5] = {5, 4, 3, 2, 1};
    char *p = write_list("dup.mp", eids, scores, 5);
    CHECK_DIES(3, "query 1 (class states, query 0): eid 3 at position 2 appears again at position 4", read_list, p);
    free(p);
}

static void test_negative_eid_refused(void) {
    int64_t eids[3] = {7, INT64_MIN, 9};
    double scores[3] = {3, 2, 1};
    char *p = write_list("neg.mp", eids, scores, 3);
    CHECK_DIES(3, "position 2 has eid -9223372036854775808", read_list, p);
    free(p);
}

static void test_nan_score_refused(void) {
    int64_t eids[3] = {7, 8, 9};
    double scores[3] = {3, NAN, 1};
    char *p = write_list("nan.mp", eids, scores, 3);
    CHECK_DIES(3, "position 2 (eid 8) has a NaN score", read_list, p);
    free(p);
}

TEST_MAIN_BEGIN("test_expansions")
if (!mkdtemp(dir)) die_errno("mkdtemp");
RUN(test_sound_list_reads);
RUN(test_duplicate_refused);
RUN(test_negative_eid_refused);
RUN(test_nan_score_refused);
check_remove_dir(dir);
TEST_MAIN_END
