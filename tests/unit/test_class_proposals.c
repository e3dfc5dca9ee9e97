/* test_class_proposals: the classes proposed from a hand-made index (common/method/
 * class_proposals.h) and the heads a set shares (common/model/genus_heads.h) — shares,
 * sizes, coherence and ranking computed by hand; a head narrowed by a word its core holds more
 * than the corpus does; the set's heads with their support, best first; other feature kinds
 * ignored. */
#include <string.h>

#include "check.h"
#include "model/class_proposals.h"

/* 8 entities. Features (keys: odd = n-gram, 0 mod 4 = bag word, 2 mod 4 = genus word):
 *   0 key 2  genus A: e0..e4 once or more, e5 once       -> shares 1,1,1,1,1, 1/4
 *   1 key 6  genus B: e5 three times, e6, e7              -> shares 3/4, 1, 1
 *   2 key 4  bag word W: e0, e1, e2
 *   3 key 1  n-gram held by every entity (ignored here) */
static uint64_t key[] = {2, 6, 4, 1};
static int64_t foff[] = {0, 6, 9, 12, 20};
static int32_t ent[] = {0, 1, 2, 3, 4, 5, /**/ 5, 6, 7, /**/ 0, 1, 2, /**/ 0, 1, 2, 3, 4, 5, 6, 7};
static int32_t cnt[] = {1, 1, 1, 5, 4, 1, /**/ 3, 1, 1, /**/ 2, 2, 2, /**/ 1, 1, 1, 1, 1, 1, 1, 1};
static int64_t mentions[] = {9, 8, 7, 6, 5, 4, 3, 2};

static void index_of(corpus_index *x) {
    memset(x, 0, sizeof *x);
    x->ent.n = 8;
    x->mentions = mentions;
    x->counts = (pattern_counts){.E = 8, .F = 4, .key = key, .foff = foff, .ent = ent, .cnt = cnt};
}

static void test_heads(void) {
    corpus_index x;
    index_of(&x);
    genus_heads h;
    genus_heads_build(&h, &x.counts);
    CHECK_EQ_INT(h.features, 2);
    CHECK_EQ_INT(h.total[5], 4);
    CHECK_EQ_INT(genus_heads_count(&h, 5, 0), 1);
    CHECK_EQ_INT(genus_heads_count(&h, 5, 1), 3);
    CHECK_EQ_INT(genus_heads_count(&h, 6, 0), 0);
    CHECK_EQ_INT(genus_heads_count(&h, 0, 2), 0); /* a bag word is no head */
    set_head s[3];
    int64_t set[] = {0, 1, 2}, list[] = {3, 4, 5, 6};
    int n = genus_heads_of_set(&h, set, 3, list, 4, s, 3);
    CHECK_EQ_INT(n, 1); /* B: no seed holds it */
    CHECK_EQ_INT(s[0].feature, 0);
    CHECK_EQ_INT(s[0].set_holding, 3);
    CHECK_EQ_INT(s[0].list_holding, 3);
    int64_t set2[] = {5, 6}; /* half of two is one: A (e5) and B (e5, e6), B first */
    n = genus_heads_of_set(&h, set2, 2, list, 4, s, 3);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(s[0].feature, 1);
    CHECK_EQ_INT(s[0].set_holding, 2);
    CHECK_EQ_INT(s[0].list_holding, 2); /* e5, e6 of the list */
    CHECK_EQ_INT(s[1].feature, 0);
    CHECK_EQ_INT(genus_heads_of_set(&h, set2, 2, list, 4, s, 1), 1); /* max */
    int64_t set3[] = {6, 7, 0}; /* 2 of 3 needed: B only */
    CHECK_EQ_INT(genus_heads_of_set(&h, set3, 3, list, 4, s, 3), 1);
    CHECK_EQ_INT(s[0].feature, 1);
    genus_heads_free(&h);
}

static void test_proposals(void) {
    corpus_index x;
    index_of(&x);
    genus_heads h;
    genus_heads_build(&h, &x.counts);
    class_options o = {.min_core = 2, .members = 3, .limit = 10, .words = 3, .min_lift = 1.5};
    class_proposal *p;
    int n = class_proposals_build(&x, &h, &o, &p);
    /* A: size 5.25, coherence 5.25/6, score 4.59; A+W: e0..e2, size 3, score 3 (W: 3 of A's
     * core of 5, lift (3/5)/(3/8) = 1.6); B: size 2.75, coherence 2.75/3, score 2.52 */
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(p[0].feature, 0);
    CHECK_EQ_INT(p[0].word, -1);
    CHECK_EQ_INT(p[0].entities, 6);
    CHECK_EQ_INT(p[0].core, 5);
    CHECK_NEAR(p[0].size, 5.25, 1e-12);
    CHECK_NEAR(p[0].coherence, 5.25 / 6, 1e-12);
    CHECK_NEAR(p[0].score, 5.25 * 5.25 / 6, 1e-12);
    /* typical: share 1 first, then count (e3 5, e4 4), then mentions (e0 9) */
    CHECK_EQ_INT(p[0].nmembers, 3);
    CHECK_EQ_INT(p[0].members[0].row, 3);
    CHECK_EQ_INT(p[0].members[1].row, 4);
    CHECK_EQ_INT(p[0].members[2].row, 0);
    CHECK_EQ_INT(p[1].feature, 0);
    CHECK_EQ_INT(p[1].word, 2);
    CHECK_EQ_INT(p[1].entities, 3);
    CHECK_NEAR(p[1].score, 3, 1e-12);
    CHECK_EQ_INT(p[1].members[0].row, 0);
    CHECK_EQ_INT(p[2].feature, 1);
    CHECK_NEAR(p[2].size, 2.75, 1e-12);
    CHECK_NEAR(p[2].members[2].share, 0.75, 1e-12); /* e5 last: a weak B */
    CHECK_EQ_INT(p[2].members[2].row, 5);
    class_proposals_free(p, n);

    o.min_lift = 2; /* W is not distinctive enough: no narrowing */
    n = class_proposals_build(&x, &h, &o, &p);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(p[1].feature, 1);
    class_proposals_free(p, n);

    o.min_core = 4; /* B's core is 3 (e5 is mainly B too), A+W's 3: only A is left */
    n = class_proposals_build(&x, &h, &o, &p);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(p[0].feature, 0);
    class_proposals_free(p, n);

    o.min_core = 2;
    o.limit = 1;
    n = class_proposals_build(&x, &h, &o, &p);
    CHECK_EQ_INT(n, 1);
    class_proposals_free(p, n);
    genus_heads_free(&h);
}

TEST_MAIN_BEGIN("test_class_proposals")
RUN(test_heads);
RUN(test_proposals);
TEST_MAIN_END
