/* test_located_pairs: counting the appositions "A , B" per entity pair and the place-in-place
 * rule of the final ranking (common/model/located_pairs.h) on hand-made samples and lists. */
#include "check.h"
#include "order_text.h"
#include "model/coordination.h"
#include "model/located_pairs.h"

/* entity rows: 0 Alberta, 1 Calgary, 2 Ontario, 3 Quebec, 4 London Metal Exchange, 5 LME,
 * 6 Manitoba */
static const char *const names[] = {"Alberta", "Calgary", "Ontario", "Quebec", "London Metal Exchange", "LME", "Manitoba"};
static const int64_t mentions[] = {40, 10, 50, 50, 10, 10, 5};

/* A sample of entity e named with b ("e , b"; b < 0: with none). */
static pattern_sample sample(int64_t e, int32_t b) {
    pattern_sample s = {0};
    s.entity = e;
    s.located = b >= 0 ? LOCATED_BEFORE : 0;
    s.located_in = b;
    return s;
}

static located_pairs example(void) {
    pattern_sample ps[] = {
        sample(1, 0), sample(1, 0), sample(1, -1), /* "Calgary , Alberta" twice */
        sample(2, 3), sample(3, 2),                /* "Ontario , Quebec" and "Quebec , Ontario" */
        sample(4, 5),                              /* "London Metal Exchange , LME": an abbreviation */
        sample(6, 6),                              /* itself: none */
    };
    ps[2].located = LOCATED_BEFORE; /* the flag without a partner (a run): none */
    located_pairs p;
    located_pairs_count(ps, (int64_t)(sizeof ps / sizeof *ps), names, &p);
    return p;
}

static void test_count(void) {
    located_pairs p = example();
    CHECK_EQ_INT(p.n, 3);
    CHECK_EQ_INT(p.a[0], 1); CHECK_EQ_INT(p.b[0], 0); CHECK_EQ_INT(p.count[0], 2);
    CHECK_EQ_INT(p.a[1], 2); CHECK_EQ_INT(p.b[1], 3); CHECK_EQ_INT(p.count[1], 1);
    CHECK_EQ_INT(p.a[2], 3); CHECK_EQ_INT(p.b[2], 2); CHECK_EQ_INT(p.count[2], 1);
    located_pairs_free(&p);
}

/* The new order of rows[0..n) as rows, comma-separated. */
static const char *demoted(const located_pairs *p, const int64_t *seeds, int nseeds, const int64_t *rows, int n,
                           double share, int *moved) {
    int order[16];
    *moved = located_pairs_demote(p, mentions, seeds, nseeds, rows, n, share, order);
    return order_text(rows, order, n);
}

static void test_demote(void) {
    located_pairs p = example();
    int moved;
    /* seeds Ontario: Calgary (in Alberta, ranked above it) goes to the end, Manitoba stays */
    int64_t seeds[] = {2}, rows[] = {0, 1, 6, 3};
    CHECK_STR(demoted(&p, seeds, 1, rows, 4, 0.05, &moved), "0,6,3,1");
    CHECK_EQ_INT(moved, 1);
    /* Calgary above Alberta: nothing it is in is above it, so it stays */
    int64_t before[] = {1, 0, 6};
    CHECK_STR(demoted(&p, seeds, 1, before, 3, 0.05, &moved), "1,0,6");
    CHECK_EQ_INT(moved, 0);
    /* Alberta a seed: Calgary goes whatever its place */
    int64_t alberta[] = {0}, cities[] = {1, 2, 6};
    CHECK_STR(demoted(&p, alberta, 1, cities, 3, 0.05, &moved), "2,6,1");
    /* the share: 2 of Calgary's 10 mentions, so 0.2 moves it and 0.25 does not */
    CHECK_STR(demoted(&p, alberta, 1, cities, 3, 0.2, &moved), "2,6,1");
    CHECK_STR(demoted(&p, alberta, 1, cities, 3, 0.25, &moved), "1,2,6");
    /* named both ways as often: peers, neither moves; share 0: the rule is off */
    int64_t quebec[] = {3}, peers[] = {2, 1};
    CHECK_STR(demoted(&p, quebec, 1, peers, 2, 0.01, &moved), "2,1");
    CHECK_STR(demoted(&p, alberta, 1, cities, 3, 0, &moved), "1,2,6");
    CHECK_EQ_INT(moved, 0);
    located_pairs_free(&p);
}

int main(void) {
    check_prog_ = "test_located_pairs";
    RUN(test_count);
    RUN(test_demote);
    return check_any_failed_;
}
