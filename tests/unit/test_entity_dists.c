/* test_entity_dists: infer's samples mode (common/entity_dists) against a per-sample
 * direct computation, row sums read back through `inspect --full`, the per-entity cap, the
 * ensemble of several models and the rows of some entities only (dists-rows),
 * bounded memory with a large V_e (through the infer program); and the frozen-prefix cache rows against
 * bert_forward_prefix (float16 and bfloat16 tolerances). Builds its samples with the
 * tokenize and build-samples programs from a synthetic dataset (tests/fixtures/train). */
#include <stdint.h>
#include <sys/resource.h>

#include "check.h"
#include "nn/bert.h"
#include "nn/checkpoint.h"
#include "artifacts/dists.h"
#include "model/entity_dists.h"
#include "nn/entity_head.h"
#include "base/error.h"
#include "method/rowsource.h"
#include "model/prefix_cache.h"
#include "artifacts/samples.h"
#include "nn/tensor_ops.h"

static char dir[256];
static char bin[1024];

/* Synthetic dataset of E entities x per sentences -> samples artifact; returns its path or NULL. */
static const char *make_samples(const char *name, int E, int per) {
    static char out[2][512];
    static int which;
    char *path = out[which++ % 2];
    snprintf(path, 512, "%s/%s.mp", dir, name);
    char *cmd = xasprintf("cd %s && bash -c '. %s/tests/fixtures/train/synth.sh && mk_synth %s %d %d' && "
                          "%s/tokenize %s --learn-vocab 300 --out %s.corpus.mp --quiet && "
                          "%s/build-samples --corpus %s.corpus.mp --out %s --quiet",
                          dir, getenv("PROBEXPAN_ROOT") ? getenv("PROBEXPAN_ROOT") : ".", name, E, per, bin, name, name,
                          bin, name, path);
    int rc = system(cmd);
    free(cmd);
    return rc == 0 ? path : NULL;
}

static void tiny_model(bert_model *m, entity_head *h, const samples *s, int layers, int frozen, uint64_t seed) {
    bert_config c = {0};
    c.vocab_size = 300;
    c.hidden = 16;
    c.layers = layers;
    c.heads = 2;
    c.ffn = 32;
    c.max_pos = 64;
    c.type_vocab = 2;
    c.ln_eps = 1e-12f;
    c.mask_token_id = samples_specials(s).mask;
    c.num_entities = (int)samples_entities(s);
    bert_create(m, &c, frozen);
    rng_t r;
    rng_seed(&r, seed);
    bert_init_random(m, &r);
    entity_head_create(h, c.hidden, c.num_entities);
    entity_head_init_random(h, &r);
}

/* Mean softmax and mean log-softmax of entity e computed one sample at a time. */
static void direct_row(const bert_model *m, const entity_head *h, const samples *s, int64_t e, double *p) {
    int V = h->V, H = m->cfg.hidden;
    int64_t first, n;
    samples_range(s, e, &first, &n);
    float hid[64], dense[64], gelu[64];
    float *lp = xmalloc(sizeof(float) * (size_t)V);
    int32_t ids[512];
    for (int v = 0; v < V; v++) p[v] = 0;
    for (int64_t j = first; j < first + n; j++) {
        bert_batch b = {0};
        bert_batch_clear(&b);
        int len = samples_tokens(s, j, ids);
        bert_batch_add(&b, (const int *)ids, len, m->cfg.mask_token_id, m->cfg.max_pos);
        bert_forward_infer(m, &b, hid);
        entity_head_forward(h, hid, 1, dense, gelu, lp);
        for (int v = 0; v < V; v++) p[v] += exp((double)lp[v]) / (double)n;
        bert_batch_free(&b);
    }
    (void)H;
    free(lp);
}

static void test_rows_match_direct(void) {
    const char *sp = make_samples("syn", 16, 6);
    if (!sp) SKIP("tokenize/build-samples did not run (PROBEXPAN_BIN)");
    samples *s = samples_open(sp);
    bert_model m;
    entity_head h;
    tiny_model(&m, &h, s, 2, 0, 5);
    char out[512];
    snprintf(out, sizeof out, "%s/d.mp", dir);
    entity_dists_model one = {&m, &h, dir};
    entity_dists_stats st = entity_dists_write(&one, 1, s, NULL, 0, out, 0, 1);
    CHECK_EQ_INT(st.entities, 16);
    CHECK_EQ_INT(st.samples, samples_count(s));
    dists d;
    dists_open(&d, out);
    CHECK_EQ_INT(dists_n(&d), 16);
    double p[16], maxd = 0;
    for (int64_t e = 0; e < 16; e++) {
        CHECK_EQ_INT(d.ent.eid[e], samples_eid(s, e));
        direct_row(&m, &h, s, e, p);
        const float *rp = row_matrix_row(&d.prob, e);
        for (int v = 0; v < 16; v++) maxd = fmax(maxd, fabs(rp[v] - p[v]));
    }
    CHECK_MSG(maxd < 1e-5, "dists differ from the per-sample computation by %g", maxd);
    dists_close(&d);

    /* every row of mean_prob sums to 1 within 1e-5, read back through inspect --full */
    char *cmd = xasprintf("%s/inspect --full %s", bin, out);
    FILE *f = popen(cmd, "r");
    free(cmd);
    char *line = NULL;
    size_t cap = 0;
    int in_prob = 0, rows = 0, bad = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strstr(line, "\"matrix\":")) { in_prob = strstr(line, "\"mean_prob\"") != NULL; continue; }
        if (!in_prob || line[0] != '[') continue;
        double sum = 0;
        for (char *q = line + 1, *end; *q && *q != ']'; q = end + (*end == ',')) {
            sum += strtod(q, &end);
            if (end == q) break;
        }
        rows++;
        if (fabs(sum - 1) > 1e-5) bad++;
    }
    free(line);
    CHECK_EQ_INT(pclose(f), 0);
    CHECK_EQ_INT(rows, 16);
    CHECK_EQ_INT(bad, 0);

    /* the cap: >= every entity's count changes nothing; 2 keeps rows normalised and differs */
    char out2[512], out3[512];
    snprintf(out2, sizeof out2, "%s/d-cap100.mp", dir);
    snprintf(out3, sizeof out3, "%s/d-cap2.mp", dir);
    entity_dists_write(&one, 1, s, NULL, 0, out2, 100, 1);
    st = entity_dists_write(&one, 1, s, NULL, 0, out3, 2, 1);
    CHECK_EQ_INT(st.samples, 32);
    dists a, b;
    dists_open(&a, out);
    dists_open(&b, out2);
    /* bit-identical: a cap above every count draws nothing, so the batches (and BLAS kernels) are the same */
    CHECK(memcmp(row_matrix_row(&a.prob, 0), row_matrix_row(&b.prob, 0), 16 * sizeof(float)) == 0);
    dists_close(&b);
    dists_open(&b, out3);
    double sum = 0;
    for (int v = 0; v < 16; v++) sum += row_matrix_row(&b.prob, 3)[v];
    CHECK_NEAR(sum, 1, 1e-5);
    CHECK(memcmp(row_matrix_row(&a.prob, 3), row_matrix_row(&b.prob, 3), 16 * sizeof(float)) != 0);
    dists_close(&a);
    dists_close(&b);
    bert_free(&m);
    entity_head_free(&h);
    samples_close(s);
}

/* Several models: each row is the mean of the models' own rows rounded to float, bit for bit
 * (the value score-models --ensemble computes from their dists files); a row list: a dists-rows
 * artifact of those rows only, equal to the full run's rows (other batch shapes: within 1e-6),
 * also with a capped, seeded draw of samples. */
static void test_ensemble_and_row_subset(void) {
    const char *sp = make_samples("ens", 12, 5);
    if (!sp) SKIP("tokenize/build-samples did not run (PROBEXPAN_BIN)");
    samples *s = samples_open(sp);
    bert_model m[2];
    entity_head h[2];
    tiny_model(&m[0], &h[0], s, 1, 0, 11);
    tiny_model(&m[1], &h[1], s, 1, 0, 12);
    entity_dists_model md[2] = {{&m[0], &h[0], dir}, {&m[1], &h[1], dir}};
    char p0[512], p1[512], pe[512], pr[512], pc[512], prc[512];
    snprintf(p0, sizeof p0, "%s/ens-0.mp", dir);
    snprintf(p1, sizeof p1, "%s/ens-1.mp", dir);
    snprintf(pe, sizeof pe, "%s/ens-mean.mp", dir);
    snprintf(pr, sizeof pr, "%s/ens-rows.mp", dir);
    snprintf(pc, sizeof pc, "%s/ens-cap.mp", dir);
    snprintf(prc, sizeof prc, "%s/ens-rows-cap.mp", dir);
    entity_dists_write(&md[0], 1, s, NULL, 0, p0, 0, 1);
    entity_dists_write(&md[1], 1, s, NULL, 0, p1, 0, 1);
    CHECK_EQ_INT(entity_dists_write(md, 2, s, NULL, 0, pe, 0, 1).entities, 12);
    dists a, b, e;
    dists_open(&a, p0);
    dists_open(&b, p1);
    dists_open(&e, pe);
    int same = 1;
    for (int64_t i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            float want = (float)(((double)row_matrix_row(&a.prob, i)[j] + row_matrix_row(&b.prob, i)[j]) / 2);
            same &= row_matrix_row(&e.prob, i)[j] == want;
        }
    CHECK_MSG(same, "the ensemble row is not the mean of the models' rows");
    dists_close(&e);

    const int64_t rows[] = {1, 5, 11};
    entity_dists_stats st = entity_dists_write(&md[0], 1, s, rows, 3, pr, 0, 1);
    CHECK_EQ_INT(st.entities, 3);
    CHECK_EQ_INT(st.samples, 15);
    dists_rows r;
    dists_rows_open(&r, pr);
    CHECK_EQ_INT(r.nrows, 3);
    CHECK_EQ_INT(r.ent.n, 12);
    row_subset sub = {&r.prob, r.rows};
    row_source src = row_source_subset(&sub);
    CHECK_EQ_INT(row_subset_slot(&sub, 5), 1);
    CHECK_EQ_INT(row_subset_slot(&sub, 4), -1);
    double maxd = 0;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 12; j++) maxd = fmax(maxd, fabs(src.at(src.ctx, rows[k], j) - row_matrix_row(&a.prob, rows[k])[j]));
    CHECK_MSG(maxd < 1e-6, "seed rows differ from the full run's by %g", maxd);
    dists_rows_close(&r);

    /* a cap of 2 of 5 samples: the rows kept draw the samples the full run draws */
    entity_dists_write(&md[0], 1, s, NULL, 0, pc, 2, 7);
    entity_dists_write(&md[0], 1, s, rows, 3, prc, 2, 7);
    dists c;
    dists_open(&c, pc);
    dists_rows_open(&r, prc);
    maxd = 0;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 12; j++) maxd = fmax(maxd, fabs(row_matrix_row(&r.prob, k)[j] - row_matrix_row(&c.prob, rows[k])[j]));
    CHECK_MSG(maxd < 1e-6, "capped seed rows differ from the full run's by %g", maxd);
    dists_rows_close(&r);
    dists_close(&c);
    dists_close(&a);
    dists_close(&b);
    for (int k = 0; k < 2; k++) {
        bert_free(&m[k]);
        entity_head_free(&h[k]);
    }
    samples_close(s);
}

/* V_e = 8,000 entities x 2 samples: the two V_e x V_e matrices are 256 MB each; the
 * streaming writer must stay far below. Runs the real `infer --samples` as a child (exec:
 * no BLAS in a forked copy of this process) and reads its peak RSS from
 * getrusage(RUSAGE_CHILDREN) (the earlier children — tokenize, build-samples, inspect — are
 * small). Under ASan (PROBEXPAN_ASAN) shadow memory and quarantine make RSS meaningless: a
 * smaller V_e runs the same path without the RSS bound. */
static void test_large_ve_bounded_memory(void) {
    const int asan = getenv("PROBEXPAN_ASAN") != NULL, E = asan ? 1500 : 8000;
    const char *sp = make_samples("big", E, 2);
    if (!sp) SKIP("tokenize/build-samples did not run (PROBEXPAN_BIN)");
    samples *s = samples_open(sp);
    bert_model m;
    entity_head h;
    tiny_model(&m, &h, s, 1, 0, 3);
    char model[512], out[512];
    snprintf(model, sizeof model, "%s/big-model", dir);
    snprintf(out, sizeof out, "%s/big-d.mp", dir);
    param_list *lists[2] = {&m.params, &h.params};
    checkpoint_save(model, &m.cfg, NULL, lists, 2, NULL, 0);
    bert_free(&m);
    entity_head_free(&h);
    samples_close(s);
    char *cmd = xasprintf("%s/infer --model %s --samples %s --out %s --threads 1 --quiet", bin, model, sp, out);
    CHECK_EQ_INT(system(cmd), 0);
    free(cmd);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    double mb = ru.ru_maxrss / 1024.0;
    fprintf(stderr, "  V_e = %d: peak RSS of infer %.1f MB (one matrix: %.0f MB)\n", E, mb, (double)E * E * 4 / 1e6);
    if (!asan) CHECK_MSG(mb < 100, "peak RSS %.1f MB", mb);
    dists d;
    dists_open(&d, out);
    CHECK_EQ_INT(dists_n(&d), E);
    for (int64_t e = 0; e < E; e += E / 7) {
        double sum = 0;
        for (int v = 0; v < E; v++) sum += row_matrix_row(&d.prob, e)[v];
        CHECK_NEAR(sum, 1, 1e-5);
    }
    dists_close(&d);
    unlink(out);
}

static void check_cache(const char *dtype, double rel) {
    const char *sp = make_samples("cache", 16, 4);
    if (!sp) SKIP("tokenize/build-samples did not run (PROBEXPAN_BIN)");
    samples *s = samples_open(sp);
    bert_model m;
    entity_head h;
    tiny_model(&m, &h, s, 3, 2, 7);
    char path[512], sha[65];
    snprintf(path, sizeof path, "%s/cache-%s.mp", dir, dtype);
    file_sha256_hex(sp, sha);
    prefix_cache *c = prefix_cache_obtain(path, s, sha, &m, sp, dtype);
    CHECK_STR(prefix_cache_dtype(c), dtype);
    int H = m.cfg.hidden;
    float *want = xmalloc(sizeof(float) * 64 * (size_t)H), *got = xmalloc(sizeof(float) * 64 * (size_t)H);
    int32_t ids[512];
    double worst = 0, bytes = 0;
    for (int64_t j = 0; j < samples_count(s); j++) {
        bert_batch b = {0};
        bert_batch_clear(&b);
        int len = samples_tokens(s, j, ids);
        bert_batch_add(&b, (const int *)ids, len, m.cfg.mask_token_id, m.cfg.max_pos);
        bert_forward_prefix(&m, &b, 2, want);
        prefix_cache_rows(c, j, got);
        for (int i = 0; i < len * H; i++) worst = fmax(worst, fabs(got[i] - want[i]) / fmax(fabs(want[i]), 1e-2));
        bytes += len * H * 2;
        bert_batch_free(&b);
    }
    CHECK_MSG(worst <= rel, "%s cache: worst relative error %g > %g", dtype, worst, rel);
    CHECK_NEAR(prefix_cache_bytes_per_sample(c), bytes / (double)samples_count(s), 1e-9);
    prefix_cache_close(c);
    free(want);
    free(got);
    bert_free(&m);
    entity_head_free(&h);
    samples_close(s);
}

static void test_cache_f16(void) { check_cache("f16", 1e-3); }
static void test_cache_bf16(void) { check_cache("bf16", 8e-3); }

TEST_MAIN_BEGIN("test_entity_dists")
    snprintf(dir, sizeof dir, "/tmp/probexpan-entity-dists-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(bin, sizeof bin, "%s", getenv("PROBEXPAN_BIN") ? getenv("PROBEXPAN_BIN") : "bin");
    RUN(test_rows_match_direct);
    RUN(test_ensemble_and_row_subset);
    RUN(test_cache_f16);
    RUN(test_cache_bf16);
    RUN(test_large_ve_bounded_memory);
    char *cmd = xasprintf("rm -rf %s", dir);
    if (system(cmd)) fprintf(stderr, "cannot remove %s\n", dir);
    free(cmd);
TEST_MAIN_END
