/* test_index: the index reader's checks that the checksum cannot make (an index written whole,
 * its trailer right, but holding what no `index` run writes): an empty entity name, a negative
 * eid, a feature key twice, a key of a kind the settings do not count, a count above what the
 * entity's mentions can show, mentions in a noun's slot outside 0..mentions — each exit 3 naming the defect; the same index without it is read. */
#include "check.h"

#include <stdint.h>

#include "artifacts/index.h"
#include "base/error.h"

static char dir[] = "/tmp/probexpan-index-XXXXXX";
static char samples[600], path[600];

/* A valid index of 3 entities (2 samples each), 2 n-gram features and 2 apposition pairs
 * (none with no_pairs), with one defect made by `spoil` (NULL: none), written to path. */
typedef void (*spoiler)(entity_table *t, pattern_config *c, pattern_counts *k);
static located_pairs pairs;
static int no_pairs;
static int32_t noun_slots[3];
static void write_index(spoiler spoil) {
    char *names[3] = {"alpha", "beta", "gamma"};
    int64_t eid[3] = {10, 11, 12}, mentions[3] = {2, 2, 2}, foff[3] = {0, 2, 4};
    uint64_t key[2] = {1, 3};
    int32_t ent[4] = {0, 1, 1, 2}, cnt[4] = {1, 2, 1, 1};
    int32_t pa[2] = {0, 2}, pb[2] = {1, 1}, pc[2] = {2, 1}; /* "alpha , beta" twice, "gamma , beta" */
    entity_table t = {3, eid, names};
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.min_entities = 2;
    pattern_counts k = {3, 2, key, foff, ent, cnt, mentions};
    pairs = (located_pairs){no_pairs ? 0 : 2, pa, pb, pc};
    noun_slots[0] = 0, noun_slots[1] = 2, noun_slots[2] = 1;
    if (spoil) spoil(&t, &c, &k);
    index_write(path, &t, mentions, noun_slots, 6, samples, &c, &k, &pairs);
}

static void empty_name(entity_table *t, pattern_config *c, pattern_counts *k) { (void)c, (void)k, t->name[1] = ""; }
static void negative_eid(entity_table *t, pattern_config *c, pattern_counts *k) { (void)c, (void)k, t->eid[0] = INT64_MIN; }
static void key_twice(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, k->key[1] = k->key[0]; }
static void bag_key_without_bag(entity_table *t, pattern_config *c, pattern_counts *k) {
    (void)t;
    c->bag = 0;
    k->key[1] = 4; /* 0 mod 4: a bag word */
}
/* entity row 1 has 2 samples, each showing at most PATTERN_MAX features */
static void count_above_mentions(entity_table *t, pattern_config *c, pattern_counts *k) {
    (void)t, (void)c, k->cnt[1] = 2 * PATTERN_MAX + 1;
}

static void pair_with_itself(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, pairs.b[1] = 2; }
static void pair_outside(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, pairs.b[1] = 3; }
static void pairs_descending(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, pairs.a[1] = 0; }
static void pair_above_mentions(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, pairs.count[0] = 3; }
static void slots_above_mentions(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, noun_slots[2] = 3; }
static void negative_slots(entity_table *t, pattern_config *c, pattern_counts *k) { (void)t, (void)c, (void)k, noun_slots[0] = -1; }

static void read_index(void *arg) {
    (void)arg;
    corpus_index x;
    index_read(&x, path);
    index_free(&x);
}

static void test_valid_read(void) {
    write_index(NULL);
    corpus_index x;
    index_read(&x, path);
    CHECK_EQ_INT(x.ent.n, 3);
    CHECK_EQ_INT(x.counts.F, 2);
    CHECK_EQ_INT(x.located.n, 2);
    CHECK_EQ_INT(x.located.a[1], 2);
    CHECK_EQ_INT(x.located.b[1], 1);
    CHECK_EQ_INT(x.located.count[0], 2);
    CHECK(x.noun_slots != NULL);
    CHECK_EQ_INT(x.noun_slots[1], 2);
    CHECK_EQ_INT(x.noun_slots[2], 1);
    index_free(&x);
}

/* No pairs (a glossary): the index has none, and reads as such. */
static void test_without_pairs(void) {
    no_pairs = 1;
    write_index(NULL);
    no_pairs = 0;
    corpus_index x;
    index_read(&x, path);
    CHECK_EQ_INT(x.located.n, 0);
    index_free(&x);
}

#define REFUSED(spoil, needle)                                                                                         \
    static void test_##spoil(void) {                                                                                   \
        write_index(spoil);                                                                                            \
        CHECK_DIES(3, needle, read_index, NULL);                                                                       \
    }
REFUSED(empty_name, "entity row 1: an empty name")
REFUSED(negative_eid, "entity row 0 has eid -9223372036854775808: expected >= 0")
REFUSED(key_twice, "feature key 0x1 appears twice")
REFUSED(bag_key_without_bag, "feature 1 has a bag word key, a kind these settings do not count")
REFUSED(count_above_mentions, "occurrences in entity row 1's 2 samples: expected at most")
REFUSED(pair_with_itself, "located pair 1 is (2, 2): expected two different entity rows in 0..2")
REFUSED(pair_outside, "located pair 1 is (2, 3): expected two different entity rows in 0..2")
REFUSED(pairs_descending, "located pair 1 is (0, 1): expected pairs strictly ascending")
REFUSED(pair_above_mentions, "located pair 0 counts 3: expected 1..2, the mentions of entity row 0")
REFUSED(slots_above_mentions, "entity row 2 has 3 mentions in a noun's slot: expected 0..2, its mentions")
REFUSED(negative_slots, "entity row 0 has -1 mentions in a noun's slot")

int main(void) {
    check_prog_ = "test_index";
    if (!mkdtemp(dir)) return 1;
    snprintf(samples, sizeof samples, "%s/samples.mp", dir);
    snprintf(path, sizeof path, "%s/index.mp", dir);
    FILE *f = fopen(samples, "w"); /* index_write records its checksum only */
    if (!f) return 1;
    fputs("samples\n", f);
    fclose(f);
    RUN(test_valid_read);
    RUN(test_empty_name);
    RUN(test_negative_eid);
    RUN(test_key_twice);
    RUN(test_bag_key_without_bag);
    RUN(test_count_above_mentions);
    RUN(test_without_pairs);
    RUN(test_pair_with_itself);
    RUN(test_pair_outside);
    RUN(test_pairs_descending);
    RUN(test_pair_above_mentions);
    RUN(test_slots_above_mentions);
    RUN(test_negative_slots);
    check_remove_dir(dir);
    return check_any_failed_;
}
