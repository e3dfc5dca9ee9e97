/* test_pairs: the `pairs` artifact (artifacts/pairs.h, model/pairs_build.h) built from a hand-written `ranked`
 * artifact, the toy dataset's queries (tests/fixtures/cltrain/toy: 3 classes × 8 entities,
 * 5 sentences each) and its samples (made with $PROBEXPAN_BIN/tokenize and build-samples).
 * Checks, against sets derived by hand from the lists below (thr_pos 2, L_neg 2, U_neg 5:
 * E_pos = seeds ∪ rank 1, E_neg = ranks 3..4, 1-based among non-seeds): every class's E_pos
 * and E_neg (eids, rows, names, order), the report lines, the round trip through pairs_read,
 * that every stored pair references samples of the right entities for its kind and class,
 * per-entity pair counts for entities whose count is fixed by the recipe, and the bad inputs
 * (wrong kind, missing query, other seeds, other entity table, other samples) -> exit 3. */
#include "check.h"

#include <stdint.h>

#include "format/artifact.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "artifacts/pairs.h"
#include "model/pairs_build.h"
#include "artifacts/samples.h"

static char dir[] = "/tmp/test_pairs.XXXXXX";
static char toy[4096], SAMPLES[4200], SAMPLES2[4200];
static int have_samples;

/* Names of the toy entities: eid = index (entity2id.txt order). */
static const char *NAMES[24] = {"apple", "pear", "plum", "fig", "kiwi", "lime", "mango", "peach",
                                "paris", "rome", "oslo", "lima", "cairo", "delhi", "tokyo", "berlin",
                                "red", "blue", "green", "yellow", "purple", "orange", "black", "white"};

typedef struct {
    const char *cls;
    int query;
    int64_t seeds[3];
    int n;
    int64_t list[6];
} rec;

/* The ranked lists (eids). Ranks among non-seeds are noted per entity. */
static const rec RANKED[6] = {
    /* city q1: 11 r1 pos, 12 r2, 6 r3 neg, 7 r4 neg, 22 r5 */
    {"city", 0, {8, 9, 10}, 5, {11, 12, 6, 7, 22}},
    /* city q2: 8 r1 (already pos), 14 r2, 15 r3 neg, 22 r4 neg, 23 r5 */
    {"city", 1, {11, 12, 13}, 5, {8, 14, 15, 22, 23}},
    /* color q1: 19 r1 pos, 20 r2, 21 r3 neg, 0 r4 neg, 8 r5 */
    {"color", 0, {16, 17, 18}, 5, {19, 20, 21, 0, 8}},
    /* color q2 (seeds 19 20 21: 21 leaves E_neg): 16 r1, 17 r2, 18 r3 (pos: not neg), 22 r4 neg */
    {"color", 1, {19, 20, 21}, 6, {16, 17, 18, 22, 23, 6}},
    /* fruit q1: seed 1 inside the list takes no rank: 3 r1 pos, 6 r2, 14 r3 neg, 15 r4 neg, 22 r5 */
    {"fruit", 0, {0, 1, 2}, 6, {3, 1, 6, 14, 15, 22}},
    /* fruit q2: 14 r1 pos (leaves E_neg), 1 r2, 7 r3 neg, 23 r4 neg, 2 r5 */
    {"fruit", 1, {3, 4, 5}, 5, {14, 1, 7, 23, 2}},
};

typedef struct {
    const char *cls;
    int npos, nneg;
    int64_t pos[8], neg[4];
} expect;

static const expect EXPECTED[3] = {
    {"city", 6, 4, {8, 9, 10, 11, 12, 13}, {6, 7, 15, 22}},
    {"color", 6, 2, {16, 17, 18, 19, 20, 21}, {0, 22}},
    {"fruit", 7, 3, {0, 1, 2, 3, 4, 5, 14}, {15, 7, 23}},
};

/* Writes a ranked artifact of the given records (entities = declared V_e). */
static void write_ranked(const char *path, const char *kind, const rec *r, int n, int64_t entities) {
    artifact_writer *w = artifact_create(path, kind, EXPANSIONS_SCHEMA);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, n, entities);
    for (int q = 0; q < n; q++) {
        expansion_record e = {0};
        e.class_name = (char *)r[q].cls;
        e.query = r[q].query;
        e.nseeds = 3;
        e.n = r[q].n;
        e.seeds = (int64_t *)r[q].seeds;
        e.eids = (int64_t *)r[q].list;
        char *sn[3], *nm[6];
        double sc[6], kl[6];
        int order[6], rank[6];
        for (int i = 0; i < 3; i++) sn[i] = (char *)NAMES[r[q].seeds[i]];
        for (int i = 0; i < r[q].n; i++) {
            nm[i] = (char *)NAMES[r[q].list[i]];
            sc[i] = 1.0 / (i + 1);
            kl[i] = -i;
            order[i] = rank[i] = i + 1;
        }
        e.seed_names = sn;
        e.names = nm;
        e.scores = sc;
        if (!strcmp(kind, RANKED_KIND)) {
            e.order = order;
            e.kl_rank = rank;
            e.kl_score = kl;
        }
        expansion_record_pack(pk, &e);
    }
    artifact_commit(w);
}

/* The options of a build (thr_pos 2, L_neg 2, U_neg 5, seed 7), recorded in the artifact's
 * params as build-pairs' option table would. */
static pairs_build_opts opts_for(const char *ranked, const char *samples, const char *out) {
    pairs_build_opts o = {ranked, toy, samples, pairs_create(out), {2, 2, 5}, cl_pair_opts_default(), 7, 3};
    artifact_param_int(o.out, "thr_pos", o.bounds.thr_pos);
    artifact_param_int(o.out, "l_neg", o.bounds.l_neg);
    artifact_param_int(o.out, "u_neg", o.bounds.u_neg);
    artifact_param_int(o.out, "pairs_per_set", o.opts.max_pairs_per_set);
    artifact_param_int(o.out, "random_seed", (int64_t)o.seed);
    return o;
}

static int64_t find(const int64_t *a, int64_t n, int64_t v) {
    for (int64_t i = 0; i < n; i++)
        if (a[i] == v) return i;
    return -1;
}

static void test_sets_and_report(void) {
    if (!have_samples) SKIP("no samples: $PROBEXPAN_BIN/tokenize or build-samples missing or failing");
    char ranked[4300], out[4300];
    snprintf(ranked, sizeof ranked, "%s/ranked.mp", dir);
    snprintf(out, sizeof out, "%s/pairs.mp", dir);
    write_ranked(ranked, RANKED_KIND, RANKED, 6, 24);
    pairs_build_opts o = opts_for(ranked, SAMPLES, out);
    char *rep = NULL;
    size_t replen = 0;
    FILE *f = open_memstream(&rep, &replen);
    int64_t n = pairs_build(&o, f);
    fclose(f);
    CHECK(n > 0);
    CHECK(strstr(rep, "city: |E_pos| = 6, |E_neg| = 4\n  pos: paris, rome, oslo, … (+3)\n  neg: mango, peach, berlin, … (+1)\n") != NULL);
    CHECK(strstr(rep, "fruit: |E_pos| = 7, |E_neg| = 3\n  pos: apple, pear, plum, … (+4)\n  neg: berlin, peach, white\n") != NULL);
    CHECK(strstr(rep, "color: |E_pos| = 6, |E_neg| = 2\n") != NULL);
    long long tot = -1, a = -1, b = -1, c = -1;
    const char *line = strstr(rep, "\npairs: ");
    CHECK(line && sscanf(line, "\npairs: %lld (same positive entity %lld, two positives %lld, same negative entity %lld)",
                         &tot, &a, &b, &c) == 4);
    CHECK_EQ_INT(tot, n);
    CHECK_EQ_INT(a + b + c, n);
    if (check_failures_) fprintf(stderr, "report:\n%s", rep);
    free(rep);

    pairs_set p;
    pairs_read(&p, out);
    samples *s = samples_open(SAMPLES);
    char sha[65];
    file_sha256_hex(SAMPLES, sha);
    CHECK_STR(p.samples_sha256, sha);
    CHECK_EQ_INT(p.bounds.thr_pos, 2);
    CHECK_EQ_INT(p.bounds.l_neg, 2);
    CHECK_EQ_INT(p.bounds.u_neg, 5);
    CHECK_EQ_INT(p.seed, 7);
    CHECK_EQ_INT(p.entities, 24);
    CHECK_EQ_INT(p.samples, 120);
    CHECK_EQ_INT(p.n_pairs, n);
    CHECK_EQ_INT(p.n_classes, 3);
    for (int c = 0; c < 3 && c < p.n_classes; c++) {
        const pairs_class *k = &p.c[c];
        const expect *e = &EXPECTED[c];
        CHECK_STR(k->name, e->cls);
        CHECK_EQ_INT(k->queries, 2);
        CHECK_EQ_INT(k->sets.n_pos, e->npos);
        CHECK_EQ_INT(k->sets.n_neg, e->nneg);
        for (int i = 0; i < e->npos && i < k->sets.n_pos; i++) {
            CHECK_EQ_INT(k->pos_eid[i], e->pos[i]);
            CHECK_EQ_INT(samples_eid(s, k->sets.pos[i]), e->pos[i]);
            CHECK_STR(k->pos_name[i], NAMES[e->pos[i]]);
        }
        for (int i = 0; i < e->nneg && i < k->sets.n_neg; i++) {
            CHECK_EQ_INT(k->neg_eid[i], e->neg[i]);
            CHECK_EQ_INT(samples_eid(s, k->sets.neg[i]), e->neg[i]);
            CHECK_STR(k->neg_name[i], NAMES[e->neg[i]]);
        }
    }
    /* every pair: the right entities for its kind and class */
    int64_t same_pear = 0, neg_berlin[3] = {0, 0, 0}, cross = 0, bad = 0;
    for (int64_t i = 0; i < p.n_pairs; i++) {
        int64_t e1 = samples_eid(s, samples_entity(s, p.sample1[i])), e2 = samples_eid(s, samples_entity(s, p.sample2[i]));
        const pairs_class *k = &p.c[p.cls[i]];
        int ok;
        switch (p.kind[i]) {
        case CL_SAME_POS:
            ok = e1 == e2 && find(k->pos_eid, k->sets.n_pos, e1) >= 0 && p.sample1[i] != p.sample2[i];
            same_pear += e1 == 1;
            break;
        case CL_CROSS_POS:
            ok = e1 != e2 && find(k->pos_eid, k->sets.n_pos, e1) >= 0 && find(k->pos_eid, k->sets.n_pos, e2) >= 0;
            cross++;
            break;
        case CL_SAME_NEG:
            ok = e1 == e2 && find(k->neg_eid, k->sets.n_neg, e1) >= 0 && p.sample1[i] != p.sample2[i];
            if (e1 == 15) neg_berlin[p.cls[i]]++;
            break;
        default:
            ok = 0;
        }
        bad += !ok;
    }
    CHECK_EQ_INT(bad, 0);
    int64_t kinds[3] = {0, 0, 0};
    for (int64_t i = 0; i < p.n_pairs; i++) kinds[p.kind[i]]++;
    CHECK_EQ_INT(kinds[CL_SAME_POS], a);
    CHECK_EQ_INT(kinds[CL_CROSS_POS], b);
    CHECK_EQ_INT(kinds[CL_SAME_NEG], c);
    CHECK(cross > 0);
    /* pear: positive of fruit only -> one same-entity set of min(5, 256) = 5 pairs */
    CHECK_EQ_INT(same_pear, 5);
    /* berlin: negative of city (fresh: 2 sets of 5) and of fruit (already paired: 1 set) */
    CHECK_EQ_INT(neg_berlin[0], 10);
    CHECK_EQ_INT(neg_berlin[1], 0);
    CHECK_EQ_INT(neg_berlin[2], 5);
    pairs_check_samples(&p, out, s, sha);   /* same samples: accepted */
    samples_close(s);
    pairs_free(&p);
}

/* ---- bad inputs (each in a forked child) ---- */

typedef struct {
    const char *kind;
    const rec *r;
    int n;
    int64_t entities;
    const char *samples;
} bad_case;

static void build_bad(void *arg) {
    const bad_case *b = arg;
    char ranked[4300], out[4300];
    snprintf(ranked, sizeof ranked, "%s/bad-ranked.mp", dir);
    snprintf(out, sizeof out, "%s/bad-pairs.mp", dir);
    write_ranked(ranked, b->kind, b->r, b->n, b->entities);
    pairs_build_opts o = opts_for(ranked, b->samples, out);
    pairs_build(&o, NULL);
}

static void check_samples_other(void *arg) {
    (void)arg;
    char out[4300];
    snprintf(out, sizeof out, "%s/pairs.mp", dir);
    pairs_set p;
    pairs_read(&p, out);
    samples *s = samples_open(SAMPLES2);
    char sha[65];
    file_sha256_hex(SAMPLES2, sha);
    pairs_check_samples(&p, out, s, sha);
}

static void read_wrong_kind(void *arg) {
    (void)arg;
    pairs_set p;
    pairs_read(&p, SAMPLES);
}

static void test_bad_inputs(void) {
    if (!have_samples) SKIP("no samples: $PROBEXPAN_BIN/tokenize or build-samples missing or failing");
    bad_case expansions = {EXPANSIONS_KIND, RANKED, 6, 24, SAMPLES};
    CHECK_DIES(3, "expected a \"ranked\" artifact", build_bad, &expansions);
    bad_case missing = {RANKED_KIND, RANKED, 5, 24, SAMPLES};   /* no fruit query 2 */
    CHECK_DIES(3, "class fruit query 2: no ranked list", build_bad, &missing);
    rec other[6];
    memcpy(other, RANKED, sizeof other);
    other[2].seeds[2] = 23;
    bad_case seeds = {RANKED_KIND, other, 6, 24, SAMPLES};
    CHECK_DIES(3, "class color query 1: seeds differ", build_bad, &seeds);
    bad_case entities = {RANKED_KIND, RANKED, 6, 25, SAMPLES};
    CHECK_DIES(3, "ranked over 25 entities", build_bad, &entities);
    CHECK_DIES(3, "built from another samples artifact", check_samples_other, NULL);
    CHECK_DIES(3, "wrong artifact kind 'samples', expected 'pairs'", read_wrong_kind, NULL);
    char out[4300];
    snprintf(out, sizeof out, "%s/bad-pairs.mp", dir);
    CHECK(access(out, F_OK) != 0);   /* never a partial output */
}

TEST_MAIN_BEGIN("test_pairs")
    pe_progname = "test_pairs";
    if (!mkdtemp(dir)) return 1;
    const char *root = getenv("PROBEXPAN_ROOT"), *bin = getenv("PROBEXPAN_BIN");
    snprintf(toy, sizeof toy, "%s/tests/fixtures/cltrain/toy", root ? root : ".");
    snprintf(SAMPLES, sizeof SAMPLES, "%s/samples.mp", dir);
    snprintf(SAMPLES2, sizeof SAMPLES2, "%s/samples2.mp", dir);
    char cmd[20000];
    snprintf(cmd, sizeof cmd,
             "export PROBEXPAN_CATALOG=%s/catalog.sqlite; B=%s; $B/tokenize --quiet '%s' --learn-vocab 200 --out %s/corpus.mp && "
             "$B/build-samples --quiet --corpus %s/corpus.mp --out %s && "
             "$B/build-samples --quiet --corpus %s/corpus.mp --max-samples-per-entity 3 --out %s",
             dir, bin ? bin : "bin", toy, dir, dir, SAMPLES, dir, SAMPLES2);
    have_samples = system(cmd) == 0;
    snprintf(cmd, sizeof cmd, "%s/catalog.sqlite", dir);
    setenv("PROBEXPAN_CATALOG", cmd, 1);
    RUN(test_sets_and_report);
    RUN(test_bad_inputs);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) fprintf(stderr, "cannot remove %s\n", dir);
TEST_MAIN_END
