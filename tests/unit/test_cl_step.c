/* test_cl_step: one contrastive step of train-cl (common/model/cl_train.h cl_step) end to end
 * against ../shared/golden/cl: the two golden views through bert_forward_train (F = 1), the
 * projection head (BN per view), the HCL loss (τ⁺ 0.1, β 1, t 0.5) and the whole backward,
 * compared with cl/loss, cl/grad/encoder.layer.1.* and cl/grad/projection_head.*, the BN
 * running statistics after both views, and the same with the official weight 7 (gradients
 * ×7, loss unchanged) and with the frozen prefix passed in as a cache would.
 * Tolerance (golden README): max|c−g| <= 1e-4·max|g| + 1e-6; the gradients that are zero by
 * construction (attention.self.key.bias, output.LayerNorm.bias of the top layer) are
 * checked with the absolute bound alone. */
#include "check.h"
#include "golden.h"

#include "nn/bert.h"
#include "model/cl_train.h"
#include "nn/projection_head.h"

static bert_model M;
static projection_head PH;

static int load(void) {
    if (!golden_dir()) return 0;
    bert_load_dir(&M, golden_dir(), 1);
    projection_head_create(&PH, M.cfg.hidden, M.cfg.proj_hidden, M.cfg.proj_out);
    char p[4400];
    snprintf(p, sizeof p, "%s/model.safetensors", golden_dir());
    safetensors st;
    safetensors_open(&st, p);
    int ok = projection_head_load(&PH, &st);
    safetensors_close(&st);
    CHECK(ok == 1);
    return ok;
}

static void unload(void) {
    bert_free(&M);
    projection_head_free(&PH);
}

/* Packed batch of golden view `v` ("cl/view1"). */
static int view_batch(const char *v, bert_batch *b) {
    char n[64];
    snprintf(n, sizeof n, "%s/lengths", v);
    int32_t *len = golden_i32(n, 6);
    snprintf(n, sizeof n, "%s/mask_pos", v);
    int32_t *mp = golden_i32(n, 6);
    if (!len || !mp) return 0;
    int L = 0;
    for (int s = 0; s < 6; s++) L = len[s] > L ? len[s] : L;
    snprintf(n, sizeof n, "%s/input_ids", v);
    int32_t *ids = golden_i32(n, 6 * (int64_t)L);
    if (!ids) return 0;
    memset(b, 0, sizeof *b);
    bert_batch_clear(b);
    for (int s = 0; s < 6; s++) {
        CHECK(bert_batch_add(b, (const int *)ids + (size_t)s * L, len[s], M.cfg.mask_token_id, M.cfg.max_pos) == 0);
        CHECK_EQ_INT(b->mask_pos[s], mp[s]);
    }
    free(len);
    free(mp);
    free(ids);
    return 1;
}

static int zero_by_construction(const char *name) {
    return strstr(name, "attention.self.key.bias") || !strcmp(name, "encoder.layer.1.output.LayerNorm.bias");
}

/* Compares every trainable gradient of M and PH with scale·golden. */
static void check_grads(double scale) {
    int seen = 0;
    param_list *lists[2] = {&M.params, &PH.params};
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            param_t *p = &lists[l]->p[i];
            if (!p->grad) continue;
            char rel[512];
            snprintf(rel, sizeof rel, "cl/grad/%s", p->name);
            CHECK_MSG(p->has_grad, "%s: no gradient", p->name);
            float *c = malloc(sizeof(float) * (size_t)p->numel);
            for (int64_t k = 0; k < p->numel; k++) c[k] = (float)(p->grad[k] / scale);
            if (zero_by_construction(p->name)) golden_close_tol(rel, c, p->numel, 0, 1e-6);
            else golden_close(rel, c, p->numel);
            free(c);
            seen++;
        }
    CHECK_EQ_INT(seen, 21);   /* 16 tensors of encoder.layer.1 + 5 of the projection head */
}

/* One step on the golden views; with_prefix: the frozen prefix computed separately and
 * passed in (the cache path). Returns the loss. */
static double golden_step(double weight, int with_prefix) {
    bert_batch b1, b2;
    if (!view_batch("cl/view1", &b1) || !view_batch("cl/view2", &b2)) return NAN;
    int H = M.cfg.hidden, P = bert_prefix_layers(&M);
    float *p1 = NULL, *p2 = NULL;
    if (with_prefix) {
        p1 = malloc(sizeof(float) * (size_t)b1.T * H);
        p2 = malloc(sizeof(float) * (size_t)b2.T * H);
        bert_forward_prefix(&M, &b1, P, p1);
        bert_forward_prefix(&M, &b2, P, p2);
    }
    cl_step_bufs c;
    cl_step_bufs_init(&c, &PH, H, 8);
    param_list_zero_grad(&M.params);
    param_list_zero_grad(&PH.params);
    hcl_params hp = {0.1, 1.0, 0.5};
    double loss = cl_step(&c, &M, &PH, &b1, p1, &b2, p2, &hp, weight);
    golden_close("cl/view1/z", c.v1.z, 6 * 128);
    golden_close("cl/view2/z", c.v2.z, 6 * 128);
    cl_step_bufs_free(&c);
    bert_batch_free(&b1);
    bert_batch_free(&b2);
    free(p1);
    free(p2);
    return loss;
}

static void test_golden_step(void) {
    if (!load()) SKIP("no ../shared/golden");
    double loss = golden_step(1, 0);
    float *g = golden_f32("cl/loss", 1);
    if (g) CHECK_NEAR(loss, g[0], 1e-4 * fabs(g[0]) + 1e-6);
    CHECK_NEAR(loss, 2.60122263, 1e-4);
    free(g);
    check_grads(1);
    /* BN running statistics after view 1 then view 2 (count 2) */
    golden_close("cl/view2/bn_running_mean", PH.running_mean, PH.P1);
    golden_close("cl/view2/bn_running_var", PH.running_var, PH.P1);
    CHECK_EQ_INT(PH.num_batches_tracked, 2);
    unload();
}

static void test_weight_scales_gradients(void) {
    if (!load()) SKIP("no ../shared/golden");
    double loss = golden_step(7, 0);
    CHECK_NEAR(loss, 2.60122263, 1e-4);   /* the returned loss is unweighted */
    check_grads(7);
    unload();
}

static void test_cached_prefix(void) {
    if (!load()) SKIP("no ../shared/golden");
    double loss = golden_step(1, 1);
    CHECK_NEAR(loss, 2.60122263, 1e-4);
    check_grads(1);
    unload();
}

TEST_MAIN_BEGIN("test_cl_step")
    RUN(test_golden_step);
    RUN(test_weight_scales_gradients);
    RUN(test_cached_prefix);
TEST_MAIN_END
