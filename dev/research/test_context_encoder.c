/* test_context_encoder: features, forward mean, backward (finite differences through
 * the entity head and the label-smoothed loss), dropout, config JSON round trip. */
#include "check.h"

#include <stdlib.h>

#include "base/sort.h"
#include "nn/adamw.h"
#include "context_encoder.h"
#include "nn/entity_head.h"
#include "nn/mep_loss.h"
#include "format/safetensors.h"

/* ids: 0 pad, 1 unk, 2 cls, 3 sep, 4 mask, 5.. words */
static ctx_config small_config(int sides, int pos_window, int bigrams, int window) {
    ctx_config c = ctx_config_defaults();
    c.vocab = 10;
    c.dim = 3;
    c.window = window;
    c.sides = sides;
    c.pos_window = pos_window;
    c.bigrams = bigrams;
    c.buckets = pos_window || bigrams ? 7 : 0;
    c.mask_id = 4;
    c.nskip = 3;
    c.skip[0] = 0;
    c.skip[1] = 2;
    c.skip[2] = 3;
    return c;
}

static const int32_t SAMPLE[] = {2, 5, 6, 4, 7, 8, 9, 3};
enum { SAMPLE_LEN = 8, SAMPLE_MASK = 3 };

static void test_bag_of_words_features(void) {
    context_encoder m;
    ctx_config c = small_config(1, 0, 0, 2);
    ctx_create(&m, &c);
    CHECK_EQ_INT(m.rows, 20);
    ctx_batch b = {0};
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    /* window 2 around position 3: left 5, 6 -> rows 5, 6; right 7, 8 -> rows 17, 18;
     * 9 is at distance 3, [CLS]/[SEP] are skipped */
    CHECK_EQ_INT(b.B, 1);
    CHECK_EQ_INT(b.off[1], 4);
    int32_t f[4];
    memcpy(f, b.feat, sizeof f);
    qsort(f, 4, sizeof f[0], cmp_i32);
    CHECK_EQ_INT(f[0], 5);
    CHECK_EQ_INT(f[1], 6);
    CHECK_EQ_INT(f[2], 17);
    CHECK_EQ_INT(f[3], 18);
    /* whole sentence, one side: 5 6 7 8 9 */
    ctx_free(&m);
    c = small_config(0, 0, 0, 0);
    ctx_create(&m, &c);
    CHECK_EQ_INT(m.rows, 10);
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    CHECK_EQ_INT(b.off[1], 5);
    for (int k = 0; k < 5 && k < b.off[1]; k++) CHECK_EQ_INT(b.feat[k], 5 + k);
    /* an id out of range is ignored like a skipped one */
    const int32_t odd[] = {2, 42, 4, -1, 3};
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, odd, 5, 2, 0, NULL);
    CHECK_EQ_INT(b.off[1], 0);
    ctx_batch_free(&b);
    ctx_free(&m);
}

static void test_hashed_features(void) {
    context_encoder m;
    ctx_config c = small_config(1, 1, 1, 2);
    ctx_create(&m, &c);
    CHECK_EQ_INT(m.rows, 27);
    ctx_batch b = {0};
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    /* 4 words + positional (6,-1), (7,+1) + bigrams (5,6) (6,M) (M,7) (7,8) */
    CHECK_EQ_INT(b.off[1], 10);
    int hashed = 0;
    for (int64_t k = 0; k < b.off[1]; k++) {
        CHECK(b.feat[k] >= 0 && b.feat[k] < 27);
        hashed += b.feat[k] >= 20;
    }
    CHECK_EQ_INT(hashed, 6);
    /* the same sample gives the same features (hashing is deterministic) */
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    CHECK_EQ_INT(b.off[2], 20);
    CHECK(!memcmp(b.feat, b.feat + 10, 10 * sizeof(int32_t)));
    ctx_batch_free(&b);
    ctx_free(&m);
}

static void test_forward_is_the_mean(void) {
    context_encoder m;
    ctx_config c = small_config(1, 0, 0, 1); /* features: rows 6 and 17 */
    ctx_create(&m, &c);
    for (int i = 0; i < 3; i++) {
        m.emb[6 * 3 + i] = (float)(i + 1);       /* 1 2 3 */
        m.emb[17 * 3 + i] = (float)(10 * i - 4); /* -4 6 16 */
    }
    ctx_batch b = {0};
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    const int32_t nothing[] = {2, 4, 3};
    ctx_batch_add(&m, &b, nothing, 3, 1, 0, NULL);
    float hid[6] = {9, 9, 9, 9, 9, 9};
    ctx_forward(&m, &b, hid);
    CHECK_NEAR(hid[0], -1.5, 1e-6);
    CHECK_NEAR(hid[1], 4.0, 1e-6);
    CHECK_NEAR(hid[2], 9.5, 1e-6);
    CHECK_NEAR(hid[3], 0, 0);
    CHECK_NEAR(hid[5], 0, 0);
    /* backward: each feature row gets d hid / n */
    const float dh[6] = {2, -4, 6, 100, 100, 100};
    ctx_backward(&m, &b, dh);
    CHECK(m.params.p[0].has_grad);
    CHECK_NEAR(m.gemb[6 * 3 + 0], 1, 1e-6);
    CHECK_NEAR(m.gemb[17 * 3 + 1], -2, 1e-6);
    CHECK_NEAR(m.gemb[17 * 3 + 2], 3, 1e-6);
    CHECK_NEAR(m.gemb[5 * 3 + 0], 0, 0);
    param_list_zero_grad(&m.params);
    CHECK(!m.params.p[0].has_grad);
    ctx_batch_free(&b);
    ctx_free(&m);
}

static const int32_t BATCH[3][9] = {{2, 5, 6, 4, 7, 8, 9, 3}, {2, 4, 9, 9, 5, 3}, {2, 8, 7, 6, 5, 4, 3}};
static const int BLEN[3] = {8, 6, 7}, BMASK[3] = {3, 1, 5}, LABELS[3] = {0, 3, 1};

static double head_loss(context_encoder *m, entity_head *h, ctx_batch *b, float *dhid_out) {
    float hid[3 * 3], dense[3 * 3], gelu[3 * 3], logp[3 * 4], dlogp[3 * 4];
    ctx_forward(m, b, hid);
    entity_head_forward(h, hid, 3, dense, gelu, logp);
    double loss = mep_loss(logp, LABELS, 3, 4, 0.1, dlogp);
    if (dhid_out) entity_head_backward(h, hid, 3, dense, gelu, logp, dlogp, dhid_out, NULL);
    return loss;
}

static void test_gradient_finite_differences(void) {
    context_encoder m;
    ctx_config c = small_config(1, 2, 1, 0);
    ctx_create(&m, &c);
    rng_t rng;
    rng_seed(&rng, 7);
    m.cfg.init_std = 0.8f;
    ctx_init_random(&m, &rng);
    entity_head h;
    entity_head_create(&h, 3, 4);
    entity_head_init_random(&h, &rng);
    ctx_batch b = {0};
    ctx_batch_clear(&b);
    for (int s = 0; s < 3; s++) ctx_batch_add(&m, &b, BATCH[s], BLEN[s], BMASK[s], 0, NULL);
    float dhid[9];
    param_list_zero_grad(&m.params);
    head_loss(&m, &h, &b, dhid);
    ctx_backward(&m, &b, dhid);
    int checked = 0, nonzero = 0;
    double worst = 0;
    for (int64_t i = 0; i < m.rows * 3; i++) {
        float keep = m.emb[i];
        const float eps = 1e-2f;
        m.emb[i] = keep + eps;
        double lp = head_loss(&m, &h, &b, NULL);
        m.emb[i] = keep - eps;
        double lm = head_loss(&m, &h, &b, NULL);
        m.emb[i] = keep;
        double num = (lp - lm) / (2.0 * eps), ana = m.gemb[i];
        double err = fabs(num - ana) / (fabs(num) + fabs(ana) + 1e-3);
        if (err > worst) worst = err;
        checked++;
        nonzero += fabs(ana) > 1e-6;
    }
    CHECK_MSG(worst < 2e-2, "worst relative gradient error %g", worst);
    CHECK(nonzero >= 20); /* the rows of the batch's features got a gradient */
    CHECK(checked == 81);
    ctx_batch_free(&b);
    entity_head_free(&h);
    ctx_free(&m);
}

static void test_dropout(void) {
    context_encoder m;
    ctx_config c = small_config(1, 1, 1, 0);
    ctx_create(&m, &c);
    rng_t rng;
    rng_seed(&rng, 3);
    ctx_batch b = {0};
    ctx_batch_clear(&b);
    ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0, NULL);
    int64_t full = b.off[1];
    int64_t total = 0;
    for (int t = 0; t < 200; t++) {
        ctx_batch_clear(&b);
        ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0.5, &rng);
        CHECK(b.off[1] >= 1 && b.off[1] <= full);
        total += b.off[1];
        ctx_batch_clear(&b);
        ctx_batch_add(&m, &b, SAMPLE, SAMPLE_LEN, SAMPLE_MASK, 0.99, &rng);
        CHECK_EQ_INT(b.off[1], 1); /* 0.99 almost always drops all: one is kept */
    }
    /* about half kept on average */
    CHECK_NEAR((double)total / 200.0 / (double)full, 0.5, 0.08);
    ctx_batch_free(&b);
    ctx_free(&m);
}

static void test_config_json_round_trip(void) {
    ctx_config c = small_config(1, 2, 1, 5), d;
    c.init_std = 0.25f;
    char *js = ctx_config_to_json(&c);
    ctx_config_from_json(&d, js, "config.json");
    free(js);
    CHECK_EQ_INT(d.vocab, 10);
    CHECK_EQ_INT(d.window, 5);
    CHECK_EQ_INT(d.pos_window, 2);
    CHECK_EQ_INT(d.buckets, 7);
    CHECK_EQ_INT(d.nskip, 3);
    CHECK_EQ_INT(d.skip[2], 3);
    CHECK_NEAR(d.init_std, 0.25, 1e-7);
}

static void bad_json(void *arg) {
    (void)arg;
    ctx_config d;
    ctx_config_from_json(&d, "{\"vocab\": 10, \"dim\": \"x\"}", "model/config.json");
}

static void test_config_json_bad_input(void) {
    CHECK_DIES(3, "model/config.json", bad_json, NULL);
}

static void test_model_dir_round_trip(void) {
    char dir[] = "/tmp/probexpan-ctx-XXXXXX";
    if (!mkdtemp(dir)) SKIP("no temp dir");
    context_encoder m, back;
    ctx_config c = small_config(1, 1, 1, 3);
    ctx_create(&m, &c);
    rng_t rng;
    rng_seed(&rng, 11);
    ctx_init_random(&m, &rng);
    char cfg[512], st[512];
    snprintf(cfg, sizeof cfg, "%s/config.json", dir);
    snprintf(st, sizeof st, "%s/model.safetensors", dir);
    ctx_config_save(&c, 42, cfg);
    safetensors_entry e = {"ctx.embeddings", ST_F32, 2, {m.rows, 3}, m.emb};
    safetensors_write(st, &e, 1, NULL);
    CHECK(ctx_is_model_dir(dir));
    int ne = 0;
    ctx_load_dir(&back, dir, &ne);
    CHECK_EQ_INT(ne, 42);
    CHECK_EQ_INT(back.rows, m.rows);
    CHECK_EQ_INT(back.cfg.window, 3);
    CHECK(!memcmp(back.emb, m.emb, sizeof(float) * (size_t)m.rows * 3));
    ctx_free(&back);
    ctx_free(&m);
    /* a BERT-style config is not a context-encoder dir */
    FILE *f = fopen(cfg, "w");
    if (f) {
        fputs("{\"model_type\": \"bert\", \"hidden_size\": 8}", f);
        fclose(f);
    }
    CHECK(!ctx_is_model_dir(dir));
    unlink(cfg);
    unlink(st);
    rmdir(dir);
}

/* A synthetic corpus where the entity is fully determined by one context word among
 * noise words: encoder + head + loss + AdamW must learn it to > 90% accuracy. */
static void test_learns_synthetic_corpus(void) {
    enum { NE = 4, H = 16, B = 32, STEPS = 150 };
    ctx_config c = ctx_config_defaults();
    c.vocab = 40;
    c.dim = H;
    c.buckets = 64;
    c.mask_id = 4;
    c.nskip = 2;
    c.skip[0] = 2;
    c.skip[1] = 3;
    context_encoder m;
    ctx_create(&m, &c);
    rng_t rng;
    rng_seed(&rng, 5);
    ctx_init_random(&m, &rng);
    entity_head h;
    entity_head_create(&h, H, NE);
    entity_head_init_random(&h, &rng);
    adamw_hparams hp = adamw_defaults();
    hp.lr = 1e-2;
    adamw opt;
    adamw_create(&opt, &hp);
    adamw_add(&opt, &m.params);
    adamw_add(&opt, &h.params);
    float hid[B * H], dense[B * H], gelu[B * H], logp[B * NE], dlogp[B * NE], dhid[B * H];
    int labels[B];
    ctx_batch b = {0};
    int correct = 0;
    for (int step = 0; step <= STEPS; step++) {
        ctx_batch_clear(&b);
        for (int i = 0; i < B; i++) {
            /* [CLS] noise noise [MASK] key noise [SEP]; key word 5 + label */
            int label = (int)rng_below(&rng, NE);
            int32_t ids[7] = {2, 10 + (int32_t)rng_below(&rng, 30), 10 + (int32_t)rng_below(&rng, 30), 4,
                              5 + label, 10 + (int32_t)rng_below(&rng, 30), 3};
            labels[i] = label;
            ctx_batch_add(&m, &b, ids, 7, 3, 0.1, &rng);
        }
        param_list_zero_grad(&m.params);
        param_list_zero_grad(&h.params);
        ctx_forward(&m, &b, hid);
        entity_head_forward(&h, hid, B, dense, gelu, logp);
        if (step == STEPS) { /* held-out batch: accuracy only */
            for (int i = 0; i < B; i++) {
                int best = 0;
                for (int v = 1; v < NE; v++)
                    if (logp[i * NE + v] > logp[i * NE + best]) best = v;
                correct += best == labels[i];
            }
            break;
        }
        mep_loss(logp, labels, B, NE, 0.075, dlogp);
        entity_head_backward(&h, hid, B, dense, gelu, logp, dlogp, dhid, NULL);
        ctx_backward(&m, &b, dhid);
        adamw_step(&opt);
    }
    CHECK_MSG(correct >= 0.9 * B, "accuracy %d / %d", correct, B);
    ctx_batch_free(&b);
    adamw_free(&opt);
    entity_head_free(&h);
    ctx_free(&m);
}

int main(void) {
    check_prog_ = "test_context_encoder";
    RUN(test_bag_of_words_features);
    RUN(test_hashed_features);
    RUN(test_forward_is_the_mean);
    RUN(test_gradient_finite_differences);
    RUN(test_dropout);
    RUN(test_config_json_round_trip);
    RUN(test_config_json_bad_input);
    RUN(test_model_dir_round_trip);
    RUN(test_learns_synthetic_corpus);
    return check_any_failed_;
}
