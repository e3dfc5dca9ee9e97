/* test_contrastive_pairs: E_pos/E_neg bounds (1-based ranks, rank < thr_pos,
 * L_neg < rank < U_neg, seeds take no rank, union over queries, positive wins), the paper's
 * presets, and the pair recipe (set sizes, distinct sentences, dedup, determinism). */
#include "check.h"
#include "model/contrastive_pairs.h"

static int has(const int64_t *a, int64_t n, int64_t e) {
    for (int64_t i = 0; i < n; i++)
        if (a[i] == e) return 1;
    return 0;
}

/* Entity id 1000 + r sits at rank r (1-based) of a list of 300. */
static void ranked_list(int64_t *r, int n) {
    for (int i = 0; i < n; i++) r[i] = 1000 + i + 1;
}

static void test_bounds_exact(void) {
    int64_t ranked[300], seeds[3] = {1, 2, 3};
    ranked_list(ranked, 300);
    const cl_bounds b = {12, 170, 200};
    cl_sets s;
    cl_sets_init(&s);
    cl_sets_add_query(&s, seeds, 3, ranked, 300, &b);
    /* E_pos = seeds ∪ ranks 1..11 (rank < 12), seeds first then by rank. */
    CHECK_EQ_INT(s.n_pos, 3 + 11);
    for (int i = 0; i < 3; i++) CHECK_EQ_INT(s.pos[i], seeds[i]);
    for (int r = 1; r <= 11; r++) CHECK_EQ_INT(s.pos[2 + r], 1000 + r);
    CHECK(!has(s.pos, s.n_pos, 1000 + 12));
    /* E_neg = ranks 171..199: 170 and 200 excluded. */
    CHECK_EQ_INT(s.n_neg, 29);
    CHECK_EQ_INT(s.neg[0], 1000 + 171);
    CHECK_EQ_INT(s.neg[28], 1000 + 199);
    CHECK(!has(s.neg, s.n_neg, 1000 + 170));
    CHECK(!has(s.neg, s.n_neg, 1000 + 200));
    cl_sets_free(&s);
}

/* Ranks are 1-based: thr_pos = 1 admits no ranked entity, thr_pos = 2 exactly the first;
 * (0, 2) holds exactly rank 1 and (1, 3) exactly rank 2. */
static void test_ranks_one_based(void) {
    int64_t ranked[10], seed = 7;
    ranked_list(ranked, 10);
    cl_sets s;
    cl_sets_init(&s);
    cl_sets_add_query(&s, &seed, 1, ranked, 10, &(cl_bounds){1, 0, 2});
    CHECK_EQ_INT(s.n_pos, 1);
    CHECK_EQ_INT(s.pos[0], 7);
    CHECK_EQ_INT(s.n_neg, 1);
    CHECK_EQ_INT(s.neg[0], 1001);
    cl_sets_free(&s);
    cl_sets_init(&s);
    cl_sets_add_query(&s, &seed, 1, ranked, 10, &(cl_bounds){2, 1, 3});
    CHECK_EQ_INT(s.n_pos, 2);
    CHECK_EQ_INT(s.pos[1], 1001);
    CHECK_EQ_INT(s.n_neg, 1);
    CHECK_EQ_INT(s.neg[0], 1002);
    cl_sets_free(&s);
}

/* The query's seeds inside its ranked list take no rank: same sets as without them. */
static void test_seeds_take_no_rank(void) {
    int64_t plain[300], with[303], seeds[3] = {1, 2, 3};
    ranked_list(plain, 300);
    with[0] = 1;
    with[1] = 2;
    for (int i = 0; i < 300; i++) with[i + 2 + (i >= 5)] = plain[i];
    with[7] = 3;
    const cl_bounds b = {12, 170, 200};
    cl_sets a, c;
    cl_sets_init(&a);
    cl_sets_init(&c);
    cl_sets_add_query(&a, seeds, 3, plain, 300, &b);
    cl_sets_add_query(&c, seeds, 3, with, 303, &b);
    CHECK_EQ_INT(a.n_pos, c.n_pos);
    CHECK_EQ_INT(a.n_neg, c.n_neg);
    for (int64_t i = 0; i < a.n_pos && i < c.n_pos; i++) CHECK_EQ_INT(a.pos[i], c.pos[i]);
    for (int64_t i = 0; i < a.n_neg && i < c.n_neg; i++) CHECK_EQ_INT(a.neg[i], c.neg[i]);
    cl_sets_free(&a);
    cl_sets_free(&c);
}

/* Two queries of one class: union, no duplicates, and an entity positive for any query is
 * never a negative (whichever query comes first). Short lists are fine. */
static void test_union_positive_wins(void) {
    const cl_bounds b = {3, 3, 6};   /* pos ranks 1..2, neg ranks 4..5 */
    int64_t s1[1] = {1}, r1[6] = {10, 11, 12, 13, 14, 15};
    int64_t s2[1] = {2}, r2[5] = {14, 10, 99, 11, 1};
    cl_sets s;
    cl_sets_init(&s);
    cl_sets_add_query(&s, s1, 1, r1, 6, &b);   /* pos 1,10,11; neg 13,14 */
    cl_sets_add_query(&s, s2, 1, r2, 5, &b);   /* pos 2,14,10; neg 11 (pos), 1 (pos) */
    const int64_t want_pos[] = {1, 10, 11, 2, 14};
    CHECK_EQ_INT(s.n_pos, 5);
    for (int i = 0; i < 5 && i < s.n_pos; i++) CHECK_EQ_INT(s.pos[i], want_pos[i]);
    CHECK_EQ_INT(s.n_neg, 1);
    CHECK_EQ_INT(s.neg[0], 13);
    cl_sets_free(&s);
}

static void test_presets(void) {
    const cl_preset *w = cl_preset_find("wiki"), *a = cl_preset_find("apr"),
                    *e = cl_preset_find("se2");
    CHECK(w && a && e && !cl_preset_find("nope") && cl_preset_default() == w);
    if (!w || !a || !e) return;
    CHECK(w->thr_pos == 12 && w->l_neg == 170 && w->u_neg == 200);
    CHECK(w->tau_plus == 0.05 && w->beta == 1 && w->cl_lr == 1.5e-5);
    CHECK(a->thr_pos == 10 && a->l_neg == 175 && a->u_neg == 200);
    CHECK(a->tau_plus == 0.1 && a->beta == 1 && a->cl_lr == 1.5e-5);
    CHECK(e->thr_pos == 5 && e->l_neg == 160 && e->u_neg == 180);
    CHECK(e->tau_plus == 0.01 && e->beta == 2 && e->cl_lr == 3.5e-6);
    CHECK(w->temperature == 0.5 && w->batch_pairs == 256 && w->loss_weight == 7);
}

/* Fixture: class 0 pos {0,1,2,3} neg {4,5}; class 1 pos {3,6} neg {0}.
 * Samples: e0 5, e1 3, e2 300, e3 1, e4 4, e5 1, e6 2. */
static const int64_t NS[7] = {5, 3, 300, 1, 4, 1, 2};

static void make_fixture(cl_sets c[2]) {
    static const int64_t p0[] = {0, 1, 2, 3}, n0[] = {4, 5}, p1[] = {3, 6}, n1[] = {0};
    for (int i = 0; i < 2; i++) cl_sets_init(&c[i]);
    c[0].pos = malloc(sizeof p0); memcpy(c[0].pos, p0, sizeof p0); c[0].n_pos = 4;
    c[0].neg = malloc(sizeof n0); memcpy(c[0].neg, n0, sizeof n0); c[0].n_neg = 2;
    c[1].pos = malloc(sizeof p1); memcpy(c[1].pos, p1, sizeof p1); c[1].n_pos = 2;
    c[1].neg = malloc(sizeof n1); memcpy(c[1].neg, n1, sizeof n1); c[1].n_neg = 1;
}

static void test_pair_recipe(void) {
    cl_sets c[2];
    make_fixture(c);
    const cl_pair_opts o = cl_pair_opts_default();
    CHECK(o.max_pairs_per_set == 256 && o.cross_per_pos == 2 && o.sets_per_neg == 2);
    rng_t rng;
    rng_seed(&rng, 11);
    cl_pairs out = {0};
    int64_t n = cl_make_pairs(c, 2, NS, 7, &o, &rng, &out);
    CHECK_EQ_INT(n, out.n);

    int64_t same_pos[7] = {0}, same_neg[7] = {0}, cross = 0;
    int cross_sets[7][7] = {{0}};
    for (int64_t i = 0; i < out.n; i++) {
        const cl_pair *p = &out.p[i];
        CHECK(p->s1 >= 0 && p->s1 < NS[p->e1] && p->s2 >= 0 && p->s2 < NS[p->e2]);
        if (p->kind == CL_CROSS_POS) {
            CHECK(p->e1 != p->e2);
            cross++;
            /* a new set starts where the entity pair changes */
            if (i == 0 || out.p[i - 1].e1 != p->e1 || out.p[i - 1].e2 != p->e2 ||
                out.p[i - 1].kind != CL_CROSS_POS)
                cross_sets[p->e1][p->e2]++;
        } else {
            CHECK(p->e1 == p->e2 && p->s1 != p->s2);   /* two different sentences */
            if (p->kind == CL_SAME_POS) same_pos[p->e1]++;
            else same_neg[p->e1]++;
        }
    }
    /* (a) one same-entity set of min(n, 256) pairs per positive with >= 2 samples. */
    CHECK_EQ_INT(same_pos[0], 5);
    CHECK_EQ_INT(same_pos[1], 3);
    CHECK_EQ_INT(same_pos[2], 256);
    CHECK_EQ_INT(same_pos[3], 0);   /* one sample: no same-entity pair */
    CHECK_EQ_INT(same_pos[6], 2);
    /* (c) a fresh negative gets 2 sets; e0, already paired as a positive, 1; e5 none. */
    CHECK_EQ_INT(same_neg[4], 8);
    CHECK_EQ_INT(same_neg[5], 0);
    CHECK_EQ_INT(same_neg[0], 5);
    /* (b) cross sets: unordered pairs never repeat; both entities positives of the class
     * that made them; size min(max(n_a, n_b), 256). Class 0 has 4 positives, each asks for
     * 2 partners: the first always gets 2. Class 1 has exactly one set, (3, 6), 2 pairs. */
    int64_t cross_expected = 0, nsets0 = 0, first = 0;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++) {
            if (!cross_sets[a][b]) continue;
            CHECK_EQ_INT(cross_sets[a][b] + cross_sets[b][a], 1);
            int64_t k = NS[a] > NS[b] ? NS[a] : NS[b];
            cross_expected += k < 256 ? k : 256;
            const int in0 = a <= 3 && b <= 3, in1 = (a == 3 && b == 6) || (a == 6 && b == 3);
            CHECK(in0 || in1);
            nsets0 += in0;
            if (a == 0) first++;
        }
    CHECK_EQ_INT(cross, cross_expected);
    CHECK_EQ_INT(first, 2);
    CHECK(nsets0 >= 4 && nsets0 <= 6);
    CHECK_EQ_INT(cross_sets[3][6], 1);
    /* The 256 first sentences of e2's same-entity set are distinct (without replacement). */
    char seen[300] = {0};
    int distinct = 0;
    for (int64_t i = 0; i < out.n; i++)
        if (out.p[i].kind == CL_SAME_POS && out.p[i].e1 == 2 && !seen[out.p[i].s1]++) distinct++;
    CHECK_EQ_INT(distinct, 256);
    /* In a cross set with e2 (300 samples >= 256) e2's side is drawn without replacement. */
    for (int b = 0; b < 7; b++) {
        if (!cross_sets[2][b] && !cross_sets[b][2]) continue;
        memset(seen, 0, sizeof seen);
        distinct = 0;
        for (int64_t i = 0; i < out.n; i++) {
            const cl_pair *p = &out.p[i];
            if (p->kind != CL_CROSS_POS || !((p->e1 == 2 && p->e2 == b) || (p->e1 == b && p->e2 == 2)))
                continue;
            const int s = p->e1 == 2 ? p->s1 : p->s2;
            if (!seen[s]++) distinct++;
        }
        CHECK_EQ_INT(distinct, 256);
    }

    /* Deterministic for a seed; another seed draws other sentences. */
    cl_pairs again = {0}, other = {0};
    rng_seed(&rng, 11);
    cl_make_pairs(c, 2, NS, 7, &o, &rng, &again);
    CHECK(again.n == out.n && !memcmp(again.p, out.p, sizeof(cl_pair) * (size_t)out.n));
    rng_seed(&rng, 12);
    cl_make_pairs(c, 2, NS, 7, &o, &rng, &other);
    CHECK(other.n != out.n || memcmp(other.p, out.p, sizeof(cl_pair) * (size_t)out.n));
    cl_pairs_free(&out);
    cl_pairs_free(&again);
    cl_pairs_free(&other);
    for (int i = 0; i < 2; i++) cl_sets_free(&c[i]);
}

/* A class with one positive cannot form cross pairs (the official loop would never end);
 * M caps every set; sets_per_neg 0 disables negatives. */
static void test_pair_limits(void) {
    cl_sets c;
    cl_sets_init(&c);
    int64_t seeds[1] = {0}, ranked[3] = {1, 2, 3};
    cl_sets_add_query(&c, seeds, 1, ranked, 3, &(cl_bounds){1, 0, 4});   /* pos {0}, neg {1,2,3} */
    const int64_t ns[4] = {10, 10, 10, 10};
    rng_t rng;
    rng_seed(&rng, 1);
    cl_pairs out = {0};
    cl_pair_opts o = {4, 2, 2};
    cl_make_pairs(&c, 1, ns, 4, &o, &rng, &out);
    CHECK_EQ_INT(out.n, 4 + 3 * 2 * 4);
    for (int64_t i = 0; i < out.n; i++) CHECK(out.p[i].kind != CL_CROSS_POS);
    cl_pairs_free(&out);
    o.sets_per_neg = 0;
    cl_make_pairs(&c, 1, ns, 4, &o, &rng, &out);
    CHECK_EQ_INT(out.n, 4);
    cl_pairs_free(&out);
    cl_sets_free(&c);
}

TEST_MAIN_BEGIN("test_contrastive_pairs")
    RUN(test_bounds_exact);
    RUN(test_ranks_one_based);
    RUN(test_seeds_take_no_rank);
    RUN(test_union_positive_wins);
    RUN(test_presets);
    RUN(test_pair_recipe);
    RUN(test_pair_limits);
TEST_MAIN_END
