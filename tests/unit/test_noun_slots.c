/* test_noun_slots: counting the mentions in a noun's slot (after "in", "to", "from"; before
 * "'", ".", "said", a preposition...) and the modifier rule of the final ranking
 * (common/model/noun_slots.h) on hand-made samples and lists. */
#include "check.h"
#include "order_text.h"
#include "model/noun_slots.h"

/* a vocabulary: ids 0..8 */
static const char *const tokens[] = {"in", "'", "said", "exporters", "the", "dollar", ".", "and", "to"};
enum { IN, APOS, SAID, EXPORTERS, THE, DOLLAR, STOP, AND, TO };

/* A sample of entity e between the ids l and r. */
static pattern_sample sample(int64_t e, int32_t l, int32_t r) {
    pattern_sample s = {0};
    s.entity = e;
    for (int i = 0; i < PATTERN_SIDE; i++) s.left[i] = s.right[i] = PATTERN_OUTSIDE;
    s.left[0] = l;
    s.right[0] = r;
    return s;
}

static void test_count(void) {
    pattern_sample ps[] = {
        sample(0, IN, STOP),         /* "in Japan ." */
        sample(0, THE, APOS),        /* "the Japan 's" */
        sample(0, THE, EXPORTERS),   /* "the Japan exporters": no noun's slot */
        sample(1, THE, EXPORTERS),   /* "the Japanese exporters" */
        sample(1, AND, DOLLAR),      /* "and Japanese dollar" */
        sample(1, PATTERN_OUTSIDE, SAID), /* "Japanese said" at the start: a slot */
        sample(2, TO, PATTERN_OUTSIDE),   /* "to Kenya" at the end */
        sample(2, AND, AND),
    };
    int32_t out[3];
    noun_slots_count(ps, (int64_t)(sizeof ps / sizeof *ps), tokens, (int32_t)(sizeof tokens / sizeof *tokens), 3, out);
    CHECK_EQ_INT(out[0], 2);
    CHECK_EQ_INT(out[1], 1);
    CHECK_EQ_INT(out[2], 1);
}

/* entity rows: 0 Japan, 1 Japanese, 2 Kenya, 3 Egypt, 4 Swiss (9 mentions: too few to judge),
 * 5 Canada */
static const int64_t mentions[] = {100, 200, 40, 50, 9, 60};
static const int32_t slots[] = {60, 10, 20, 30, 0, 3};

/* The new order of rows[0..n) as rows, comma-separated. */
static const char *demoted(const int32_t *s, const int64_t *seeds, int nseeds, const int64_t *rows, int n, double ratio,
                           int *moved) {
    int order[16];
    *moved = noun_slots_demote(s, mentions, seeds, nseeds, rows, n, ratio, order);
    return order_text(rows, order, n);
}

static void test_demote(void) {
    int moved;
    /* seeds Japan, Kenya, Egypt: median share 0.5; ratio 0.25 moves what is below 0.125:
     * Japanese (0.05) and Canada (0.05) in their order; Swiss has too few mentions to judge */
    int64_t seeds[] = {0, 2, 3}, rows[] = {1, 5, 4};
    CHECK_STR(demoted(slots, seeds, 3, rows, 3, 0.25, &moved), "4,1,5");
    CHECK_EQ_INT(moved, 2);
    /* a median of two seeds is their mean: Japan 0.6 and Japanese 0.05 give 0.325, and
     * ratio 0.25 moves below 0.08125: Canada (0.05) goes, Egypt (0.6) stays */
    int64_t two[] = {0, 1}, list[] = {5, 3};
    CHECK_STR(demoted(slots, two, 2, list, 2, 0.25, &moved), "3,5");
    /* seeds that are modifiers (Japanese alone: median 0.05) keep their peers */
    int64_t adjective[] = {1}, peers[] = {5, 0};
    CHECK_STR(demoted(slots, adjective, 1, peers, 2, 0.25, &moved), "5,0");
    CHECK_EQ_INT(moved, 0);
    /* ratio 0 or an index without the counts: the rule is off */
    CHECK_STR(demoted(slots, seeds, 3, rows, 3, 0, &moved), "1,5,4");
    CHECK_STR(demoted(NULL, seeds, 3, rows, 3, 0.25, &moved), "1,5,4");
    CHECK_EQ_INT(moved, 0);
}

int main(void) {
    check_prog_ = "test_noun_slots";
    RUN(test_count);
    RUN(test_demote);
    return check_any_failed_;
}
