/* bert: BERT encoder — config, parameters, packed-batch forward/backward with a frozen
 * prefix and a [MASK]-only top layer (see bert.h for the contract). */
#include "nn/bert.h"

#include <cblas.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/paths.h"
#include "base/outfile.h"
#include "base/parallel.h"
#include "format/safetensors.h"
#include "nn/tensor_ops.h"

/* ---------------------------------------------------------------- config */

static int cfg_int(json_t *o, const char *path, const char *key, int def, int required) {
    json_t *v = json_object_get(o, key);
    if (!v) {
        if (required) die_input(path, key, "missing required integer key");
        return def;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (1 << 30))
        die_input(path, key, "expected a non-negative integer");
    return (int)json_integer_value(v);
}

void bert_config_load(bert_config *c, const char *path) {
    json_error_t err;
    FILE *f = paths_fopen_input(path);
    if (!f) die_errno("cannot open %s", path);
    json_t *o = json_loadf(f, 0, &err);
    fclose(f);
    if (!o) {
        char where[32];
        snprintf(where, sizeof where, "line %d", err.line);
        die_input(path, where, "expected a JSON object (%s)", err.text);
    }
    if (!json_is_object(o)) die_input(path, NULL, "expected a JSON object");
    memset(c, 0, sizeof *c);
    c->vocab_size = cfg_int(o, path, "vocab_size", 0, 1);
    c->hidden = cfg_int(o, path, "hidden_size", 0, 1);
    c->layers = cfg_int(o, path, "num_hidden_layers", 0, 1);
    c->heads = cfg_int(o, path, "num_attention_heads", 0, 1);
    c->ffn = cfg_int(o, path, "intermediate_size", 0, 1);
    c->max_pos = cfg_int(o, path, "max_position_embeddings", 0, 1);
    c->type_vocab = cfg_int(o, path, "type_vocab_size", 2, 0);
    c->ln_eps = 1e-12f;
    json_t *v = json_object_get(o, "layer_norm_eps");
    if (v) {
        if (!json_is_number(v) || !(json_number_value(v) > 0) || !((float)json_number_value(v) > 0) ||
            !isfinite((float)json_number_value(v)))
            die_input(path, "layer_norm_eps", "expected a positive number representable as float32");
        c->ln_eps = (float)json_number_value(v);
    }
    v = json_object_get(o, "hidden_act");
    if (v && (!json_is_string(v) || strcmp(json_string_value(v), "gelu")))
        die_input(path, "hidden_act", "only \"gelu\" (the erf form) is supported");
    if (c->vocab_size < 1 || c->hidden < 1 || c->layers < 1 || c->heads < 1 || c->ffn < 1 ||
        c->max_pos < 1 || c->type_vocab < 1)
        die_input(path, NULL, "sizes must be >= 1");
    if (c->hidden % c->heads)
        die_input(path, "num_attention_heads", "%d does not divide hidden_size %d", c->heads,
                  c->hidden);
    /* every parameter count below must fit in memory (and size_t): at most 2^33 floats */
    double H = c->hidden, params = ((double)c->vocab_size + c->max_pos + c->type_vocab + 2) * H +
                                   (double)c->layers * (4 * H * H + 2 * H * c->ffn + 10 * H + c->ffn);
    if (params > 8589934592.0)
        die_input(path, NULL, "the sizes describe %.3g parameters, more than this program can hold (2^33)", params);
    c->mask_token_id = 103;
    json_t *p = json_object_get(o, "probexpan");
    if (p) {
        if (!json_is_object(p)) die_input(path, "probexpan", "expected an object");
        c->num_entities = cfg_int(p, path, "num_entities", 0, 0);
        c->mask_token_id = cfg_int(p, path, "mask_token_id", 103, 0);
        c->proj_hidden = cfg_int(p, path, "proj_hidden", 0, 0);
        c->proj_out = cfg_int(p, path, "proj_out", 0, 0);
    }
    if (c->mask_token_id >= c->vocab_size)
        die_input(path, "probexpan.mask_token_id", "%d is outside the vocabulary", c->mask_token_id);
    json_decref(o);
}

void bert_config_save(const bert_config *c, const char *path) {
    json_t *o = json_object();
    json_t *arch = json_array();
    json_array_append_new(arch, json_string("BertModel"));
    json_object_set_new(o, "architectures", arch);
    json_object_set_new(o, "model_type", json_string("bert"));
    json_object_set_new(o, "vocab_size", json_integer(c->vocab_size));
    json_object_set_new(o, "hidden_size", json_integer(c->hidden));
    json_object_set_new(o, "num_hidden_layers", json_integer(c->layers));
    json_object_set_new(o, "num_attention_heads", json_integer(c->heads));
    json_object_set_new(o, "intermediate_size", json_integer(c->ffn));
    json_object_set_new(o, "max_position_embeddings", json_integer(c->max_pos));
    json_object_set_new(o, "type_vocab_size", json_integer(c->type_vocab));
    json_object_set_new(o, "layer_norm_eps", json_real(c->ln_eps));
    json_object_set_new(o, "hidden_act", json_string("gelu"));
    json_object_set_new(o, "hidden_dropout_prob", json_real(0.1));
    json_object_set_new(o, "attention_probs_dropout_prob", json_real(0.1));
    json_object_set_new(o, "initializer_range", json_real(0.02));
    json_object_set_new(o, "pad_token_id", json_integer(0));
    json_object_set_new(o, "position_embedding_type", json_string("absolute"));
    json_t *p = json_object();
    json_object_set_new(p, "head", json_string("Linear(H,H)-GELU-Linear(H,V_e)-LogSoftmax"));
    json_object_set_new(p, "mask_token_id", json_integer(c->mask_token_id));
    json_object_set_new(p, "num_entities", json_integer(c->num_entities));
    json_object_set_new(p, "proj_hidden", json_integer(c->proj_hidden));
    json_object_set_new(p, "proj_out", json_integer(c->proj_out));
    json_object_set_new(o, "probexpan", p);
    outfile *out = outfile_open(path);
    if (json_dumpf(o, outfile_stream(out), JSON_INDENT(2) | JSON_SORT_KEYS))
        die_errno("cannot write %s", outfile_temp(out));
    outfile_commit(out);
    json_decref(o);
}

/* ---------------------------------------------------------------- parameters */

typedef struct {
    bert_model *m;
    size_t poff, goff;
    int assign;
} layout_ctx;

static void lay(layout_ctx *L, const char *name, float **w, float **g, int trainable, int ndim,
                int64_t d0, int64_t d1) {
    size_t n = (size_t)(ndim == 2 ? d0 * d1 : d0);
    if (L->assign) {
        *w = L->m->param_mem + L->poff;
        *g = trainable ? L->m->grad_mem + L->goff : NULL;
        param_list_add(&L->m->params, name, *w, *g, ndim, d0, d1);
    }
    L->poff += n;
    if (trainable) L->goff += n;
}

static void layout(layout_ctx *L) {
    bert_model *m = L->m;
    const bert_config *c = &m->cfg;
    int H = c->hidden, F = c->ffn, te = m->frozen == 0;
    bert_weights *w = &m->w, *g = &m->g;
    lay(L, "embeddings.word_embeddings.weight", &w->word, &g->word, te, 2, c->vocab_size, H);
    lay(L, "embeddings.position_embeddings.weight", &w->pos, &g->pos, te, 2, c->max_pos, H);
    lay(L, "embeddings.token_type_embeddings.weight", &w->type, &g->type, te, 2, c->type_vocab, H);
    lay(L, "embeddings.LayerNorm.weight", &w->ln_w, &g->ln_w, te, 1, H, 0);
    lay(L, "embeddings.LayerNorm.bias", &w->ln_b, &g->ln_b, te, 1, H, 0);
    for (int l = 0; l < c->layers; l++) {
        bert_layer_w *a = &w->layer[l], *b = &g->layer[l];
        int t = l >= m->frozen;
        char n[128];
#define LAY(suffix, fw, ndim, d0, d1)                                                        \
    snprintf(n, sizeof n, "encoder.layer.%d.%s", l, suffix);                                \
    lay(L, n, &a->fw, &b->fw, t, ndim, d0, d1)
        LAY("attention.self.query.weight", q_w, 2, H, H);
        LAY("attention.self.query.bias", q_b, 1, H, 0);
        LAY("attention.self.key.weight", k_w, 2, H, H);
        LAY("attention.self.key.bias", k_b, 1, H, 0);
        LAY("attention.self.value.weight", v_w, 2, H, H);
        LAY("attention.self.value.bias", v_b, 1, H, 0);
        LAY("attention.output.dense.weight", ao_w, 2, H, H);
        LAY("attention.output.dense.bias", ao_b, 1, H, 0);
        LAY("attention.output.LayerNorm.weight", ln1_w, 1, H, 0);
        LAY("attention.output.LayerNorm.bias", ln1_b, 1, H, 0);
        LAY("intermediate.dense.weight", i_w, 2, F, H);
        LAY("intermediate.dense.bias", i_b, 1, F, 0);
        LAY("output.dense.weight", o_w, 2, H, F);
        LAY("output.dense.bias", o_b, 1, H, 0);
        LAY("output.LayerNorm.weight", ln2_w, 1, H, 0);
        LAY("output.LayerNorm.bias", ln2_b, 1, H, 0);
#undef LAY
    }
}

void bert_create(bert_model *m, const bert_config *c, int frozen) {
    if (frozen < 0 || frozen > c->layers)
        die_usage("frozen layers %d outside 0..%d", frozen, c->layers);
    memset(m, 0, sizeof *m);
    m->cfg = *c;
    m->frozen = frozen;
    m->w.layer = xcalloc((size_t)c->layers, sizeof(bert_layer_w));
    m->g.layer = xcalloc((size_t)c->layers, sizeof(bert_layer_w));
    layout_ctx L = {m, 0, 0, 0};
    layout(&L);
    m->param_mem = xcalloc(L.poff, sizeof(float));
    m->grad_mem = L.goff ? xcalloc(L.goff, sizeof(float)) : NULL;
    L = (layout_ctx){m, 0, 0, 1};
    layout(&L);
}

/* Grow-only float buffer. */
static float *grow(float **p, size_t *cap, size_t n) {
    if (n > *cap) {
        free(*p);
        *cap = n + n / 4;
        *p = xmalloc(*cap * sizeof(float));
    }
    return *p;
}

/* Forward scratch of a model (bert_forward_prefix / bert_forward_infer). */
struct bert_work {
    float *mem;
    size_t cap;
    int64_t *off;
    int cap_off;
    bert_acts *acts;
};

static void work_free(struct bert_work *w);

void bert_free(bert_model *m) {
    work_free(m->work);
    free(m->param_mem);
    free(m->grad_mem);
    free(m->w.layer);
    free(m->g.layer);
    param_list_free(&m->params);
    memset(m, 0, sizeof *m);
}

void bert_init_random(bert_model *m, rng_t *rng) {
    for (int i = 0; i < m->params.n; i++) {
        param_t *p = &m->params.p[i];
        int is_ln = strstr(p->name, "LayerNorm") != NULL;
        for (int64_t j = 0; j < p->numel; j++) {
            if (p->ndim == 2) p->data[j] = (float)(0.02 * rng_normal(rng));
            else p->data[j] = is_ln && strstr(p->name, ".weight") ? 1.0f : 0.0f;
        }
    }
}

/* The tensor for an encoder parameter under any accepted name. */
static const safetensors_tensor *find_alias(const safetensors *st, const char *name) {
    const char *prefixes[] = {"", "bert."};
    char alt[256];
    for (int k = 0; k < 2; k++) {
        snprintf(alt, sizeof alt, "%s%s", prefixes[k], name);
        const safetensors_tensor *t = safetensors_find(st, alt);
        if (t) return t;
        size_t n = strlen(alt);
        if (n > 16 && !strcmp(alt + n - 16, "LayerNorm.weight")) {
            strcpy(alt + n - 6, "gamma");
            if ((t = safetensors_find(st, alt))) return t;
        } else if (n > 14 && !strcmp(alt + n - 14, "LayerNorm.bias")) {
            strcpy(alt + n - 4, "beta");
            if ((t = safetensors_find(st, alt))) return t;
        }
    }
    return NULL;
}

void bert_load_safetensors(bert_model *m, const char *path) {
    safetensors st;
    safetensors_open(&st, path);
    for (int i = 0; i < m->params.n; i++) {
        param_t *p = &m->params.p[i];
        const safetensors_tensor *t = find_alias(&st, p->name);
        if (!t) die_input(path, p->name, "missing tensor (also looked for bert.%s)", p->name);
        safetensors_read_f32_shape(&st, t, p->ndim, p->shape[0], p->shape[1], p->data);
    }
    safetensors_close(&st);
}

void bert_load_dir(bert_model *m, const char *dir, int frozen) {
    char *cp = xasprintf("%s/config.json", dir), *wp = xasprintf("%s/model.safetensors", dir);
    bert_config c;
    bert_config_load(&c, cp);
    bert_create(m, &c, frozen);
    bert_load_safetensors(m, wp);
    free(cp);
    free(wp);
}

/* ---------------------------------------------------------------- batches */

void bert_batch_clear(bert_batch *b) {
    b->B = b->T = 0;
    if (!b->off) {
        b->cap_B = 16;
        b->off = xmalloc(((size_t)b->cap_B + 1) * sizeof(int));
        b->mask_pos = xmalloc((size_t)b->cap_B * sizeof(int));
    }
    b->off[0] = 0;
}

int bert_batch_add(bert_batch *b, const int *ids, int len, int mask_id, int max_pos) {
    if (!b->off) bert_batch_clear(b);
    if (len < 1 || len > max_pos) return -2;
    int mp = -1;
    for (int i = 0; i < len; i++)
        if (ids[i] == mask_id) {
            mp = i;
            break;
        }
    if (mp < 0) return -1;
    if (b->B == b->cap_B) {
        b->cap_B *= 2;
        b->off = xrealloc(b->off, ((size_t)b->cap_B + 1) * sizeof(int));
        b->mask_pos = xrealloc(b->mask_pos, (size_t)b->cap_B * sizeof(int));
    }
    if (b->T + len > b->cap_T) {
        b->cap_T = 2 * (b->T + len) + 64;
        b->ids = xrealloc(b->ids, (size_t)b->cap_T * sizeof(int));
    }
    memcpy(b->ids + b->T, ids, (size_t)len * sizeof(int));
    b->mask_pos[b->B] = mp;
    b->T += len;
    b->off[++b->B] = b->T;
    return 0;
}

void bert_batch_free(bert_batch *b) {
    free(b->ids);
    free(b->off);
    free(b->mask_pos);
    memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- activations */

/* One layer's activations. Full layer: every buffer has T rows. Top ([MASK]-only) layer:
 * no k, v; the others B rows; see layer_forward_top for xm, qk, xbar. */
typedef struct {
    const float *x;                       /* layer input (not owned) */
    float *q, *k, *v, *P, *ctx, *ln1_in, *ln1_mean, *ln1_rstd, *a, *h, *hg, *ln2_in,
        *ln2_mean, *ln2_rstd, *out;
    float *xm, *qk, *xbar;                /* top layer only */
} layer_acts;

struct bert_acts {
    float *arena;
    size_t cap;
    float *scratch;       /* backward scratch */
    size_t scratch_cap;
    int64_t *poff;        /* [B+1] attention-prob offsets of full layers (nh·Σ n²) */
    int64_t *toff;        /* [B+1] of the top layer (nh·Σ n) */
    int cap_B;
    float *emb_in, *emb_mean, *emb_rstd, *x0;  /* x0 = input of the first computed layer */
    layer_acts *L;        /* computed full layers P..N-2 */
    layer_acts top;
    int nfull;
};

bert_acts *bert_acts_new(void) { return xcalloc(1, sizeof(bert_acts)); }

void bert_acts_free(bert_acts *a) {
    if (!a) return;
    free(a->arena);
    free(a->scratch);
    free(a->poff);
    free(a->toff);
    free(a->L);
    free(a);
}

/* Attention offsets of batch b into poff/toff (nh·n² and nh·n per sequence). */
static void attn_offsets(const bert_batch *b, int nh, int64_t *poff, int64_t *toff) {
    poff[0] = toff[0] = 0;
    for (int i = 0; i < b->B; i++) {
        int64_t n = b->off[i + 1] - b->off[i];
        poff[i + 1] = poff[i] + nh * n * n;
        toff[i + 1] = toff[i] + nh * n;
    }
}

/* Bump allocator over one arena; with base == NULL it only counts. */
typedef struct {
    float *base;
    size_t off;
} carver;

static float *carve(carver *cv, size_t n) {
    float *r = cv->base ? cv->base + cv->off : NULL;
    cv->off += n;
    return r;
}

static void carve_layer(layer_acts *la, carver *cv, int rows, int T, int H, int F, int nh,
                        int64_t natt, int top) {
    size_t R = (size_t)rows, Tz = top ? 0 : (size_t)T;
    la->q = carve(cv, R * H);
    la->k = top ? NULL : carve(cv, Tz * H);
    la->v = top ? NULL : carve(cv, Tz * H);
    la->P = carve(cv, (size_t)natt);
    la->ctx = carve(cv, R * H);
    la->ln1_in = carve(cv, R * H);
    la->ln1_mean = carve(cv, R);
    la->ln1_rstd = carve(cv, R);
    la->a = carve(cv, R * H);
    la->h = carve(cv, R * F);
    la->hg = carve(cv, R * F);
    la->ln2_in = carve(cv, R * H);
    la->ln2_mean = carve(cv, R);
    la->ln2_rstd = carve(cv, R);
    la->out = carve(cv, R * H);
    la->xm = top ? carve(cv, R * H) : NULL;
    la->qk = top ? carve(cv, R * nh * H) : NULL;
    la->xbar = top ? carve(cv, R * nh * H) : NULL;
}

/* Sizes and assigns every buffer of a for batch b with nfull full layers. */
static void acts_prepare(bert_acts *a, const bert_model *m, const bert_batch *b, int nfull,
                         int with_emb) {
    const bert_config *c = &m->cfg;
    int H = c->hidden, F = c->ffn, T = b->T, B = b->B;
    if (B + 1 > a->cap_B) {
        a->cap_B = 2 * (B + 1);
        a->poff = xrealloc(a->poff, (size_t)a->cap_B * sizeof(int64_t));
        a->toff = xrealloc(a->toff, (size_t)a->cap_B * sizeof(int64_t));
    }
    attn_offsets(b, c->heads, a->poff, a->toff);
    a->L = xrealloc(a->L, (size_t)(nfull + 1) * sizeof(layer_acts));
    a->nfull = nfull;
    for (int pass = 0; pass < 2; pass++) {
        carver cv = {pass ? a->arena : NULL, 0};
        a->emb_in = with_emb ? carve(&cv, (size_t)T * H) : NULL;
        a->emb_mean = with_emb ? carve(&cv, (size_t)T) : NULL;
        a->emb_rstd = with_emb ? carve(&cv, (size_t)T) : NULL;
        a->x0 = carve(&cv, (size_t)T * H);
        for (int l = 0; l < nfull; l++)
            carve_layer(&a->L[l], &cv, T, T, H, F, c->heads, a->poff[B], 0);
        carve_layer(&a->top, &cv, B, T, H, F, c->heads, a->toff[B], 1);
        if (!pass && cv.off > a->cap) {
            free(a->arena);
            a->cap = cv.off + cv.off / 4;
            a->arena = xmalloc(a->cap * sizeof(float));
        }
    }
}

/* ---------------------------------------------------------------- layers */

static void embed_forward(const bert_model *m, const bert_batch *b, float *in, float *mean,
                          float *rstd, float *out) {
    int H = m->cfg.hidden;
    for (int s = 0; s < b->B; s++)
        for (int t = b->off[s]; t < b->off[s + 1]; t++) {
            int id = b->ids[t], p = t - b->off[s];
            if (id < 0 || id >= m->cfg.vocab_size) die("token id %d outside the vocabulary", id);
            const float *we = m->w.word + (size_t)id * H, *pe = m->w.pos + (size_t)p * H;
            float *r = in + (size_t)t * H;
            for (int j = 0; j < H; j++) r[j] = we[j] + pe[j] + m->w.type[j];
        }
    layernorm_forward(out, mean, rstd, in, m->w.ln_w, m->w.ln_b, b->T, H, m->cfg.ln_eps);
}

static void embed_backward(bert_model *m, const bert_batch *b, const float *in,
                           const float *mean, const float *rstd, const float *dout,
                           float *scratch) {
    int H = m->cfg.hidden;
    layernorm_backward(scratch, 0, m->g.ln_w, m->g.ln_b, dout, in, mean, rstd, m->w.ln_w, b->T,
                       H);
    for (int s = 0; s < b->B; s++)
        for (int t = b->off[s]; t < b->off[s + 1]; t++) {
            int p = t - b->off[s];
            const float *d = scratch + (size_t)t * H;
            float *gw = m->g.word + (size_t)b->ids[t] * H, *gp = m->g.pos + (size_t)p * H;
            for (int j = 0; j < H; j++) {
                gw[j] += d[j];
                gp[j] += d[j];
                m->g.type[j] += d[j];
            }
        }
}

/* FFN + both LayerNorms after the attention context: rows of ctx, residual x. */
static void post_attention_forward(const bert_config *c, const bert_layer_w *w, layer_acts *la,
                                   const float *xres, int rows) {
    int H = c->hidden, F = c->ffn;
    linear_forward(la->ln1_in, la->ctx, w->ao_w, w->ao_b, rows, H, H);
    for (size_t i = 0; i < (size_t)rows * H; i++) la->ln1_in[i] += xres[i];
    layernorm_forward(la->a, la->ln1_mean, la->ln1_rstd, la->ln1_in, w->ln1_w, w->ln1_b, rows, H,
                      c->ln_eps);
    linear_forward(la->h, la->a, w->i_w, w->i_b, rows, H, F);
    gelu_forward(la->hg, la->h, (int64_t)rows * F);
    linear_forward(la->ln2_in, la->hg, w->o_w, w->o_b, rows, F, H);
    for (size_t i = 0; i < (size_t)rows * H; i++) la->ln2_in[i] += la->a[i];
    layernorm_forward(la->out, la->ln2_mean, la->ln2_rstd, la->ln2_in, w->ln2_w, w->ln2_b, rows,
                      H, c->ln_eps);
}

/* Backward of post_attention_forward from dout [rows,H]: writes dctx, dres (residual
 * gradient, overwritten). scratch: rows·(2H + F) floats. */
static void post_attention_backward(const bert_config *c, const bert_layer_w *w,
                                    const bert_layer_w *g, const layer_acts *la,
                                    const float *dout, int rows, float *dctx, float *dres,
                                    float *scratch) {
    int H = c->hidden, F = c->ffn;
    float *d2 = scratch, *da = d2 + (size_t)rows * H, *dh = da + (size_t)rows * H;
    layernorm_backward(d2, 0, g->ln2_w, g->ln2_b, dout, la->ln2_in, la->ln2_mean, la->ln2_rstd,
                       w->ln2_w, rows, H);
    linear_backward(dh, 0, g->o_w, g->o_b, d2, la->hg, w->o_w, rows, F, H);
    gelu_backward(dh, dh, la->h, (int64_t)rows * F);
    memcpy(da, d2, (size_t)rows * H * sizeof(float));
    linear_backward(da, 1, g->i_w, g->i_b, dh, la->a, w->i_w, rows, H, F);
    layernorm_backward(dres, 0, g->ln1_w, g->ln1_b, da, la->ln1_in, la->ln1_mean, la->ln1_rstd,
                       w->ln1_w, rows, H);
    linear_backward(dctx, 0, g->ao_w, g->ao_b, dres, la->ctx, w->ao_w, rows, H, H);
}

/* Shared arguments of the attention loops, which run in parallel over sequences (or heads). */
typedef struct {
    const bert_config *c;
    const bert_layer_w *w, *g;
    const bert_batch *b;
    const layer_acts *la;
    const int64_t *off;           /* poff (full layers) or toff (top layer) */
    float *dctx, *dq, *dk, *dv, *dxbar, *dqk, *dx, *scratch;
    size_t scratch_per_thread;
} att_ctx;

static void full_attention_fwd(void *p, int64_t s0, int64_t s1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh;
    float scale = 1.0f / sqrtf((float)dh);
    (void)tid;
    for (int64_t s = s0; s < s1; s++) {
        int o = a->b->off[s], n = a->b->off[s + 1] - o;
        for (int hh = 0; hh < nh; hh++) {
            float *P = la->P + a->off[s] + (int64_t)hh * n * n;
            size_t co = (size_t)o * H + hh * dh;
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, dh, scale, la->q + co, H,
                        la->k + co, H, 0.0f, P, n);
            for (int i = 0; i < n; i++) softmax_inplace(P + (size_t)i * n, n);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, dh, n, 1.0f, P, n,
                        la->v + co, H, 0.0f, la->ctx + co, H);
        }
    }
}

/* Full layer over every row of the batch; x may alias la->out. */
static void layer_forward_full(const bert_config *c, const bert_layer_w *w,
                               const bert_batch *b, const float *x, layer_acts *la,
                               const int64_t *poff) {
    int H = c->hidden, T = b->T;
    la->x = x;
    linear_forward(la->q, x, w->q_w, w->q_b, T, H, H);
    linear_forward(la->k, x, w->k_w, w->k_b, T, H, H);
    linear_forward(la->v, x, w->v_w, w->v_b, T, H, H);
    att_ctx a = {.c = c, .w = w, .b = b, .la = la, .off = poff};
    parallel_for(b->B, 1, full_attention_fwd, &a);
    post_attention_forward(c, w, la, x, T);
}

static void full_attention_bwd(void *p, int64_t s0, int64_t s1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh;
    float scale = 1.0f / sqrtf((float)dh);
    float *dP = a->scratch + (size_t)tid * a->scratch_per_thread;
    for (int64_t s = s0; s < s1; s++) {
        int o = a->b->off[s], n = a->b->off[s + 1] - o;
        for (int hh = 0; hh < nh; hh++) {
            const float *P = la->P + a->off[s] + (int64_t)hh * n * n;
            size_t co = (size_t)o * H + hh * dh;
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, dh, 1.0f, a->dctx + co, H,
                        la->v + co, H, 0.0f, dP, n);
            for (int i = 0; i < n; i++) {
                const float *pr = P + (size_t)i * n;
                float *dr = dP + (size_t)i * n;
                float sum = 0;
                for (int j = 0; j < n; j++) sum += pr[j] * dr[j];
                for (int j = 0; j < n; j++) dr[j] = pr[j] * (dr[j] - sum) * scale;
            }
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, dh, n, 1.0f, dP, n,
                        la->k + co, H, 0.0f, a->dq + co, H);
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, dh, n, 1.0f, dP, n,
                        la->q + co, H, 0.0f, a->dk + co, H);
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, dh, n, 1.0f, P, n,
                        a->dctx + co, H, 0.0f, a->dv + co, H);
        }
    }
}

/* Backward of a full layer from dout [T,H]; dx [T,H] overwritten (may be NULL when the
 * input gradient is not needed). scratch: 5·T·H + max(T·(2H + F), threads·max n²) floats. */
static void layer_backward_full(const bert_config *c, const bert_layer_w *w,
                                const bert_layer_w *g, const bert_batch *b,
                                const layer_acts *la, const int64_t *poff, const float *dout,
                                float *dx, float *scratch, int maxn) {
    int H = c->hidden, T = b->T;
    float *dctx = scratch, *dres = dctx + (size_t)T * H, *dq = dres + (size_t)T * H,
          *dk = dq + (size_t)T * H, *dv = dk + (size_t)T * H, *rest = dv + (size_t)T * H;
    post_attention_backward(c, w, g, la, dout, T, dctx, dres, rest);
    att_ctx a = {.c = c, .w = w, .g = g, .b = b, .la = la, .off = poff, .dctx = dctx, .dq = dq,
                 .dk = dk, .dv = dv, .scratch = rest,
                 .scratch_per_thread = (size_t)maxn * maxn};
    parallel_for(b->B, 1, full_attention_bwd, &a);
    if (dx) memcpy(dx, dres, (size_t)T * H * sizeof(float));
    linear_backward(dx, 1, g->q_w, g->q_b, dq, la->x, w->q_w, T, H, H);
    linear_backward(dx, 1, g->k_w, g->k_b, dk, la->x, w->k_w, T, H, H);
    linear_backward(dx, 1, g->v_w, g->v_b, dv, la->x, w->v_w, T, H, H);
}

/* Top layer at the [MASK] rows only. Keys and values are linear in the layer input x, so
 * they are never formed for the T rows: per sequence b and head h,
 *   score_j = q_bh·(Wk_h x_j + bk_h)/√dh = (Wk_hᵀ q_bh)·x_j/√dh + const  (const cancels in
 *   the softmax), and ctx_bh = Σ_j P_j (Wv_h x_j + bv_h) = Wv_h (Σ_j P_j x_j) + bv_h.
 * So the cost is O(B·H²) for the projections plus O(nh·T·H) for the attention, instead of
 * O(T·H²). Stored: xm (x at [MASK]), q, qk = Wk_hᵀ q_bh [B, nh, H], P [nh, n] per sequence,
 * xbar = Σ_j P_j x_j [B, nh, H], then the post-attention activations on B rows. */
static void top_heads_fwd(void *p, int64_t h0, int64_t h1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh, B = a->b->B;
    (void)tid;
    for (int64_t hh = h0; hh < h1; hh++) /* qk[:, h, :] = q[:, h-slice] · Wk[h-rows, :] */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, H, dh, 1.0f, la->q + hh * dh, H,
                    a->w->k_w + (size_t)hh * dh * H, H, 0.0f, la->qk + (size_t)hh * H, nh * H);
}

static void top_attention_fwd(void *p, int64_t s0, int64_t s1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh;
    float scale = 1.0f / sqrtf((float)dh);
    size_t HB = (size_t)nh * H;
    (void)tid;
    for (int64_t s = s0; s < s1; s++) {
        int o = a->b->off[s], n = a->b->off[s + 1] - o;
        float *P = la->P + a->off[s];
        const float *xs = la->x + (size_t)o * H;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, nh, n, H, scale,
                    la->qk + (size_t)s * HB, H, xs, H, 0.0f, P, n);
        for (int hh = 0; hh < nh; hh++) softmax_inplace(P + (size_t)hh * n, n);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nh, H, n, 1.0f, P, n, xs, H, 0.0f,
                    la->xbar + (size_t)s * HB, H);
    }
}

static void top_heads_ctx(void *p, int64_t h0, int64_t h1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh, B = a->b->B;
    (void)tid;
    for (int64_t hh = h0; hh < h1; hh++) /* ctx[:, h-slice] += xbar[:, h, :] · Wv[h-rows, :]ᵀ */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, B, dh, H, 1.0f,
                    la->xbar + (size_t)hh * H, nh * H, a->w->v_w + (size_t)hh * dh * H, H, 1.0f,
                    la->ctx + hh * dh, H);
}

static void layer_forward_top(const bert_config *c, const bert_layer_w *w, const bert_batch *b,
                              const float *x, layer_acts *la, const int64_t *toff) {
    int H = c->hidden, B = b->B;
    la->x = x;
    for (int s = 0; s < B; s++)
        memcpy(la->xm + (size_t)s * H, x + (size_t)(b->off[s] + b->mask_pos[s]) * H,
               (size_t)H * sizeof(float));
    linear_forward(la->q, la->xm, w->q_w, w->q_b, B, H, H);
    att_ctx a = {.c = c, .w = w, .b = b, .la = la, .off = toff};
    parallel_for(c->heads, 1, top_heads_fwd, &a);
    parallel_for(B, 1, top_attention_fwd, &a);
    for (int s = 0; s < B; s++) memcpy(la->ctx + (size_t)s * H, w->v_b, (size_t)H * sizeof(float));
    parallel_for(c->heads, 1, top_heads_ctx, &a);
    post_attention_forward(c, w, la, la->xm, B);
}

static void top_heads_bwd_v(void *p, int64_t h0, int64_t h1, int tid) {
    const att_ctx *a = p;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh, B = a->b->B;
    (void)tid;
    for (int64_t hh = h0; hh < h1; hh++) {
        /* dWv[h-rows] += dctx[:, h]ᵀ · xbar[:, h, :];  dxbar[:, h, :] = dctx[:, h] · Wv[h-rows] */
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, dh, H, B, 1.0f, a->dctx + hh * dh, H,
                    a->la->xbar + (size_t)hh * H, nh * H, 1.0f, a->g->v_w + (size_t)hh * dh * H, H);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, H, dh, 1.0f, a->dctx + hh * dh, H,
                    a->w->v_w + (size_t)hh * dh * H, H, 0.0f, a->dxbar + (size_t)hh * H, nh * H);
    }
}

static void top_attention_bwd(void *p, int64_t s0, int64_t s1, int tid) {
    const att_ctx *a = p;
    const layer_acts *la = a->la;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh;
    float scale = 1.0f / sqrtf((float)dh);
    size_t HB = (size_t)nh * H;
    float *dP = a->scratch + (size_t)tid * a->scratch_per_thread;
    for (int64_t s = s0; s < s1; s++) {
        int o = a->b->off[s], n = a->b->off[s + 1] - o;
        const float *P = la->P + a->off[s], *xs = la->x + (size_t)o * H;
        const float *dxb = a->dxbar + (size_t)s * HB;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, nh, n, H, 1.0f, dxb, H, xs, H, 0.0f,
                    dP, n);
        for (int hh = 0; hh < nh; hh++) {
            const float *pr = P + (size_t)hh * n;
            float *dr = dP + (size_t)hh * n, sum = 0;
            for (int j = 0; j < n; j++) sum += pr[j] * dr[j];
            for (int j = 0; j < n; j++) dr[j] = pr[j] * (dr[j] - sum) * scale;
        }
        /* dP now holds d(qk·x_j) */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nh, H, n, 1.0f, dP, n, xs, H, 0.0f,
                    a->dqk + (size_t)s * HB, H);
        if (a->dx) {
            float *dxs = a->dx + (size_t)o * H;
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, H, nh, 1.0f, P, n, dxb, H, 0.0f,
                        dxs, H);
            cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n, H, nh, 1.0f, dP, n,
                        la->qk + (size_t)s * HB, H, 1.0f, dxs, H);
        }
    }
}

static void top_heads_bwd_k(void *p, int64_t h0, int64_t h1, int tid) {
    const att_ctx *a = p;
    int H = a->c->hidden, nh = a->c->heads, dh = H / nh, B = a->b->B;
    (void)tid;
    for (int64_t hh = h0; hh < h1; hh++) {
        /* dq[:, h] = dqk[:, h, :] · Wk[h-rows]ᵀ;  dWk[h-rows] += q[:, h]ᵀ · dqk[:, h, :] */
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, B, dh, H, 1.0f, a->dqk + (size_t)hh * H,
                    nh * H, a->w->k_w + (size_t)hh * dh * H, H, 0.0f, a->dq + hh * dh, H);
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, dh, H, B, 1.0f, a->la->q + hh * dh, H,
                    a->dqk + (size_t)hh * H, nh * H, 1.0f, a->g->k_w + (size_t)hh * dh * H, H);
    }
}

/* Backward of the top layer from dout [B,H]; dx [T,H] overwritten unless NULL. The key
 * bias gets no gradient (it cancels in the softmax: its true gradient is exactly 0).
 * scratch: 3·B·H + 2·B·nh·H + max(B·(2H + F), threads·nh·max n) floats. */
static void layer_backward_top(const bert_config *c, const bert_layer_w *w,
                               const bert_layer_w *g, const bert_batch *b, const layer_acts *la,
                               const int64_t *toff, const float *dout, float *dx,
                               float *scratch, int maxn) {
    int H = c->hidden, nh = c->heads, B = b->B, T = b->T;
    size_t HB = (size_t)nh * H;
    float *dctx = scratch, *dres = dctx + (size_t)B * H, *dxbar = dres + (size_t)B * H,
          *dqk = dxbar + (size_t)B * HB, *dq = dqk + (size_t)B * HB, *rest = dq + (size_t)B * H;
    post_attention_backward(c, w, g, la, dout, B, dctx, dres, rest);
    for (int s = 0; s < B; s++)
        for (int j = 0; j < H; j++) g->v_b[j] += dctx[(size_t)s * H + j];
    att_ctx a = {.c = c, .w = w, .g = g, .b = b, .la = la, .off = toff, .dctx = dctx,
                 .dq = dq, .dxbar = dxbar, .dqk = dqk, .dx = dx, .scratch = rest,
                 .scratch_per_thread = (size_t)nh * maxn};
    parallel_for(nh, 1, top_heads_bwd_v, &a);
    parallel_for(B, 1, top_attention_bwd, &a);   /* writes every row of dx */
    parallel_for(nh, 1, top_heads_bwd_k, &a);
    /* dres becomes d xm: residual + query path */
    linear_backward(dres, 1, g->q_w, g->q_b, dq, la->xm, w->q_w, B, H, H);
    if (dx)
        for (int s = 0; s < B; s++) {
            float *r = dx + (size_t)(b->off[s] + b->mask_pos[s]) * H;
            const float *d = dres + (size_t)s * H;
            for (int j = 0; j < H; j++) r[j] += d[j];
        }
    (void)T;
}

/* ---------------------------------------------------------------- forward/backward API */

double bert_sequence_cost(int len, int hidden) { return len * (1.0 + len / (6.0 * hidden)); }

int bert_prefix_layers(const bert_model *m) {
    return m->frozen < m->cfg.layers - 1 ? m->frozen : m->cfg.layers - 1;
}

static void work_free(struct bert_work *w) {
    if (!w) return;
    free(w->mem);
    free(w->off);
    bert_acts_free(w->acts);
    free(w);
}

static struct bert_work *work_of(const bert_model *m) {
    bert_model *mm = (bert_model *)m; /* the scratch is not part of the model's value */
    if (!mm->work) mm->work = xcalloc(1, sizeof(struct bert_work));
    return mm->work;
}

/* Forward-only scratch for full layers over T rows; sets *poff to the attention offsets. */
static void scratch_layer(const bert_model *m, const bert_batch *b, layer_acts *la,
                          int64_t **poff) {
    struct bert_work *w = work_of(m);
    if (2 * (b->B + 1) > w->cap_off) {
        w->cap_off = 4 * (b->B + 1);
        w->off = xrealloc(w->off, (size_t)w->cap_off * sizeof(int64_t));
    }
    *poff = w->off;
    attn_offsets(b, m->cfg.heads, w->off, w->off + b->B + 1);
    carver cv = {NULL, 0};
    carve_layer(la, &cv, b->T, b->T, m->cfg.hidden, m->cfg.ffn, m->cfg.heads, w->off[b->B], 0);
    cv = (carver){grow(&w->mem, &w->cap, cv.off + 1), 0};
    carve_layer(la, &cv, b->T, b->T, m->cfg.hidden, m->cfg.ffn, m->cfg.heads, w->off[b->B], 0);
}

void bert_forward_prefix(const bert_model *m, const bert_batch *b, int nl, float *out) {
    int H = m->cfg.hidden;
    int64_t *poff;
    layer_acts la;
    scratch_layer(m, b, &la, &poff);
    /* la.ln1_in serves as the embedding sum (it is free before layer 0 runs) */
    embed_forward(m, b, la.ln1_in, NULL, NULL, out);
    for (int l = 0; l < nl; l++) /* layer l > 0 reads la.out and overwrites it at its end */
        layer_forward_full(&m->cfg, &m->w.layer[l], b, l ? la.out : out, &la, poff);
    if (nl) memcpy(out, la.out, (size_t)b->T * H * sizeof(float));
}

void bert_forward_all(const bert_model *m, const bert_batch *b, float **outs) {
    size_t sz = (size_t)b->T * m->cfg.hidden;
    float *cur = xmalloc(sz * sizeof(float));
    for (int l = 0; l <= m->cfg.layers; l++) {
        bert_forward_prefix(m, b, l, cur);   /* quadratic in layers; for tests only */
        if (outs[l]) memcpy(outs[l], cur, sz * sizeof(float));
    }
    free(cur);
}

/* The top layer over x (the output of layer N-2) at the [MASK] rows, into hidden_mask. */
static void top_forward(const bert_model *m, const bert_batch *b, bert_acts *a, const float *x, float *hidden_mask) {
    layer_forward_top(&m->cfg, &m->w.layer[m->cfg.layers - 1], b, x, &a->top, a->toff);
    memcpy(hidden_mask, a->top.out, (size_t)b->B * m->cfg.hidden * sizeof(float));
}

/* Layers nl .. N-2 over x0 (in place via the scratch layer), then the top layer. */
static void infer_rest(const bert_model *m, const bert_batch *b, bert_acts *a, int nl,
                       float *hidden_mask) {
    int N = m->cfg.layers;
    const float *cur = a->x0;
    if (nl < N - 1) {
        int64_t *poff;
        layer_acts la;
        scratch_layer(m, b, &la, &poff);
        for (int l = nl; l < N - 1; l++) {
            layer_forward_full(&m->cfg, &m->w.layer[l], b, cur, &la, poff);
            cur = la.out;
        }
    }
    top_forward(m, b, a, cur, hidden_mask);
}

static bert_acts *infer_acts(const bert_model *m, const bert_batch *b) {
    struct bert_work *w = work_of(m);
    if (!w->acts) w->acts = bert_acts_new();
    acts_prepare(w->acts, m, b, 0, 0);
    return w->acts;
}

void bert_forward_infer(const bert_model *m, const bert_batch *b, float *hidden_mask) {
    bert_acts *a = infer_acts(m, b);
    int N = m->cfg.layers;
    bert_forward_prefix(m, b, N - 1, a->x0);
    infer_rest(m, b, a, N - 1, hidden_mask);
}

void bert_forward_infer_from(const bert_model *m, const bert_batch *b, const float *prefix,
                             int nl, float *hidden_mask) {
    if (nl < 0 || nl > m->cfg.layers - 1) die("bert_forward_infer_from: prefix of %d layers", nl);
    bert_acts *a = infer_acts(m, b);
    memcpy(a->x0, prefix, (size_t)b->T * m->cfg.hidden * sizeof(float));
    infer_rest(m, b, a, nl, hidden_mask);
}

void bert_forward_train(bert_model *m, bert_acts *a, const bert_batch *b,
                        const float *prefix, float *hidden_mask) {
    const bert_config *c = &m->cfg;
    int N = c->layers, P = bert_prefix_layers(m), H = c->hidden;
    int nfull = N - 1 - P, with_emb = m->frozen == 0;
    acts_prepare(a, m, b, nfull, with_emb);
    if (with_emb) embed_forward(m, b, a->emb_in, a->emb_mean, a->emb_rstd, a->x0);
    else if (prefix) memcpy(a->x0, prefix, (size_t)b->T * H * sizeof(float));
    else bert_forward_prefix(m, b, P, a->x0);
    const float *cur = a->x0;
    for (int l = 0; l < nfull; l++) {
        layer_forward_full(c, &m->w.layer[P + l], b, cur, &a->L[l], a->poff);
        cur = a->L[l].out;
    }
    top_forward(m, b, a, cur, hidden_mask);
}

void bert_backward(bert_model *m, bert_acts *a, const bert_batch *b, const float *d_hidden) {
    const bert_config *c = &m->cfg;
    int N = c->layers, P = bert_prefix_layers(m), H = c->hidden, F = c->ffn, T = b->T, B = b->B;
    if (m->frozen >= N) return;
    int maxn = 0;
    for (int s = 0; s < B; s++)
        if (b->off[s + 1] - b->off[s] > maxn) maxn = b->off[s + 1] - b->off[s];
    size_t nt = (size_t)parallel_threads();
    size_t pt = (size_t)B * (2 * H + F), st = nt * c->heads * maxn;
    size_t s_top = 3 * (size_t)B * H + 2 * (size_t)B * c->heads * H + (pt > st ? pt : st);
    size_t pa = (size_t)T * (2 * H + F), sq = nt * maxn * maxn;
    size_t s_full = 5 * (size_t)T * H + (pa > sq ? pa : sq);
    size_t need = s_top > s_full ? s_top : s_full;
    if (need < (size_t)T * H) need = (size_t)T * H; /* embed_backward */
    float *scratch = grow(&a->scratch, &a->scratch_cap, need + 2 * (size_t)T * H);
    float *dx = scratch + need, *dx2 = dx + (size_t)T * H;
    int first = m->frozen;  /* lowest layer whose input gradient is needed: > first, or emb */
    int need_dx = N - 1 > first || m->frozen == 0;
    layer_backward_top(c, &m->w.layer[N - 1], &m->g.layer[N - 1], b, &a->top, a->toff, d_hidden,
                       need_dx ? dx : NULL, scratch, maxn);
    for (int l = a->nfull - 1; l >= 0; l--) {
        int layer = P + l;
        int nd = layer > first || m->frozen == 0;
        layer_backward_full(c, &m->w.layer[layer], &m->g.layer[layer], b, &a->L[l], a->poff, dx,
                            nd ? dx2 : NULL, scratch, maxn);
        float *t = dx;
        dx = dx2;
        dx2 = t;
    }
    if (m->frozen == 0) embed_backward(m, b, a->emb_in, a->emb_mean, a->emb_rstd, dx, scratch);
    for (int i = 0; i < m->params.n; i++)
        if (m->params.p[i].grad) m->params.p[i].has_grad = 1;
}
