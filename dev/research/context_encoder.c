/* context_encoder: mean of hashed context features of a masked sample (see .h). */
#include "context_encoder.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/checkpoint.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "format/safetensors.h"

ctx_config ctx_config_defaults(void) {
    ctx_config c;
    memset(&c, 0, sizeof c);
    c.dim = 128;
    c.window = 0;
    c.sides = 1;
    c.pos_window = 2;
    c.bigrams = 1;
    c.buckets = 65536;
    c.init_std = 0.1f;
    return c;
}

void ctx_config_check(const ctx_config *c) {
    if (c->vocab < 1) die_usage("context encoder: vocab must be >= 1");
    if (c->dim < 1) die_usage("context encoder: dim must be >= 1");
    if (c->window < 0) die_usage("context encoder: window must be >= 0");
    if (c->sides != 0 && c->sides != 1) die_usage("context encoder: sides must be 0 or 1");
    if (c->pos_window < 0) die_usage("context encoder: pos_window must be >= 0");
    if (c->bigrams != 0 && c->bigrams != 1) die_usage("context encoder: bigrams must be 0 or 1");
    if (c->buckets < 0 || ((c->pos_window || c->bigrams) && c->buckets < 1))
        die_usage("context encoder: buckets must be >= 1 with positional or bigram features");
    if (c->nskip < 0 || c->nskip > CTX_MAX_SKIP) die_usage("context encoder: too many skip ids");
    if (!(c->init_std >= 0)) die_usage("context encoder: init_std must be >= 0");
    if ((int64_t)c->vocab * (1 + c->sides) + c->buckets > INT32_MAX)
        die_usage("context encoder: too many rows");
}

char *ctx_config_to_json(const ctx_config *c) {
    json_t *skip = json_array();
    for (int i = 0; i < c->nskip; i++) json_array_append_new(skip, json_integer(c->skip[i]));
    json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:f}", "vocab", c->vocab,
                          "dim", c->dim, "window", c->window, "sides", c->sides, "pos_window",
                          c->pos_window, "bigrams", c->bigrams, "buckets", c->buckets, "mask_id",
                          c->mask_id, "skip", skip, "init_std", (double)c->init_std);
    char *s = json_dumps(o, JSON_SORT_KEYS | JSON_INDENT(2));
    json_decref(o);
    if (!s) die("context encoder: cannot serialise the config");
    return s;
}

void ctx_config_from_json(ctx_config *c, const char *json, const char *file) {
    json_error_t err;
    json_t *o = json_loads(json, 0, &err);
    if (!o) die_input(file, "context_encoder", "invalid JSON at line %d: %s", err.line, err.text);
    json_t *skip = NULL;
    double init_std = 0;
    memset(c, 0, sizeof *c);
    if (json_unpack_ex(o, &err, JSON_STRICT, "{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:F}",
                       "vocab", &c->vocab, "dim", &c->dim, "window", &c->window, "sides", &c->sides,
                       "pos_window", &c->pos_window, "bigrams", &c->bigrams, "buckets", &c->buckets,
                       "mask_id", &c->mask_id, "skip", &skip, "init_std", &init_std) ||
        !json_is_array(skip) || json_array_size(skip) > CTX_MAX_SKIP) {
        json_decref(o);
        die_input(file, "context_encoder", "expected the context encoder config fields: %s",
                  err.text[0] ? err.text : "skip must be an array of <= 8 ids");
    }
    c->nskip = (int)json_array_size(skip);
    for (int i = 0; i < c->nskip; i++) {
        json_t *v = json_array_get(skip, (size_t)i);
        if (!json_is_integer(v)) {
            json_decref(o);
            die_input(file, "context_encoder.skip", "expected integer ids");
        }
        c->skip[i] = (int)json_integer_value(v);
    }
    c->init_std = (float)init_std;
    json_decref(o);
}

void ctx_config_save(const ctx_config *c, int num_entities, const char *path) {
    char *js = ctx_config_to_json(c);
    json_error_t err;
    json_t *block = json_loads(js, 0, &err);
    free(js);
    json_t *o = json_pack("{s:s, s:o, s:{s:i, s:i}}", "model_type", "probexpan-context", "context_encoder", block,
                          "probexpan", "num_entities", num_entities, "mask_token_id", c->mask_id);
    char *tmp = xasprintf("%s.tmp", path);
    if (json_dump_file(o, tmp, JSON_SORT_KEYS | JSON_INDENT(2)) || rename(tmp, path)) die_errno("%s", path);
    json_decref(o);
    free(tmp);
}

static json_t *load_config(const char *dir, char **path_out) {
    char *path = xasprintf("%s/config.json", dir);
    json_error_t err;
    json_t *o = json_load_file(path, 0, &err);
    if (!o) die_input(path, "config", "cannot read JSON (line %d): %s", err.line, err.text);
    *path_out = path;
    return o;
}

int ctx_is_model_dir(const char *dir) {
    char *path;
    json_t *o = load_config(dir, &path);
    int yes = json_is_object(json_object_get(o, "context_encoder"));
    json_decref(o);
    free(path);
    return yes;
}

void ctx_load_dir(context_encoder *m, const char *dir, int *num_entities) {
    char *path;
    json_t *o = load_config(dir, &path);
    json_t *block = json_object_get(o, "context_encoder");
    if (!json_is_object(block)) die_input(path, "context_encoder", "missing: not a context-encoder model");
    char *js = json_dumps(block, 0);
    ctx_config c;
    ctx_config_from_json(&c, js, path);
    free(js);
    json_t *ne = json_object_get(json_object_get(o, "probexpan"), "num_entities");
    *num_entities = json_is_integer(ne) ? (int)json_integer_value(ne) : 0;
    json_decref(o);
    free(path);
    ctx_create(m, &c);
    char *st_path = xasprintf("%s/model.safetensors", dir);
    safetensors st;
    safetensors_open(&st, st_path);
    checkpoint_load_list(&m->params, &st, 1);
    safetensors_close(&st);
    free(st_path);
}

void ctx_create(context_encoder *m, const ctx_config *c) {
    ctx_config_check(c);
    memset(m, 0, sizeof *m);
    m->cfg = *c;
    m->rows = (int64_t)c->vocab * (1 + c->sides) + c->buckets;
    size_t n = (size_t)m->rows * (size_t)c->dim;
    m->emb = xcalloc(n, sizeof(float));
    m->gemb = xcalloc(n, sizeof(float));
    m->is_skip = xcalloc((size_t)c->vocab, 1);
    for (int i = 0; i < c->nskip; i++)
        if (c->skip[i] >= 0 && c->skip[i] < c->vocab) m->is_skip[c->skip[i]] = 1;
    param_list_add(&m->params, "ctx.embeddings", m->emb, m->gemb, 2, m->rows, c->dim);
}

void ctx_init_random(context_encoder *m, rng_t *rng) {
    size_t n = (size_t)m->rows * (size_t)m->cfg.dim;
    for (size_t i = 0; i < n; i++) m->emb[i] = (float)(rng_normal(rng) * m->cfg.init_std);
}

void ctx_free(context_encoder *m) {
    free(m->emb);
    free(m->gemb);
    free(m->is_skip);
    param_list_free(&m->params);
    memset(m, 0, sizeof *m);
}

void ctx_batch_clear(ctx_batch *b) {
    b->B = 0;
    b->n = 0;
    if (!b->off) {
        b->cap_b = 64;
        b->off = xmalloc(sizeof(int64_t) * (size_t)(b->cap_b + 1));
    }
    b->off[0] = 0;
}

void ctx_batch_free(ctx_batch *b) {
    free(b->off);
    free(b->feat);
    memset(b, 0, sizeof *b);
}

static void push(ctx_batch *b, int32_t f) {
    if (b->n == b->cap_n) {
        b->cap_n = b->cap_n ? 2 * b->cap_n : 1024;
        b->feat = xrealloc(b->feat, sizeof(int32_t) * (size_t)b->cap_n);
    }
    b->feat[b->n++] = f;
}

/* Row of a hashed feature: kind 1 = positional (a = id, c = distance), 2 = bigram. */
static int32_t bucket_row(const context_encoder *m, int32_t kind, int32_t a, int32_t c) {
    int32_t key[3] = {kind, a, c};
    uint64_t h = hash_bytes(key, sizeof key);
    return (int32_t)((int64_t)m->cfg.vocab * (1 + m->cfg.sides) + (int64_t)(h % (uint64_t)m->cfg.buckets));
}

static int usable(const context_encoder *m, int32_t t) {
    return t >= 0 && t < m->cfg.vocab && !m->is_skip[t];
}

void ctx_batch_add(const context_encoder *m, ctx_batch *b, const int32_t *ids, int len,
                   int mask_pos, double drop, rng_t *rng) {
    const ctx_config *c = &m->cfg;
    if (b->B == b->cap_b) {
        b->cap_b *= 2;
        b->off = xrealloc(b->off, sizeof(int64_t) * (size_t)(b->cap_b + 1));
    }
    int64_t start = b->n;
    int lo = 0, hi = len - 1;
    if (c->window > 0) {
        if (mask_pos - c->window > lo) lo = mask_pos - c->window;
        if (mask_pos + c->window < hi) hi = mask_pos + c->window;
    }
    for (int j = lo; j <= hi; j++) {
        int d = j - mask_pos;
        int32_t t = ids[j];
        if (d == 0 || !usable(m, t)) continue;
        push(b, (c->sides && d > 0) ? c->vocab + t : t);
        if (c->pos_window && abs(d) <= c->pos_window) push(b, bucket_row(m, 1, t, d));
    }
    if (c->bigrams)
        for (int j = lo; j < hi; j++) {
            int32_t x = j == mask_pos ? c->mask_id : ids[j];
            int32_t y = j + 1 == mask_pos ? c->mask_id : ids[j + 1];
            if ((j == mask_pos || usable(m, x)) && (j + 1 == mask_pos || usable(m, y)))
                push(b, bucket_row(m, 2, x, y));
        }
    if (drop > 0 && b->n - start > 1) {
        int64_t kept = start;
        for (int64_t k = start; k < b->n; k++)
            if (rng_uniform(rng) >= drop) b->feat[kept++] = b->feat[k];
        if (kept == start) { /* nothing was written: every feature is still in place */
            b->feat[start] = b->feat[start + (int64_t)rng_below(rng, (uint64_t)(b->n - start))];
            kept = start + 1;
        }
        b->n = kept;
    }
    b->off[++b->B] = b->n;
}

void ctx_forward(const context_encoder *m, const ctx_batch *b, float *hid) {
    int H = m->cfg.dim;
    for (int s = 0; s < b->B; s++) {
        float *h = hid + (size_t)s * H;
        memset(h, 0, sizeof(float) * (size_t)H);
        int64_t n = b->off[s + 1] - b->off[s];
        if (!n) continue;
        for (int64_t k = b->off[s]; k < b->off[s + 1]; k++) {
            const float *e = m->emb + (size_t)b->feat[k] * H;
            for (int i = 0; i < H; i++) h[i] += e[i];
        }
        float inv = 1.0f / (float)n;
        for (int i = 0; i < H; i++) h[i] *= inv;
    }
}

void ctx_backward(context_encoder *m, const ctx_batch *b, const float *dhid) {
    int H = m->cfg.dim;
    for (int s = 0; s < b->B; s++) {
        int64_t n = b->off[s + 1] - b->off[s];
        if (!n) continue;
        float inv = 1.0f / (float)n;
        const float *dh = dhid + (size_t)s * H;
        for (int64_t k = b->off[s]; k < b->off[s + 1]; k++) {
            float *g = m->gemb + (size_t)b->feat[k] * H;
            for (int i = 0; i < H; i++) g[i] += dh[i] * inv;
        }
    }
    m->params.p[0].has_grad = 1;
}
