/* test_pattern_model: the pattern model's distributions by hand — leave-one-out mixtures,
 * idf weights, the prior correction, dropped and unusable patterns — and its invariances
 * (thread count, seeded pattern subsets). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "base/error.h"
#include "base/parallel.h"
#include "model/pattern_model.h"
#include "base/rng.h"
#include "method/kl.h"
#include "method/sparse_row.h"

#define EPS 1e-7

/* A sample of entity e whose l1 and r1 are given (-1 = a fresh id used nowhere else, so
 * every pattern built on it is seen once and dropped); l2 and r2 are always fresh. */
static int fresh_id = 1000;
static pattern_sample sample(int64_t e, int32_t l1, int32_t r1) {
    pattern_sample s = {.entity = e,
                        .left = {l1 < 0 ? fresh_id++ : l1, fresh_id++, PATTERN_OUTSIDE},
                        .right = {r1 < 0 ? fresh_id++ : r1, fresh_id++, PATTERN_OUTSIDE}};
    return s;
}

static pattern_config short_config(double idf_power, double prior_power) {
    pattern_config c = pattern_config_defaults(PATTERN_PREDICTION);
    c.long_patterns = 0;
    c.min_entities = 2;
    c.idf_power = idf_power;
    c.prior_power = prior_power;
    return c;
}

/* eps-smoothed value the model stores for a probability p over E entities */
static double smoothed(double p, int E) { return (p + EPS) / (1 + E * EPS); }

static void test_leave_one_out_mixture(void) {
    /* pattern "10 _": e0 twice, e1 once; pattern "20 _": e2 once, e1 once */
    pattern_sample s[] = {sample(0, 10, -1), sample(0, 10, -1), sample(1, 10, -1), sample(2, 20, -1), sample(1, 20, -1)};
    pattern_config c = short_config(0, 0);
    pattern_model *m = pattern_model_build(&c, 3, 5, s);
    pattern_stats st = pattern_model_stats(m);
    CHECK_EQ_INT(st.features, 2);
    CHECK_EQ_INT(st.pairs, 4);
    CHECK_EQ_INT(st.samples_unusable, 0);
    pattern_model_fit(m);
    float r[9];
    pattern_model_rows(m, 0, 3, r);
    /* e0: each of its samples sees "10 _" without itself: e0 1/2, e1 1/2 */
    const double want[9] = {0.5, 0.5, 0, /* e1: (1,0,0) from "10 _", (0,0,1) from "20 _" */ 0.5, 0, 0.5,
                            /* e2: "20 _" without itself: e1 */ 0, 1, 0};
    for (int i = 0; i < 9; i++) CHECK_NEAR(r[i], smoothed(want[i], 3), 1e-6);
    pattern_model_free(m);

    /* prior power 1: m = (2 q(e0) + 2 q(e1) + q(e2)) / 5 = (0.4, 0.4, 0.2); r(e1) ~ (0.5/0.4, 0, 0.5/0.2) */
    c = short_config(0, 1);
    m = pattern_model_build(&c, 3, 5, s);
    pattern_model_fit(m);
    pattern_model_rows(m, 1, 1, r);
    CHECK_NEAR(r[0], 1.0 / 3, 1e-5);
    CHECK_NEAR(r[1], 0, 1e-5);
    CHECK_NEAR(r[2], 2.0 / 3, 1e-5);
    CHECK_NEAR(r[0] + r[1] + r[2], 1, 1e-6);
    pattern_model_free(m);
}

static void test_idf_weights_and_unusable(void) {
    /* E = 4. "10 _" (A) with e0, e1: weight ln(4/2); "_ 30" (B) with e0, e1, e2: weight ln(4/3).
     * e0's one sample has both; e3's sample has only patterns seen once. */
    pattern_sample s[] = {sample(0, 10, 30), sample(1, 10, -1), sample(1, -1, 30), sample(2, -1, 30), sample(3, -1, -1)};
    pattern_config c = short_config(1, 0);
    pattern_model *m = pattern_model_build(&c, 4, 5, s);
    pattern_stats st = pattern_model_stats(m);
    CHECK_EQ_INT(st.features, 2);
    CHECK_EQ_INT(st.samples_unusable, 1);
    pattern_model_fit(m);
    CHECK_EQ_INT(pattern_model_stats(m).entities_uniform, 1);
    float r[16];
    pattern_model_rows(m, 0, 4, r);
    double wa = log(2.0), wb = log(4.0 / 3), W = wa + wb;
    /* A without e0's sample: e1 1; B without it: e1 1/2, e2 1/2 */
    CHECK_NEAR(r[0], smoothed(0, 4), 1e-6);
    CHECK_NEAR(r[1], smoothed((wa + wb / 2) / W, 4), 1e-6);
    CHECK_NEAR(r[2], smoothed(wb / 2 / W, 4), 1e-6);
    CHECK_NEAR(r[3], smoothed(0, 4), 1e-6);
    for (int v = 0; v < 4; v++) CHECK_NEAR(r[12 + v], 0.25, 1e-7); /* e3: uniform */
    pattern_model_free(m);

    /* min_entities 4 drops both patterns: every row uniform */
    c.min_entities = 4;
    m = pattern_model_build(&c, 4, 5, s);
    CHECK_EQ_INT(pattern_model_stats(m).features, 0);
    CHECK_EQ_INT(pattern_model_stats(m).samples_unusable, 5);
    pattern_model_fit(m);
    CHECK_EQ_INT(pattern_model_stats(m).entities_uniform, 4);
    pattern_model_free(m);
}

/* a random corpus: 40 entities in 4 classes, each class with its own left words */
static pattern_sample *random_samples(int S) {
    pattern_sample *s = xcalloc((size_t)S, sizeof(pattern_sample));
    rng_t g;
    rng_seed(&g, 7);
    for (int j = 0; j < S; j++) {
        int e = (int)rng_below(&g, 40), cls = e / 10;
        for (int i = 0; i < PATTERN_SIDE; i++) {
            s[j].left[i] = (int32_t)(cls * 5 + rng_below(&g, 5));
            s[j].right[i] = (int32_t)(100 + rng_below(&g, 20));
        }
        s[j].entity = e;
    }
    return s;
}

static float *all_rows(const pattern_config *c, const pattern_sample *s, int S, int threads, pattern_stats *st) {
    parallel_set_threads(threads);
    pattern_model *m = pattern_model_build(c, 40, S, s);
    pattern_model_fit(m);
    float *r = xmalloc(sizeof(float) * 40 * 40);
    pattern_model_rows(m, 0, 40, r);
    if (st) *st = pattern_model_stats(m);
    pattern_model_free(m);
    return r;
}

static void test_threads_subsets_classes(void) {
    int S = 2000;
    pattern_sample *s = random_samples(S);
    pattern_config c = pattern_config_defaults(PATTERN_PREDICTION);
    pattern_stats full, sub;
    float *one = all_rows(&c, s, S, 1, &full), *two = all_rows(&c, s, S, 2, NULL);
    /* identical for any thread count, by construction: one thread computes each row, in a
     * fixed order, with no BLAS and no cross-thread reduction */
    CHECK(memcmp(one, two, sizeof(float) * 40 * 40) == 0);
    /* each row sums to 1, and its mass sits on its own class */
    int same_class_argmax = 0;
    for (int e = 0; e < 40; e++) {
        double sum = 0;
        int best = -1;
        for (int v = 0; v < 40; v++) {
            sum += one[e * 40 + v];
            if (v != e && (best < 0 || one[e * 40 + v] > one[e * 40 + best])) best = v;
        }
        CHECK_NEAR(sum, 1, 1e-5);
        same_class_argmax += best / 10 == e / 10;
    }
    CHECK_EQ_INT(same_class_argmax, 40);
    /* a seeded subset: about the fraction of the patterns, reproducible, seed-dependent */
    c.feature_fraction = 0.5;
    c.seed = 3;
    float *a = all_rows(&c, s, S, 2, &sub), *b = all_rows(&c, s, S, 1, NULL);
    CHECK(memcmp(a, b, sizeof(float) * 40 * 40) == 0);
    CHECK_MSG(sub.features > full.features / 4 && sub.features < full.features * 3 / 4, "%lld of %lld patterns",
              (long long)sub.features, (long long)full.features);
    c.seed = 4;
    float *d = all_rows(&c, s, S, 2, NULL);
    CHECK(memcmp(a, d, sizeof(float) * 40 * 40) != 0);
    parallel_set_threads(0);
    free(one);
    free(two);
    free(a);
    free(b);
    free(d);
    free(s);
}

/* 4 classes of 10: positives = 5 of the class, negatives = 5 of the next class */
static void class_sets(pattern_class_sets *cs, int64_t *pos, int64_t *neg) {
    for (int c = 0; c < 4; c++) {
        for (int i = 0; i < 5; i++) {
            pos[c * 5 + i] = c * 10 + i;
            neg[c * 5 + i] = ((c + 1) % 4) * 10 + i;
        }
        cs[c] = (pattern_class_sets){pos + c * 5, neg + c * 5, 5, 5};
    }
}

static void test_contrast_gradient_and_descent(void) {
    int S = 2000;
    pattern_sample *s = random_samples(S);
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    parallel_set_threads(1);
    pattern_model *m = pattern_model_build(&c, 40, S, s);
    pattern_model_fit(m);
    int64_t F = pattern_model_stats(m).features, pos[20], neg[20];
    pattern_class_sets cs[4];
    class_sets(cs, pos, neg);
    float *u = xmalloc(sizeof(float) * (size_t)F), *g = xmalloc(sizeof(float) * (size_t)F);
    rng_t r;
    rng_seed(&r, 11);
    for (int64_t f = 0; f < F; f++) u[f] = (float)(0.3 * rng_normal(&r));
    double tau = 0.2, loss = pattern_model_contrast_loss(m, cs, 4, tau, u, g);
    CHECK(loss > 0 && isfinite(loss));
    /* central differences on the 20 features with the largest gradients */
    int checked = 0, bad = 0;
    for (int k = 0; k < 20; k++) {
        int64_t best = -1;
        for (int64_t f = 0; f < F; f++)
            if (g[f] != 0 && (best < 0 || fabsf(g[f]) > fabsf(g[best]))) best = f;
        if (best < 0) break;
        double h = 1e-2, keep = u[best];
        u[best] = (float)(keep + h);
        double lp = pattern_model_contrast_loss(m, cs, 4, tau, u, NULL);
        u[best] = (float)(keep - h);
        double lm = pattern_model_contrast_loss(m, cs, 4, tau, u, NULL);
        u[best] = (float)keep;
        double fd = (lp - lm) / (2 * h);
        if (fabs(fd - g[best]) > 2e-2 * fabs(fd) + 1e-5) {
            bad++;
            fprintf(stderr, "  feature %lld: analytic %g, finite difference %g\n", (long long)best, g[best], fd);
        }
        checked++;
        g[best] = 0;
    }
    CHECK(checked == 20);
    CHECK_EQ_INT(bad, 0);
    /* training lowers the loss; the refined rows still sum to 1 */
    pattern_contrast_opts o = pattern_contrast_defaults();
    double before = 0, after = pattern_model_contrast(m, cs, 4, &o, &before);
    CHECK_NEAR(pattern_model_contrast_loss(m, cs, 0, tau, NULL, NULL), 0, 0); /* no sets, no loss */
    CHECK_MSG(after < before - 0.01, "loss %g -> %g", before, after);
    float row[40];
    pattern_model_rows(m, 3, 1, row);
    double sum = 0;
    for (int v = 0; v < 40; v++) sum += row[v];
    CHECK_NEAR(sum, 1, 1e-5);
    parallel_set_threads(0);
    pattern_model_free(m);
    free(u);
    free(g);
    free(s);
}

/* The index path's pieces equal the dense path's: a model from counts equals the model built
 * from the samples (same subset), its sparse rows expand to the dense rows bit for bit, also
 * after a refinement, and the mean of sparse rows equals the dense element-wise mean. */
static void test_counts_and_sparse_rows_match_dense(void) {
    int S = 2000, E = 40;
    pattern_sample *s = random_samples(S);
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.feature_fraction = 0.8;
    c.seed = 5;
    parallel_set_threads(1);
    pattern_model *dense = pattern_model_build(&c, E, S, s);
    pattern_model_fit(dense);
    pattern_counts k;
    pattern_counts_build(&k, &c, E, S, s);
    pattern_model *sparse = pattern_model_from_counts(&c, &k);
    CHECK_EQ_INT(pattern_model_stats(sparse).features, pattern_model_stats(dense).features);
    CHECK_EQ_INT(pattern_model_stats(sparse).pairs, pattern_model_stats(dense).pairs);
    float *want = xmalloc(sizeof(float) * (size_t)(E * E)), *got = xmalloc(sizeof(float) * (size_t)E);
    pattern_scratch *scr = pattern_scratch_new(sparse);
    pattern_class_sets cs[4];
    int64_t pos[20], neg[20];
    class_sets(cs, pos, neg);
    pattern_contrast_opts o = pattern_contrast_defaults();
    o.steps = 10;
    pattern_refinement *ref = NULL;
    for (int refined = 0; refined < 2; refined++) {
        if (refined) {
            pattern_model_contrast(dense, cs, 4, &o, NULL);
            ref = pattern_model_refine(sparse, cs, 4, &o, NULL, NULL);
        }
        pattern_model_rows(dense, 0, E, want);
        int same = 1, sums = 1;
        for (int e = 0; e < E; e++) {
            sparse_row r;
            pattern_model_sparse_row(sparse, ref, e, scr, &r);
            sparse_row_dense(&r, got);
            same &= memcmp(got, want + (size_t)e * E, sizeof(float) * (size_t)E) == 0;
            double sum = 0, logsum = kl_sum_log(got, (size_t)E, &sum);
            sums &= fabs(r.sum - sum) <= 1e-12 && fabs(r.logsum - logsum) <= 1e-12 * fabs(logsum);
            for (int v = 0; v < E; v += 7) same &= sparse_row_at(&r, v) == got[v];
            sparse_row_free(&r);
        }
        CHECK_MSG(same, "sparse rows differ from the dense rows (refined %d)", refined);
        CHECK_MSG(sums, "sparse sums differ from the dense sums (refined %d)", refined);
    }
    /* mean of the unrefined and the refined row of each entity vs the dense mean */
    int32_t *mark = xmalloc(sizeof(int32_t) * (size_t)E);
    for (int v = 0; v < E; v++) mark[v] = -1;
    int same = 1;
    for (int e = 0; e < E; e++) {
        sparse_row a, b, m;
        pattern_model_sparse_row(sparse, NULL, e, scr, &a);
        pattern_model_sparse_row(sparse, ref, e, scr, &b);
        const sparse_row *two[2] = {&a, &b};
        sparse_row_mean(two, 2, &m, mark);
        float da[40], db[40];
        sparse_row_dense(&a, da);
        sparse_row_dense(&b, db);
        sparse_row_dense(&m, got);
        for (int v = 0; v < E; v++) same &= got[v] == (float)(((double)da[v] + db[v]) / 2);
        sparse_row_free(&a);
        sparse_row_free(&b);
        sparse_row_free(&m);
    }
    CHECK_MSG(same, "sparse mean differs from the dense mean");
    for (int v = 0; v < E; v++) CHECK_EQ_INT(mark[v], -1);
    free(mark);
    pattern_refinement_free(ref);
    pattern_scratch_free(scr);
    pattern_model_free(dense);
    pattern_model_free(sparse);
    pattern_counts_free(&k);
    parallel_set_threads(0);
    free(want);
    free(got);
    free(s);
}

/* Genus features: a definition's head words are one feature per word (its pieces), of kind
 * 2 mod 4, weighted genus_weight; none at genus_weight 0. */
static void test_genus_features(void) {
    const int32_t composer[GENUS_PIECES] = {500, -1, -1, -1}, compos_er[GENUS_PIECES] = {500, 502, -1, -1};
    pattern_sample s[6];
    for (int j = 0; j < 6; j++) s[j] = sample(j % 3, -1, -1); /* every pattern and bag word fresh */
    memcpy(s[0].genus[0], composer, sizeof composer); /* entities 0 and 1: "composer" */
    memcpy(s[1].genus[0], composer, sizeof composer);
    memcpy(s[3].genus[0], composer, sizeof composer);
    memcpy(s[2].genus[0], compos_er, sizeof compos_er); /* entity 2 alone: another word */
    s[0].ngenus = s[1].ngenus = s[2].ngenus = s[3].ngenus = 1;
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = 0; /* sample() leaves ids 0 beyond l2 and r2: no bag words */
    c.genus_weight = 2.5;
    pattern_feature d[PATTERN_MAX];
    int n = pattern_sample_features(&s[2], &c, d);
    CHECK_EQ_INT(d[n - 1].kind, PATTERN_GENUS);
    CHECK_EQ_INT(d[n - 1].key & 3, 2);
    CHECK(!memcmp(d[n - 1].genus_word, compos_er, sizeof compos_er));
    pattern_counts k;
    pattern_counts_build(&k, &c, 3, 6, s);
    CHECK_EQ_INT(k.F, 1); /* only "composer" is seen with two entities */
    if (k.F == 1) {
        CHECK_EQ_INT(k.key[0] & 3, 2);
        CHECK_EQ_INT(k.foff[1], 2);
        CHECK_EQ_INT(k.cnt[0], 2); /* entity 0: samples 0 and 3 */
        pattern_model *m = pattern_model_from_counts(&c, &k);
        CHECK_NEAR(pattern_model_feature_weight(m, 0), 2.5, 1e-6);
        pattern_model_free(m);
    }
    pattern_counts_free(&k);
    c.genus_weight = 0;
    CHECK_EQ_INT(pattern_sample_features(&s[2], &c, d), n - 1);
    pattern_counts_build(&k, &c, 3, 6, s);
    CHECK_EQ_INT(k.F, 0);
    pattern_counts_free(&k);
}

/* Differentia features: one per word after the genus, a kind of its own (tag 0 of the tagged
 * keys), weighted differentia_weight, never the key of the same word as a genus; none at 0. */
static void test_differentia_features(void) {
    const int32_t africa[GENUS_PIECES] = {600, -1, -1, -1};
    pattern_sample s[4];
    for (int j = 0; j < 4; j++) s[j] = sample(j % 2, -1, -1);
    for (int j = 0; j < 4; j++) { /* entities 0 and 1, "... in africa", as genus and differentia */
        memcpy(s[j].genus[0], africa, sizeof africa);
        memcpy(s[j].differentia[0], africa, sizeof africa);
        s[j].ngenus = s[j].ndifferentia = 1;
    }
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = 0;
    c.genus_weight = 3, c.differentia_weight = 1.5;
    pattern_feature d[PATTERN_MAX];
    int n = pattern_sample_features(&s[0], &c, d);
    CHECK_EQ_INT(n, PATTERN_NGRAMS + 2);
    CHECK_EQ_INT(d[n - 1].kind, PATTERN_DIFFERENTIA);
    CHECK_EQ_INT(pattern_key_kind(d[n - 1].key), PATTERN_DIFFERENTIA);
    CHECK_EQ_INT(pattern_key_kind(d[n - 2].key), PATTERN_GENUS);
    CHECK(d[n - 1].key != d[n - 2].key);
    CHECK(!memcmp(d[n - 1].genus_word, africa, sizeof africa));
    pattern_counts k;
    pattern_counts_build(&k, &c, 2, 4, s);
    CHECK_EQ_INT(k.F, 2);
    pattern_model *m = pattern_model_from_counts(&c, &k);
    for (int64_t f = 0; f < k.F; f++)
        CHECK_NEAR(pattern_model_feature_weight(m, f), pattern_key_kind(k.key[f]) == PATTERN_DIFFERENTIA ? 1.5 : 3, 1e-6);
    pattern_model_free(m);
    pattern_counts_free(&k);
    c.differentia_weight = 0;
    CHECK_EQ_INT(pattern_sample_features(&s[0], &c, d), PATTERN_NGRAMS + 1);
}

/* The features of running text: a list's members (itself included), class nouns, the name's
 * head — each of its kind (2 mod 4, bits 2-3), weighted by its kind's option, absent at 0. */
static void test_running_text_features(void) {
    const int32_t countries[GENUS_PIECES] = {500, -1, -1, -1}, exchange[GENUS_PIECES] = {600, 601, -1, -1};
    pattern_sample s[6];
    for (int j = 0; j < 6; j++) s[j] = sample(j % 3, -1, -1); /* every pattern fresh */
    for (int j = 0; j < 2; j++) { /* "[0] and [1]": entities 0 and 1 listed together */
        s[j].listed[0] = 0, s[j].listed[1] = 1;
        s[j].nlisted = 2;
    }
    memcpy(s[2].heads[0], countries, sizeof countries); /* entities 2 and 0: "countries such as" */
    memcpy(s[3].heads[0], countries, sizeof countries);
    s[2].nheads = s[3].nheads = 1;
    for (int j = 0; j < 6; j++) /* entities 0 and 1: "... exch ##ange" */
        if (s[j].entity != 2) {
            memcpy(s[j].name, exchange, sizeof exchange);
            s[j].nname = 1;
        }
    s[4].located = s[5].located = 1; /* entities 1 and 2: "[1] , Texas", "[2] , Texas" */
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = 0;
    c.genus_weight = 0;
    c.list_weight = 2, c.head_weight = 3, c.name_weight = 4;
    pattern_feature d[PATTERN_MAX];
    int n = pattern_sample_features(&s[0], &c, d);
    CHECK_EQ_INT(n, PATTERN_NGRAMS + 3); /* two members and the name */
    const pattern_kind want[3] = {PATTERN_LIST, PATTERN_LIST, PATTERN_NAME};
    for (int i = 0; i < 3; i++) {
        const pattern_feature *f = &d[PATTERN_NGRAMS + i];
        CHECK_EQ_INT(f->kind, want[i]);
        CHECK_EQ_INT(pattern_key_kind(f->key), want[i]);
        CHECK_EQ_INT(f->key & 3, 2);
    }
    CHECK_EQ_INT(d[PATTERN_NGRAMS].entity, 0);
    CHECK_EQ_INT(d[PATTERN_NGRAMS + 1].entity, 1);
    CHECK(!memcmp(d[PATTERN_NGRAMS + 2].genus_word, exchange, sizeof exchange));
    n = pattern_sample_features(&s[3], &c, d);
    CHECK_EQ_INT(d[PATTERN_NGRAMS].kind, PATTERN_HEAD);
    CHECK(!memcmp(d[PATTERN_NGRAMS].genus_word, countries, sizeof countries));
    CHECK_EQ_INT(pattern_sample_features(&s[4], &c, d), PATTERN_NGRAMS + 2); /* the name, then the location */
    CHECK_EQ_INT(d[PATTERN_NGRAMS + 1].kind, PATTERN_LIST);
    CHECK_EQ_INT(pattern_key_kind(d[PATTERN_NGRAMS + 1].key), PATTERN_LIST);
    CHECK_EQ_INT(d[PATTERN_NGRAMS + 1].entity, -1);
    pattern_counts k;
    pattern_counts_build(&k, &c, 3, 6, s);
    CHECK_EQ_INT(k.F, 5); /* listed with 0, listed with 1, located, countries, exchange: two entities each */
    int seen[PATTERN_DIFFERENTIA + 1] = {0};
    pattern_model *m = pattern_model_from_counts(&c, &k);
    for (int64_t f = 0; f < k.F; f++) {
        pattern_kind kind = pattern_key_kind(k.key[f]);
        seen[kind]++;
        CHECK_EQ_INT(k.foff[f + 1] - k.foff[f], 2);
        CHECK_NEAR(pattern_model_feature_weight(m, f), pattern_kind_weight(&c, kind), 1e-6);
    }
    CHECK_EQ_INT(seen[PATTERN_LIST], 3);
    CHECK_EQ_INT(seen[PATTERN_HEAD], 1);
    CHECK_EQ_INT(seen[PATTERN_NAME], 1);
    CHECK_NEAR(pattern_kind_weight(&c, PATTERN_NAME), 4, 0);
    pattern_model_free(m);
    pattern_counts_free(&k);
    c.list_weight = c.head_weight = c.name_weight = 0;
    CHECK_EQ_INT(pattern_sample_features(&s[0], &c, d), PATTERN_NGRAMS);
    pattern_counts_build(&k, &c, 3, 6, s);
    CHECK_EQ_INT(k.F, 0);
    pattern_counts_free(&k);
}

/* Evidence k: a reached entity v's logit cos / T is shrunk by n_v / (n_v + k) (n: mention
 * counts), so a one-mention entity sharing a feature falls behind a four-mention one with the
 * same cosine. */
static void test_evidence_shrinkage(void) {
    /* "10 _": entities 1 (x1), 2 (x4), 5 (x4); "20 _": 0 (x4), 3; entity 4 shares nothing */
    pattern_sample s[] = {sample(0, 20, 30), sample(0, 20, 30), sample(0, 20, 30), sample(0, 20, 30),
                          sample(1, 10, 31), sample(2, 10, 32), sample(2, 10, 32), sample(2, 10, 32),
                          sample(2, 10, 32), sample(3, 20, 33), sample(4, 40, 34), sample(4, 41, 34),
                          sample(5, 10, 35), sample(5, 10, 35), sample(5, 10, 35), sample(5, 10, 35)};
    const int64_t S = (int64_t)(sizeof s / sizeof *s), mentions[6] = {4, 1, 4, 1, 2, 4};
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = 0;
    c.long_patterns = 0;
    c.evidence = 0;
    pattern_counts k;
    pattern_counts_build(&k, &c, 6, S, s);
    for (int e = 0; e < 6; e++) CHECK_EQ_INT(k.mentions[e], mentions[e]);
    pattern_model *plain = pattern_model_from_counts(&c, &k);
    c.evidence = 2;
    pattern_model *shrunk = pattern_model_from_counts(&c, &k);
    pattern_scratch *scr = pattern_scratch_new(plain);
    sparse_row a, b;
    pattern_model_sparse_row(plain, NULL, 2, scr, &a);
    pattern_model_sparse_row(shrunk, NULL, 2, scr, &b);
    float ra[6], rb[6];
    sparse_row_dense(&a, ra);
    sparse_row_dense(&b, rb);
    CHECK(b.nnz < 6); /* entities 0, 3 and 4 share nothing with 2: the background */
    for (int v = 0; v < 6; v++) {
        double want = log(ra[v] / a.background) * ((double)mentions[v] / (mentions[v] + 2.0));
        CHECK_NEAR(log(rb[v] / b.background), want, 1e-4);
    }
    CHECK(ra[1] > a.background);
    CHECK_NEAR(ra[1], ra[5], 1e-6); /* the same cosine without evidence ... */
    CHECK(rb[1] < rb[5]);           /* ... the thin entity behind with it */
    sparse_row_free(&a);
    sparse_row_free(&b);
    pattern_scratch_free(scr);
    pattern_model_free(plain);
    pattern_model_free(shrunk);
    pattern_counts_free(&k);
}

/* The corpus chooses list_weight, evidence and differentia_weight left at PATTERN_AUTO: a
 * glossary (>= 4% of the samples a definition's subject) 0, 0 and the glossary differentia,
 * running text 2, 0.5 and 0; set values stay. */
static void test_config_from_corpus(void) {
    pattern_sample s[20];
    for (int j = 0; j < 20; j++) s[j] = sample(j % 4, -1, -1);
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.list_weight = c.evidence = c.differentia_weight = PATTERN_AUTO;
    CHECK_NEAR(pattern_config_resolve(&c, 20, s), 0, 0);
    CHECK_NEAR(c.list_weight, 2, 0);
    CHECK_NEAR(c.evidence, 0.5, 0);
    CHECK_NEAR(c.differentia_weight, 0, 0);
    s[3].ngenus = s[7].ngenus = 1; /* 10%: a glossary */
    c.list_weight = c.evidence = c.differentia_weight = PATTERN_AUTO;
    CHECK_NEAR(pattern_config_resolve(&c, 20, s), 0.1, 1e-12);
    CHECK_NEAR(c.list_weight, 0, 0);
    CHECK_NEAR(c.evidence, 0, 0);
    CHECK_NEAR(c.differentia_weight, PATTERN_GLOSSARY_DIFFERENTIA, 0);
    c.list_weight = 3, c.evidence = PATTERN_AUTO;
    pattern_config_resolve(&c, 20, s);
    CHECK_NEAR(c.list_weight, 3, 0);
    CHECK_NEAR(c.evidence, 0, 0);
}

/* One range check for every setting of the tables: both estimators' defaults pass; a value
 * past either end of a range is refused naming the setting and its option; the command line's
 * -1 takes the estimator's default where the table gives it one. */
static void test_config_ranges(void) {
    char err[200];
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    CHECK(pattern_config_check(&c, err, sizeof err));
    c = pattern_config_defaults(PATTERN_PREDICTION);
    CHECK(pattern_config_check(&c, err, sizeof err));
    c.temperature = 0;
    CHECK(!pattern_config_check(&c, err, sizeof err));
    CHECK_STR(err, "temperature (--temperature) 0: expected 1e-06..1e+06");
    c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = PATTERN_SIDE + 1;
    CHECK(!pattern_config_check(&c, err, sizeof err) && strstr(err, "bag (--bag)"));
    c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.min_entities = 1;
    CHECK(!pattern_config_check(&c, err, sizeof err) && strstr(err, "min_entities (--min-entities) 1"));
    c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.feature_fraction = 0;
    CHECK(!pattern_config_check(&c, err, sizeof err) && strstr(err, "feature_fraction"));
    c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.evidence = PATTERN_AUTO; /* chosen from the corpus later: not a valid setting yet */
    CHECK(!pattern_config_check(&c, err, sizeof err) && strstr(err, "evidence"));
    c = pattern_config_defaults(PATTERN_PREDICTION);
    c.bag = c.min_entities = -1;
    c.idf_power = -1;
    c.evidence = PATTERN_AUTO;
    pattern_config_finish_options(&c); /* does not exit: -1 is meaningful for all four */
    CHECK_EQ_INT(c.bag, 0);
    CHECK_EQ_INT(c.min_entities, 4);
    CHECK_NEAR(c.idf_power, 2, 0);
    CHECK_NEAR(c.evidence, PATTERN_AUTO, 0);
}

static void finish_bad_options(void *arg) {
    (void)arg;
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag_weight = -1; /* -1 means nothing for the bag weight */
    pattern_config_finish_options(&c);
}

static void test_options_out_of_range(void) { CHECK_DIES(2, "bag_weight (--bag-weight) -1", finish_bad_options, NULL); }

static void build_bad_entity(void *arg) {
    (void)arg;
    pattern_sample s[] = {sample(5, 10, 20)};
    pattern_config c = pattern_config_defaults(PATTERN_PREDICTION);
    pattern_model_build(&c, 3, 1, s);
}

static void test_entity_out_of_range(void) { CHECK_DIES(1, "outside", build_bad_entity, NULL); }

TEST_MAIN_BEGIN("test_pattern_model")
RUN(test_leave_one_out_mixture);
RUN(test_idf_weights_and_unusable);
RUN(test_threads_subsets_classes);
RUN(test_contrast_gradient_and_descent);
RUN(test_entity_out_of_range);
RUN(test_counts_and_sparse_rows_match_dense);
RUN(test_genus_features);
RUN(test_differentia_features);
RUN(test_running_text_features);
RUN(test_evidence_shrinkage);
RUN(test_config_from_corpus);
RUN(test_config_ranges);
RUN(test_options_out_of_range);
TEST_MAIN_END
