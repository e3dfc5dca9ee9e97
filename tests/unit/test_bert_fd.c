/* test_bert_fd: finite-difference check of the analytic gradients of the whole MEP path
 * (embeddings, full layers, the [MASK]-only top layer, entity head, loss) on a tiny random
 * model (3 layers) with nothing frozen (F = 0), with F = 2 (top layer + head train) and
 * F = 3 (head only). For each trainable tensor: its largest-gradient entry and two random
 * ones, central differences of the float32 forward with h = 1e-2; tolerance |fd − g| <= 5e-3·max|g_tensor|
 * + 2e-5 (float32 forward noise / h and O(h²) truncation). */
#include "check.h"

#include "nn/bert.h"
#include "nn/entity_head.h"
#include "nn/mep_loss.h"
#include "base/rng.h"

static bert_config tiny(void) {
    bert_config c = {0};
    c.vocab_size = 40;
    c.hidden = 8;
    c.layers = 3;
    c.heads = 2;
    c.ffn = 12;
    c.max_pos = 16;
    c.type_vocab = 2;
    c.ln_eps = 1e-12f;
    c.num_entities = 7;
    c.mask_token_id = 3;
    return c;
}

static const int seqs[3][9] = {{1, 10, 3, 12, 2}, {1, 20, 21, 22, 3, 23, 2}, {1, 3, 30, 31, 32, 33, 34, 35, 2}};
static const int lens[3] = {5, 7, 9};
static const int labels[3] = {2, 5, 0};

static double loss_of(bert_model *m, entity_head *h, bert_batch *b, bert_acts *a, int grads) {
    int B = b->B, H = m->cfg.hidden, V = h->V;
    float hid[3 * 8], dense[3 * 8], gelu[3 * 8], logp[3 * 7], dlogp[3 * 7], dhid[3 * 8];
    bert_forward_train(m, a, b, NULL, hid);
    entity_head_forward(h, hid, B, dense, gelu, logp);
    double loss = mep_loss(logp, labels, B, V, 0.2, grads ? dlogp : NULL);
    if (grads) {
        entity_head_backward(h, hid, B, dense, gelu, logp, dlogp, dhid, NULL);
        bert_backward(m, a, b, dhid);
    }
    (void)H;
    return loss;
}

static void make(bert_model *m, entity_head *h, int F) {
    bert_config c = tiny();
    rng_t r;
    rng_seed(&r, 7);
    bert_create(m, &c, F);
    bert_init_random(m, &r);
    /* larger weights than BERT's 0.02 so every path carries signal */
    for (int i = 0; i < m->params.n; i++) {
        param_t *p = &m->params.p[i];
        for (int64_t j = 0; j < p->numel; j++)
            p->data[j] = p->ndim == 2 ? (float)(0.4 * rng_normal(&r))
                                      : (strstr(p->name, "LayerNorm.weight") ? 1.0f : 0.0f) + (float)(0.2 * rng_normal(&r));
    }
    entity_head_create(h, c.hidden, c.num_entities);
    entity_head_init_random(h, &r);
    for (int i = 0; i < c.num_entities; i++) h->b2[i] = (float)(0.3 * rng_normal(&r));
    for (int i = 0; i < c.hidden; i++) h->b0[i] = (float)(0.3 * rng_normal(&r));
}

static void check_list(param_list *l, bert_model *m, entity_head *h, bert_batch *b, bert_acts *a,
                       rng_t *r, int *checked) {
    for (int i = 0; i < l->n; i++) {
        param_t *p = &l->p[i];
        if (!p->grad) continue;
        CHECK_MSG(p->has_grad, "%s: has_grad not set", p->name);
        float gmax = 0;
        int64_t arg = 0;
        for (int64_t j = 0; j < p->numel; j++)
            if (fabsf(p->grad[j]) > gmax) gmax = fabsf(p->grad[j]), arg = j;
        int64_t idx[3] = {arg, (int64_t)rng_below(r, (uint64_t)p->numel), (int64_t)rng_below(r, (uint64_t)p->numel)};
        for (int k = 0; k < 3; k++) {
            int64_t j = idx[k];
            float save = p->data[j];
            const float hh = 1e-2f;
            p->data[j] = save + hh;
            double lp = loss_of(m, h, b, a, 0);
            p->data[j] = save - hh;
            double lm = loss_of(m, h, b, a, 0);
            p->data[j] = save;
            double fd = (lp - lm) / (2 * hh);
            double tol = 5e-3 * gmax + 2e-5;
            CHECK_MSG(fabs(fd - p->grad[j]) <= tol, "%s[%lld]: fd %.6g vs analytic %.6g (tol %.3g)",
                      p->name, (long long)j, fd, p->grad[j], tol);
            (*checked)++;
        }
    }
}

static void run_case(int F, int expect_tensors) {
    bert_model m;
    entity_head h;
    make(&m, &h, F);
    bert_batch b = {0};
    bert_batch_clear(&b);
    for (int s = 0; s < 3; s++) CHECK(bert_batch_add(&b, seqs[s], lens[s], 3, 16) == 0);
    bert_acts *a = bert_acts_new();
    param_list_zero_grad(&m.params);
    param_list_zero_grad(&h.params);
    loss_of(&m, &h, &b, a, 1);
    rng_t r;
    rng_seed(&r, 11);
    int checked = 0;
    check_list(&m.params, &m, &h, &b, a, &r, &checked);
    check_list(&h.params, &m, &h, &b, a, &r, &checked);
    CHECK_EQ_INT(checked, 3 * expect_tensors);
    bert_acts_free(a);
    bert_batch_free(&b);
    bert_free(&m);
    entity_head_free(&h);
}

/* F = 0: embeddings, layers 0-1 in full, layer 2 [MASK]-only, head. */
static void test_fd_f0(void) { run_case(0, 5 + 3 * 16 + 4); }
/* F = 2: only the top layer and the head train. */
static void test_fd_f2(void) { run_case(2, 16 + 4); }
/* F = 3: the encoder is frozen; only the head trains. */
static void test_fd_f3(void) { run_case(3, 4); }

/* The word-embedding gradient is zero for ids not in the batch and the pad row. */
static void test_embedding_rows(void) {
    bert_model m;
    entity_head h;
    make(&m, &h, 0);
    bert_batch b = {0};
    bert_batch_clear(&b);
    for (int s = 0; s < 3; s++) bert_batch_add(&b, seqs[s], lens[s], 3, 16);
    bert_acts *a = bert_acts_new();
    param_list_zero_grad(&m.params);
    param_list_zero_grad(&h.params);
    loss_of(&m, &h, &b, a, 1);
    int used[40] = {0};
    for (int t = 0; t < b.T; t++) used[b.ids[t]] = 1;
    for (int v = 0; v < 40; v++) {
        float s = 0;
        for (int j = 0; j < 8; j++) s += fabsf(m.g.word[v * 8 + j]);
        CHECK_MSG(used[v] ? s > 0 : s == 0, "word row %d: |grad| %g, used %d", v, s, used[v]);
    }
    for (int j = 0; j < 8; j++) CHECK(m.g.type[8 + j] == 0); /* token type 1 never used */
    bert_acts_free(a);
    bert_batch_free(&b);
    bert_free(&m);
    entity_head_free(&h);
}

TEST_MAIN_BEGIN("test_bert_fd")
    RUN(test_fd_f0);
    RUN(test_fd_f2);
    RUN(test_fd_f3);
    RUN(test_embedding_rows);
TEST_MAIN_END
