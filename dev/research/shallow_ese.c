/* shallow_ese: research driver for shallow from-scratch entity models (not shipped). Reads an ESE dataset
 * straight through common/dataset/dataset.h (word-level ids: lower-cased words, mentions
 * replaced by [MASK]), then either
 *   --mode ctx : trains the shallow context encoder (dev/research/context_encoder.h) with
 *                an entity head on the entity-prediction objective (label
 *                smoothing), computes r(e) (optionally out-of-fold), and evaluates
 *                ProbExpan's window search + re-ranking (common/method/windowsearch.h,
 *                rerank.h) and the plain seed-mean ranking with MAP@10/20/50;
 *   --mode sgns: trains skip-gram with negative sampling on sentences whose
 *                mentions are single entity tokens and ranks entities by cosine to
 *                the seeds' centroid (a fastText-like baseline);
 *                --save-vectors keeps the vectors for --init-sgns of ctx mode.
 * Prints one result line "RESULT <tag> map10 map20 map50 ... seconds". */
#include <cblas.h>
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "nn/adamw.h"
#include "method/anchor.h"
#include "method/apk.h"
#include "base/cli.h"
#include "context_encoder.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "nn/entity_head.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "nn/mep_loss.h"
#include "method/rerank.h"
#include "base/rng.h"
#include "nn/tensor_ops.h"
#include "method/windowsearch.h"

enum { PAD, UNK, CLS, SEP, MASK, NSPECIAL };

static double cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}

/* ------------------------------------------------------------------ corpus */

typedef struct {
    entity_table ent;
    intmap idx_of_eid;
    strmap words;
    int64_t *wcount;
    int64_t nwords, cap_w;
    int64_t nsent, cap_s, ntok, cap_t;
    int64_t *soff;
    int32_t *tok;           /* raw word ids, sentence s = tok[soff[s] .. soff[s+1]) */
    int64_t nment, cap_m;
    int64_t *m_sent;
    int32_t *m_start, *m_end, *m_ent;
} corpus;

static void on_sentence(void *vc, const char *member, const char *where, int64_t lineno, char *line,
                        size_t len) {
    (void)member;
    corpus *c = vc;
    if (!len) return;
    json_error_t err;
    json_t *o = json_loadb(line, len, 0, &err);
    json_t *toks = o ? json_object_get(o, "tokens") : NULL;
    json_t *ms = o ? json_object_get(o, "entityMentions") : NULL;
    if (!json_is_array(toks) || !json_is_array(ms)) die_input(where, "line", "%lld: bad sentence", (long long)lineno);
    size_t n = json_array_size(toks);
    if (c->nsent + 2 > c->cap_s) {
        c->cap_s = c->cap_s ? 2 * c->cap_s : 1 << 16;
        c->soff = xrealloc(c->soff, sizeof(int64_t) * (size_t)c->cap_s);
    }
    if (c->ntok + (int64_t)n > c->cap_t) {
        while (c->ntok + (int64_t)n > c->cap_t) c->cap_t = c->cap_t ? 2 * c->cap_t : 1 << 20;
        c->tok = xrealloc(c->tok, sizeof(int32_t) * (size_t)c->cap_t);
    }
    char buf[1024];
    for (size_t i = 0; i < n; i++) {
        const char *w = json_string_value(json_array_get(toks, i));
        if (!w) die_input(where, "line", "%lld: token not a string", (long long)lineno);
        size_t l = strlen(w);
        if (l >= sizeof buf) l = sizeof buf - 1;
        for (size_t k = 0; k < l; k++) buf[k] = (char)tolower((unsigned char)w[k]);
        int64_t id = strmap_put(&c->words, buf, l, c->nwords);
        if (id < 0) {
            id = c->nwords++;
            if (c->nwords > c->cap_w) {
                c->cap_w = c->cap_w ? 2 * c->cap_w : 1 << 16;
                c->wcount = xrealloc(c->wcount, sizeof(int64_t) * (size_t)c->cap_w);
            }
            c->wcount[id] = 0;
        }
        c->wcount[id]++;
        c->tok[c->ntok + (int64_t)i] = (int32_t)id;
    }
    for (size_t i = 0; i < json_array_size(ms); i++) {
        json_t *m = json_array_get(ms, i);
        int64_t st = json_integer_value(json_object_get(m, "start"));
        int64_t en = json_integer_value(json_object_get(m, "end"));
        int64_t eid = json_integer_value(json_object_get(m, "entityId"));
        int64_t idx = intmap_get(&c->idx_of_eid, eid);
        if (idx < 0 || st < 0 || en < st || en >= (int64_t)n) continue;
        if (c->nment == c->cap_m) {
            c->cap_m = c->cap_m ? 2 * c->cap_m : 1 << 16;
            c->m_sent = xrealloc(c->m_sent, sizeof(int64_t) * (size_t)c->cap_m);
            c->m_start = xrealloc(c->m_start, sizeof(int32_t) * (size_t)c->cap_m);
            c->m_end = xrealloc(c->m_end, sizeof(int32_t) * (size_t)c->cap_m);
            c->m_ent = xrealloc(c->m_ent, sizeof(int32_t) * (size_t)c->cap_m);
        }
        c->m_sent[c->nment] = c->nsent;
        c->m_start[c->nment] = (int32_t)st;
        c->m_end[c->nment] = (int32_t)en;
        c->m_ent[c->nment] = (int32_t)idx;
        c->nment++;
    }
    c->soff[c->nsent] = c->ntok;
    c->ntok += (int64_t)n;
    c->nsent++;
    c->soff[c->nsent] = c->ntok;
    json_decref(o);
}

static void corpus_load(corpus *c, const char *data) {
    memset(c, 0, sizeof *c);
    dataset_read_entities(data, &c->ent);
    entity_table_row_map(&c->ent, &c->idx_of_eid);
    strmap_init(&c->words);
    dataset_read_lines(data, "sentences.json", on_sentence, c);
}

/* Final word ids: specials, then words with count >= min_count by first appearance;
 * map[raw] = final id (UNK for rare words). Returns the vocabulary size. */
static int32_t *vocab_map(const corpus *c, int min_count, int *vocab) {
    int32_t *map = xmalloc(sizeof(int32_t) * (size_t)(c->nwords + 1));
    int v = NSPECIAL;
    for (int64_t w = 0; w < c->nwords; w++) map[w] = c->wcount[w] >= min_count ? v++ : UNK;
    *vocab = v;
    return map;
}

/* ---------------------------------------------------------------- entities */

typedef struct {
    int64_t E;             /* rows: entities with >= 2 mentions */
    int64_t *row_of_idx;   /* entity-table index -> row or -1 */
    int64_t *idx_of_row;
    int64_t *first, *count; /* row r's mentions are ment[first[r] .. first[r]+count[r]) */
    int64_t *ment;          /* mention ids grouped by row, in corpus order */
} rows_t;

static void rows_build(rows_t *r, const corpus *c) {
    int64_t n = c->ent.n;
    int64_t *cnt = xcalloc((size_t)n, sizeof(int64_t));
    for (int64_t m = 0; m < c->nment; m++) cnt[c->m_ent[m]]++;
    r->row_of_idx = xmalloc(sizeof(int64_t) * (size_t)n);
    r->idx_of_row = xmalloc(sizeof(int64_t) * (size_t)n);
    r->E = 0;
    for (int64_t i = 0; i < n; i++) {
        r->row_of_idx[i] = cnt[i] >= 2 ? r->E : -1;
        if (cnt[i] >= 2) r->idx_of_row[r->E++] = i;
    }
    r->first = xcalloc((size_t)r->E + 1, sizeof(int64_t));
    r->count = xcalloc((size_t)r->E, sizeof(int64_t));
    for (int64_t e = 0; e < r->E; e++) r->first[e + 1] = r->first[e] + cnt[r->idx_of_row[e]];
    r->ment = xmalloc(sizeof(int64_t) * (size_t)(r->first[r->E] + 1));
    for (int64_t m = 0; m < c->nment; m++) {
        int64_t row = r->row_of_idx[c->m_ent[m]];
        if (row >= 0) r->ment[r->first[row] + r->count[row]++] = m;
    }
    free(cnt);
}

/* -------------------------------------------------------------- evaluation */

typedef struct {
    query_set qs;
    gt_set gs;
} bench;

typedef struct {
    double full[3], ws[3], mean[3]; /* MAP@10/20/50: window search + rerank, window search only, seed mean */
    int nq;
} scores;

static const int KS[3] = {10, 20, 50};

static void ap_add(double *acc, const int64_t *eids, int n, const gt_class *g) {
    intmap gt;
    intmap_init(&gt);
    for (int64_t i = 0; i < g->n; i++) intmap_put(&gt, g->members[i], 1);
    for (int k = 0; k < 3; k++) acc[k] += ap_at_k(eids, n, &gt, g->n, KS[k]);
    intmap_free(&gt);
}

static const gt_class *gt_of(const bench *b, const char *cls) {
    for (int i = 0; i < b->gs.n; i++)
        if (!strcmp(b->gs.c[i].class_name, cls)) return &b->gs.c[i];
    die("no gt for class %s", cls);
}

/* Query q's seed rows; returns 0 when a seed has no row. */
static int seed_rows(const corpus *c, const rows_t *r, const dataset_query *q, int64_t *out) {
    for (int i = 0; i < q->nseeds; i++) {
        int64_t idx = intmap_get(&c->idx_of_eid, q->seeds[i]);
        if (idx < 0 || r->row_of_idx[idx] < 0) return 0;
        out[i] = r->row_of_idx[idx];
    }
    return 1;
}

typedef struct { double s; int64_t row; } scored;
static int by_s_desc(const void *a, const void *b) {
    const scored *x = a, *y = b;
    if (x->s != y->s) return x->s > y->s ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Top `size` rows by score[] excluding the seeds, as eids. */
static int top_eids(const corpus *c, const rows_t *r, const double *score, const int64_t *seeds, int ns,
                    int size, int64_t *out) {
    scored *v = xmalloc(sizeof(scored) * (size_t)r->E);
    int64_t n = 0;
    for (int64_t e = 0; e < r->E; e++) {
        int is_seed = 0;
        for (int i = 0; i < ns; i++) is_seed |= seeds[i] == e;
        if (!is_seed) v[n++] = (scored){score[e], e};
    }
    qsort(v, (size_t)n, sizeof *v, by_s_desc);
    int k = (int)(n < size ? n : size);
    for (int i = 0; i < k; i++) out[i] = c->ent.eid[r->idx_of_row[v[i].row]];
    free(v);
    return k;
}

/* ProbExpan expansion (size 100, paper defaults) + geo rerank, and the seed-mean ranking. */
static void evaluate_dists(const corpus *c, const rows_t *r, const bench *b, const float *prob, scores *sc) {
    memset(sc, 0, sizeof *sc);
    row_matrix pm = {.rows = r->E, .cols = r->E, .stride = (size_t)r->E, .data = prob};
    anchor_scorer as;
    row_source src = row_source_dense(&pm);
    anchor_init(&as, &src);
    windowsearch_params p = {100, 1, 2.5, 20, 0, CAND_MEAN, {ANCHOR_GEOMETRIC, 1000, 40}};
    int64_t *eids = xmalloc(sizeof(int64_t) * 200);
    double *score = xmalloc(sizeof(double) * (size_t)r->E);
    rerank_item *items = xmalloc(sizeof(rerank_item) * 200);
    for (int qi = 0; qi < b->qs.n; qi++) {
        const dataset_query *q = &b->qs.q[qi];
        int64_t seeds[16];
        if (q->nseeds > 16 || !seed_rows(c, r, q, seeds)) continue;
        const gt_class *g = gt_of(b, q->class_name);
        windowsearch_query x = {q->nseeds, seeds, 0, NULL, 0, NULL, NULL};
        windowsearch_group(&as, &src, &x, 1, &p, 0);
        int m = x.n - x.nseeds;
        for (int i = 0; i < m; i++) eids[i] = c->ent.eid[r->idx_of_row[x.rows[x.nseeds + i]]];
        ap_add(sc->ws, eids, m, g);
        rerank_set(&as, x.rows, x.n, x.nseeds, &p.weights, RERANK_GEO, 9, items);
        for (int i = 0; i < m; i++) eids[i] = c->ent.eid[r->idx_of_row[x.rows[x.nseeds + items[i].order - 1]]];
        ap_add(sc->full, eids, m, g);
        windowsearch_query_free(&x);
        for (int64_t e = 0; e < r->E; e++) {
            double s = 0;
            for (int i = 0; i < q->nseeds; i++) s += prob[(size_t)seeds[i] * r->E + e];
            score[e] = s;
        }
        int k = top_eids(c, r, score, seeds, q->nseeds, 100, eids);
        ap_add(sc->mean, eids, k, g);
        sc->nq++;
    }
    for (int k = 0; k < 3; k++) {
        sc->full[k] /= sc->nq;
        sc->ws[k] /= sc->nq;
        sc->mean[k] /= sc->nq;
    }
    free(eids);
    free(score);
    free(items);
    anchor_free(&as);
}

/* PMI-style prior correction: r'(e)[v] = r(e)[v] / m[v]^beta, renormalised, where
 * m = the mean prediction over all samples (weights w[e] = samples of e). */
static float *debiased(const rows_t *r, const float *prob, const int64_t *w, double beta) {
    int64_t E = r->E;
    double *m = xcalloc((size_t)E, sizeof(double)), tot = 0;
    for (int64_t e = 0; e < E; e++) {
        for (int64_t v = 0; v < E; v++) m[v] += (double)w[e] * prob[(size_t)e * E + v];
        tot += (double)w[e];
    }
    float *out = xmalloc(sizeof(float) * (size_t)E * E);
    for (int64_t e = 0; e < E; e++) {
        double z = 0;
        float *o = out + (size_t)e * E;
        for (int64_t v = 0; v < E; v++) z += o[v] = (float)(prob[(size_t)e * E + v] / pow(m[v] / tot, beta));
        for (int64_t v = 0; v < E; v++) o[v] = (float)(o[v] / z);
    }
    free(m);
    return out;
}

static void report(const char *tag, const char *what, const scores *sc, const char *extra) {
    printf("RESULT %s %s full %.3f %.3f %.3f | ws %.3f %.3f %.3f | mean %.3f %.3f %.3f | %s\n", tag, what, sc->full[0],
           sc->full[1], sc->full[2], sc->ws[0], sc->ws[1], sc->ws[2], sc->mean[0], sc->mean[1], sc->mean[2], extra);
    fflush(stdout);
}

/* Evaluates prob raw and prior-corrected (beta 0.5 and 1). */
static void evaluate_all(const corpus *c, const rows_t *r, const bench *b, const float *prob, const int64_t *w,
                         const char *tag, const char *extra) {
    scores sc;
    evaluate_dists(c, r, b, prob, &sc);
    report(tag, "raw", &sc, extra);
    const double betas[2] = {0.5, 1.0};
    for (int k = 0; k < 2; k++) {
        float *d = debiased(r, prob, w, betas[k]);
        evaluate_dists(c, r, b, d, &sc);
        report(tag, k ? "debias1" : "debias.5", &sc, extra);
        free(d);
    }
}

/* ------------------------------------------------------------------- heads */

typedef struct {
    int linear;
    entity_head mlp;
    int H, V;
    float *w, *bias, *gw, *gbias; /* linear head [V,H], [V] */
    param_list lin;
    float *dense, *gelu, *scratch;
} head_t;

static void head_create(head_t *h, int linear, int H, int V, int B, rng_t *rng) {
    memset(h, 0, sizeof *h);
    h->linear = linear;
    h->H = H;
    h->V = V;
    if (!linear) {
        entity_head_create(&h->mlp, H, V);
        entity_head_init_random(&h->mlp, rng);
        h->dense = xmalloc(sizeof(float) * (size_t)B * H);
        h->gelu = xmalloc(sizeof(float) * (size_t)B * H);
        h->scratch = xmalloc(sizeof(float) * (size_t)B * (V + H));
    } else {
        h->w = xcalloc((size_t)V * H, sizeof(float));
        h->gw = xcalloc((size_t)V * H, sizeof(float));
        h->bias = xcalloc((size_t)V, sizeof(float));
        h->gbias = xcalloc((size_t)V, sizeof(float));
        float bound = 1.0f / sqrtf((float)H);
        for (size_t i = 0; i < (size_t)V * H; i++) h->w[i] = (float)((2 * rng_uniform(rng) - 1) * bound);
        param_list_add(&h->lin, "head.weight", h->w, h->gw, 2, V, H);
        param_list_add(&h->lin, "head.bias", h->bias, h->gbias, 1, V, 0);
        h->scratch = xmalloc(sizeof(float) * (size_t)B * V);
    }
}

static param_list *head_params(head_t *h) { return h->linear ? &h->lin : &h->mlp.params; }

static void head_forward(head_t *h, const float *hid, int B, float *logp) {
    if (!h->linear) {
        entity_head_forward(&h->mlp, hid, B, h->dense, h->gelu, logp);
        return;
    }
    linear_forward(logp, hid, h->w, h->bias, B, h->H, h->V);
    log_softmax_rows(logp, B, h->V);
}

static void head_backward(head_t *h, const float *hid, int B, const float *logp, const float *dlogp, float *dhid) {
    if (!h->linear) {
        entity_head_backward(&h->mlp, hid, B, h->dense, h->gelu, logp, dlogp, dhid, h->scratch);
        return;
    }
    log_softmax_backward(h->scratch, dlogp, logp, B, h->V);
    linear_backward(dhid, 0, h->gw, h->gbias, h->scratch, hid, h->w, B, h->H, h->V);
    h->lin.p[0].has_grad = h->lin.p[1].has_grad = 1;
}

static void head_free(head_t *h) {
    if (!h->linear) {
        entity_head_free(&h->mlp);
    } else {
        free(h->w);
        free(h->gw);
        free(h->bias);
        free(h->gbias);
        param_list_free(&h->lin);
    }
    free(h->dense);
    free(h->gelu);
    free(h->scratch);
}

/* ---------------------------------------------------------------- ctx mode */

typedef struct {
    int dim, window, sides, pos_window, bigrams, buckets, min_count, linear, epochs, batch, spe, oof, eval_every;
    double rep_cap, lr, eta, drop, wd, init_std;
    const char *init_sgns, *save_dists;
    int seed;
} ctx_opts;

/* Sample of mention m: [CLS] words [MASK] words [SEP] with final ids. */
static int mention_sample(const corpus *c, const int32_t *map, int64_t m, int32_t *out, int *mask_pos) {
    int64_t s = c->m_sent[m], a = c->soff[s], n = c->soff[s + 1] - a;
    int len = 0;
    out[len++] = CLS;
    for (int64_t i = 0; i < n; i++) {
        if (i == c->m_start[m]) {
            *mask_pos = len;
            out[len++] = MASK;
        }
        if (i >= c->m_start[m] && i <= c->m_end[m]) continue;
        out[len++] = map[c->tok[a + i]];
    }
    out[len++] = SEP;
    return len;
}

static int fold_of(const corpus *c, int64_t m) {
    int64_t s = c->m_sent[m];
    return (int)(hash_bytes(&s, sizeof s) & 1);
}

/* Loads SGNS vectors (see sgns mode): word output vectors into both sides' rows,
 * entity input vectors into a linear head. */
static void load_sgns(const char *path, context_encoder *enc, head_t *h, const corpus *c, const rows_t *r,
                      const int32_t *map) {
    FILE *f = fopen(path, "rb");
    if (!f) die_errno("%s", path);
    int64_t hdr[3]; /* nwords (raw), nent, dim */
    if (fread(hdr, sizeof hdr, 1, f) != 1 || hdr[0] != c->nwords || hdr[1] != c->ent.n || hdr[2] != enc->cfg.dim)
        die_input(path, "header", "vectors do not match the corpus / dim");
    int D = (int)hdr[2];
    float *v = xmalloc(sizeof(float) * (size_t)D);
    for (int64_t w = 0; w < hdr[0]; w++) {
        if (fread(v, sizeof(float), (size_t)D, f) != (size_t)D) die_input(path, "words", "short file");
        if (map[w] == UNK) continue;
        for (int s = 0; s <= enc->cfg.sides; s++)
            memcpy(enc->emb + ((size_t)s * enc->cfg.vocab + (size_t)map[w]) * D, v, sizeof(float) * (size_t)D);
    }
    for (int64_t i = 0; i < hdr[1]; i++) {
        if (fread(v, sizeof(float), (size_t)D, f) != (size_t)D) die_input(path, "entities", "short file");
        if (h->linear && r->row_of_idx[i] >= 0) memcpy(h->w + (size_t)r->row_of_idx[i] * D, v, sizeof(float) * (size_t)D);
    }
    free(v);
    fclose(f);
}

static void run_ctx(const corpus *c, const rows_t *r, const bench *b, const ctx_opts *o, const char *tag) {
    double t0 = now_seconds();
    int vocab;
    int32_t *map = vocab_map(c, o->min_count, &vocab);
    int64_t E = r->E, M = r->first[E];
    int V = (int)E;
    /* every sample's ids, by row */
    int64_t *soff = xmalloc(sizeof(int64_t) * (size_t)(M + 1));
    int32_t *mpos = xmalloc(sizeof(int32_t) * (size_t)M);
    int32_t *ids = xmalloc(sizeof(int32_t) * (size_t)(c->ntok + 3 * M));
    int *fold = xmalloc(sizeof(int) * (size_t)M);
    int *label = xmalloc(sizeof(int) * (size_t)M);
    soff[0] = 0;
    for (int64_t e = 0; e < E; e++)
        for (int64_t k = 0; k < r->count[e]; k++) {
            int64_t j = r->first[e] + k, m = r->ment[j];
            int mp = 0;
            int len = mention_sample(c, map, m, ids + soff[j], &mp);
            soff[j + 1] = soff[j] + len;
            mpos[j] = mp;
            fold[j] = o->oof ? fold_of(c, m) : -1;
            label[j] = (int)e;
        }
    ctx_config cc = ctx_config_defaults();
    cc.vocab = vocab;
    cc.dim = o->dim;
    cc.window = o->window;
    cc.sides = o->sides;
    cc.pos_window = o->pos_window;
    cc.bigrams = o->bigrams;
    cc.buckets = o->buckets;
    cc.mask_id = MASK;
    cc.nskip = 3;
    cc.skip[0] = PAD;
    cc.skip[1] = CLS;
    cc.skip[2] = SEP;
    cc.init_std = (float)o->init_std;

    float *prob = xcalloc((size_t)E * E, sizeof(float));
    int64_t *nacc = xcalloc((size_t)E, sizeof(int64_t));
    int B = o->batch;
    float *hid = xmalloc(sizeof(float) * (size_t)B * o->dim);
    float *dhid = xmalloc(sizeof(float) * (size_t)B * o->dim);
    float *logp = xmalloc(sizeof(float) * (size_t)B * V);
    float *dlogp = xmalloc(sizeof(float) * (size_t)B * V);
    int labels[4096];
    int64_t *order = xmalloc(sizeof(int64_t) * (size_t)(M * 8 + o->spe * E + 1));
    int64_t *pick = xmalloc(sizeof(int64_t) * (size_t)(M + 1));
    int64_t *own = xmalloc(sizeof(int64_t) * (size_t)(M + 1));
    double last_loss = 0;
    int nm = o->oof ? 2 : 1;
    typedef struct {
        rng_t rng;
        context_encoder enc;
        head_t h;
        adamw opt;
    } model_t;
    model_t *mods = xcalloc((size_t)nm, sizeof *mods);
    for (int model = 0; model < nm; model++) {
        model_t *md = &mods[model];
        rng_seed(&md->rng, (uint64_t)o->seed * 1000 + (uint64_t)model);
        ctx_create(&md->enc, &cc);
        ctx_init_random(&md->enc, &md->rng);
        head_create(&md->h, o->linear, o->dim, V, B, &md->rng);
        if (o->init_sgns) load_sgns(o->init_sgns, &md->enc, &md->h, c, r, map);
        adamw_hparams hp = adamw_defaults();
        hp.lr = o->lr;
        hp.weight_decay = o->wd;
        adamw_create(&md->opt, &hp);
        adamw_add(&md->opt, &md->enc.params);
        adamw_add(&md->opt, head_params(&md->h));
    }
    ctx_batch cb = {0};
    for (int ep = 0; ep <= o->epochs; ep++) {
        if (ep > 0)
            for (int model = 0; model < nm; model++) {
                model_t *md = &mods[model];
                int64_t n = 0;
                for (int64_t e = 0; e < E; e++) {
                    int64_t no = 0;
                    for (int64_t k = 0; k < r->count[e]; k++) {
                        int64_t j = r->first[e] + k;
                        if (fold[j] != model) own[no++] = j;
                    }
                    if (!no) continue;
                    int64_t want = o->spe > 0 ? o->spe : no;
                    if (o->rep_cap > 0 && want > (int64_t)ceil(o->rep_cap * no)) want = (int64_t)ceil(o->rep_cap * no);
                    if (want <= no) {
                        rng_sample_without_replacement(&md->rng, no, want, pick);
                        for (int64_t k = 0; k < want; k++) order[n++] = own[pick[k]];
                    } else {
                        for (int64_t k = 0; k < want; k++) order[n++] = own[rng_below(&md->rng, (uint64_t)no)];
                    }
                }
                rng_shuffle_i64(&md->rng, order, n);
                double lsum = 0;
                int64_t nb = 0;
                progress pg;
                progress_start(&pg, "train", "samples", n);
                for (int64_t s = 0; s < n; s += B) {
                    progress_update(&pg, s);
                    int bs = (int)(n - s < B ? n - s : B);
                    ctx_batch_clear(&cb);
                    for (int i = 0; i < bs; i++) {
                        int64_t j = order[s + i];
                        ctx_batch_add(&md->enc, &cb, ids + soff[j], (int)(soff[j + 1] - soff[j]), mpos[j], o->drop,
                                      &md->rng);
                        labels[i] = label[j];
                    }
                    param_list_zero_grad(&md->enc.params);
                    param_list_zero_grad(head_params(&md->h));
                    ctx_forward(&md->enc, &cb, hid);
                    head_forward(&md->h, hid, bs, logp);
                    lsum += mep_loss(logp, labels, bs, V, o->eta, dlogp);
                    nb++;
                    head_backward(&md->h, hid, bs, logp, dlogp, dhid);
                    ctx_backward(&md->enc, &cb, dhid);
                    adamw_step(&md->opt);
                }
                progress_end(&pg);
                last_loss = lsum / (double)(nb ? nb : 1);
                log_info("%s model %d epoch %d: %lld samples, loss %.4f, %.1f s", tag, model, ep, (long long)n,
                         last_loss, now_seconds() - t0);
            }
        if (ep < o->epochs && !(o->eval_every && ep > 0)) continue;
        /* inference: each model on its samples (all, or its held-out fold) */
        double t_inf = now_seconds();
        memset(prob, 0, sizeof(float) * (size_t)E * E);
        memset(nacc, 0, sizeof(int64_t) * (size_t)E);
        for (int model = 0; model < nm; model++) {
            model_t *md = &mods[model];
            for (int64_t e = 0; e < E; e++) {
                int64_t n = 0;
                for (int64_t k = 0; k < r->count[e]; k++) {
                    int64_t j = r->first[e] + k;
                    if (!o->oof || fold[j] == model) own[n++] = j;
                }
                for (int64_t s = 0; s < n; s += B) {
                    int bs = (int)(n - s < B ? n - s : B);
                    ctx_batch_clear(&cb);
                    for (int i = 0; i < bs; i++) {
                        int64_t j = own[s + i];
                        ctx_batch_add(&md->enc, &cb, ids + soff[j], (int)(soff[j + 1] - soff[j]), mpos[j], 0, NULL);
                    }
                    ctx_forward(&md->enc, &cb, hid);
                    head_forward(&md->h, hid, bs, logp);
                    float *row = prob + (size_t)e * E;
                    for (int i = 0; i < bs; i++)
                        for (int v = 0; v < V; v++) row[v] += expf(logp[(size_t)i * V + v]);
                }
                nacc[e] += n;
            }
        }
        int64_t empty = 0;
        for (int64_t e = 0; e < E; e++) {
            float *row = prob + (size_t)e * E;
            if (!nacc[e]) { /* oof: every sample in one fold — fall back to uniform */
                empty++;
                for (int v = 0; v < V; v++) row[v] = 1.0f / (float)V;
                continue;
            }
            for (int v = 0; v < V; v++) row[v] /= (float)nacc[e];
        }
        double t_eval = now_seconds();
        char extra[256], tg[128];
        snprintf(extra, sizeof extra, "loss %.4f | elapsed %.0f s (infer %.0f s) | cpu %.0f s | empty %lld", last_loss,
                 now_seconds() - t0, t_eval - t_inf, cpu_seconds(), (long long)empty);
        snprintf(tg, sizeof tg, "%s@ep%d", tag, ep);
        if (o->save_dists) {
            FILE *f = fopen(o->save_dists, "wb");
            if (!f || fwrite(&E, sizeof E, 1, f) != 1 || fwrite(nacc, sizeof(int64_t), (size_t)E, f) != (size_t)E ||
                fwrite(prob, sizeof(float), (size_t)(E * E), f) != (size_t)(E * E) || fclose(f))
                die_errno("%s", o->save_dists);
        }
        evaluate_all(c, r, b, prob, nacc, tg, extra);
    }
    ctx_batch_free(&cb);
    for (int model = 0; model < nm; model++) {
        adamw_free(&mods[model].opt);
        head_free(&mods[model].h);
        ctx_free(&mods[model].enc);
    }
    free(mods);
    free(map);
    free(soff);
    free(mpos);
    free(ids);
    free(fold);
    free(label);
    free(prob);
    free(nacc);
    free(hid);
    free(dhid);
    free(logp);
    free(dlogp);
    free(order);
    free(pick);
    free(own);
}

/* --------------------------------------------------------------- sgns mode */

typedef struct {
    int dim, window, neg, epochs, min_count, seed;
    double lr, subsample, temp;
    const char *save, *load;
} sgns_opts;

static float sigmoidf_(float x) {
    if (x > 8) return 1;
    if (x < -8) return 0;
    return 1.0f / (1.0f + expf(-x));
}

static void run_sgns(const corpus *c, const rows_t *r, const bench *b, const sgns_opts *o, const char *tag) {
    double t0 = now_seconds();
    int64_t W = c->nwords, T = W + c->ent.n; /* token ids: raw words, then entity indices */
    int D = o->dim;
    /* token stream: mention spans become entity tokens; rare words dropped */
    int32_t *stream = xmalloc(sizeof(int32_t) * (size_t)c->ntok);
    int64_t *s_off = xmalloc(sizeof(int64_t) * (size_t)(c->nsent + 1));
    double *cnt = xcalloc((size_t)T, sizeof(double));
    int64_t *firstm = xmalloc(sizeof(int64_t) * (size_t)(c->nsent + 1));
    for (int64_t s = 0; s <= c->nsent; s++) firstm[s] = -1;
    for (int64_t m = c->nment - 1; m >= 0; m--) firstm[c->m_sent[m]] = m;
    int64_t *cover = xmalloc(sizeof(int64_t) * 4096);
    int64_t n = 0;
    for (int64_t s = 0; s < c->nsent; s++) {
        s_off[s] = n;
        int64_t a = c->soff[s], len = c->soff[s + 1] - a;
        if (len > 4096) len = 4096;
        for (int64_t i = 0; i < len; i++) cover[i] = -1;
        for (int64_t m = firstm[s]; m >= 0 && m < c->nment && c->m_sent[m] == s; m++)
            for (int64_t i = c->m_start[m]; i <= c->m_end[m] && i < len; i++) cover[i] = m;
        for (int64_t i = 0; i < len; i++) {
            int64_t m = cover[i];
            if (m >= 0) {
                if (i == 0 || cover[i - 1] != m) stream[n++] = (int32_t)(W + c->m_ent[m]);
                continue;
            }
            if (c->wcount[c->tok[a + i]] >= o->min_count) stream[n++] = c->tok[a + i];
        }
    }
    s_off[c->nsent] = n;
    for (int64_t i = 0; i < n; i++) cnt[stream[i]]++;
    /* unigram^0.75 table */
    int64_t TBL = 1 << 24;
    int32_t *table = xmalloc(sizeof(int32_t) * (size_t)TBL);
    double z = 0;
    for (int64_t t = 0; t < T; t++) z += pow(cnt[t], 0.75);
    {
        int64_t t = 0;
        double acc = pow(cnt[0], 0.75) / z;
        for (int64_t i = 0; i < TBL; i++) {
            table[i] = (int32_t)t;
            if ((double)i / (double)TBL > acc && t < T - 1) {
                t++;
                acc += pow(cnt[t], 0.75) / z;
            }
        }
    }
    rng_t rng;
    rng_seed(&rng, (uint64_t)o->seed);
    float *in = xmalloc(sizeof(float) * (size_t)T * D), *out = xcalloc((size_t)T * D, sizeof(float));
    for (int64_t i = 0; i < T * D; i++) in[i] = (float)((rng_uniform(&rng) - 0.5) / D);
    float *gin = xmalloc(sizeof(float) * (size_t)D);
    int32_t *kept = xmalloc(sizeof(int32_t) * 1024);
    int64_t total = n * o->epochs, done = 0;
    if (o->load) {
        FILE *f = fopen(o->load, "rb");
        int64_t hdr[3];
        if (!f || fread(hdr, sizeof hdr, 1, f) != 1 || hdr[0] != W || hdr[1] != c->ent.n || hdr[2] != D ||
            fread(out, sizeof(float), (size_t)W * D, f) != (size_t)W * D ||
            fread(in + (size_t)W * D, sizeof(float), (size_t)c->ent.n * D, f) != (size_t)c->ent.n * D)
            die_input(o->load, "vectors", "cannot read / does not match the corpus and --sg-dim");
        fclose(f);
    }
    for (int ep = 0; ep < (o->load ? 0 : o->epochs); ep++) {
        for (int64_t s = 0; s < c->nsent; s++) {
            int nk = 0;
            for (int64_t i = s_off[s]; i < s_off[s + 1] && nk < 1024; i++) {
                int32_t t = stream[i];
                double f = cnt[t] / (double)n;
                if (o->subsample > 0 && t < W) {
                    double keep = sqrt(o->subsample / f) + o->subsample / f;
                    if (keep < rng_uniform(&rng)) continue;
                }
                kept[nk++] = t;
            }
            done += s_off[s + 1] - s_off[s];
            float lr = (float)(o->lr * (1.0 - (double)done / (double)(total + 1)));
            if (lr < o->lr * 1e-4) lr = (float)(o->lr * 1e-4);
            for (int i = 0; i < nk; i++) {
                int wnd = 1 + (int)rng_below(&rng, (uint64_t)o->window);
                for (int j = i - wnd; j <= i + wnd; j++) {
                    if (j < 0 || j >= nk || j == i) continue;
                    /* center kept[i] (input) predicts context kept[j] (output) */
                    float *vi = in + (size_t)kept[i] * D;
                    memset(gin, 0, sizeof(float) * (size_t)D);
                    for (int k = 0; k <= o->neg; k++) {
                        int32_t tgt = k == 0 ? kept[j] : table[rng_below(&rng, (uint64_t)TBL)];
                        if (k > 0 && tgt == kept[j]) continue;
                        float *vo = out + (size_t)tgt * D;
                        float dot = 0;
                        for (int d = 0; d < D; d++) dot += vi[d] * vo[d];
                        float g = ((k == 0 ? 1.0f : 0.0f) - sigmoidf_(dot)) * lr;
                        for (int d = 0; d < D; d++) {
                            gin[d] += g * vo[d];
                            vo[d] += g * vi[d];
                        }
                    }
                    for (int d = 0; d < D; d++) vi[d] += gin[d];
                }
            }
        }
        log_info("%s sgns epoch %d, %.1f s", tag, ep + 1, now_seconds() - t0);
    }
    double t_train = now_seconds() - t0;
    if (o->save) {
        FILE *f = fopen(o->save, "wb");
        if (!f) die_errno("%s", o->save);
        int64_t hdr[3] = {W, c->ent.n, D};
        fwrite(hdr, sizeof hdr, 1, f);
        fwrite(out, sizeof(float), (size_t)W * D, f);          /* word output vectors */
        fwrite(in + (size_t)W * D, sizeof(float), (size_t)c->ent.n * D, f); /* entity input vectors */
        if (fclose(f)) die_errno("%s", o->save);
    }
    /* cosine to the seeds' centroid (unit vectors) */
    int64_t E = r->E;
    float *u = xmalloc(sizeof(float) * (size_t)E * D);
    for (int64_t e = 0; e < E; e++) {
        const float *v = in + (size_t)(W + r->idx_of_row[e]) * D;
        double nn = 0;
        for (int d = 0; d < D; d++) nn += (double)v[d] * v[d];
        float inv = nn > 0 ? (float)(1 / sqrt(nn)) : 0;
        for (int d = 0; d < D; d++) u[(size_t)e * D + d] = v[d] * inv;
    }
    double acc[3] = {0, 0, 0};
    int nq = 0;
    double *score = xmalloc(sizeof(double) * (size_t)E);
    int64_t eids[100];
    float *cen = xmalloc(sizeof(float) * (size_t)D);
    for (int qi = 0; qi < b->qs.n; qi++) {
        const dataset_query *q = &b->qs.q[qi];
        int64_t seeds[16];
        if (q->nseeds > 16 || !seed_rows(c, r, q, seeds)) continue;
        memset(cen, 0, sizeof(float) * (size_t)D);
        for (int i = 0; i < q->nseeds; i++)
            for (int d = 0; d < D; d++) cen[d] += u[(size_t)seeds[i] * D + d];
        for (int64_t e = 0; e < E; e++) {
            double s = 0;
            for (int d = 0; d < D; d++) s += (double)cen[d] * u[(size_t)e * D + d];
            score[e] = s;
        }
        int k = top_eids(c, r, score, seeds, q->nseeds, 100, eids);
        ap_add(acc, eids, k, gt_of(b, q->class_name));
        nq++;
    }
    printf("RESULT %s cosine %.3f %.3f %.3f | train %.0f s | cpu %.0f s | nq %d\n", tag, acc[0] / nq, acc[1] / nq,
           acc[2] / nq, t_train, cpu_seconds(), nq);
    if (o->temp > 0) { /* r(e) = softmax over entities of cos(e, .) / temp, through ProbExpan's expansion */
        float *prob = xmalloc(sizeof(float) * (size_t)E * E);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)E, (int)E, D, 1.0f, u, D, u, D, 0.0f, prob, (int)E);
        for (int64_t e = 0; e < E; e++) {
            float *row = prob + (size_t)e * E;
            for (int64_t k = 0; k < E; k++) row[k] /= (float)o->temp;
            softmax_inplace(row, (int)E);
        }
        scores sc;
        evaluate_dists(c, r, b, prob, &sc);
        printf("RESULT %s-cosdist-T%g full %.3f %.3f %.3f | ws %.3f %.3f %.3f | mean %.3f %.3f %.3f | nq %d\n", tag,
               o->temp, sc.full[0], sc.full[1], sc.full[2], sc.ws[0], sc.ws[1], sc.ws[2], sc.mean[0], sc.mean[1],
               sc.mean[2], sc.nq);
        free(prob);
    }
    fflush(stdout);
    free(stream);
    free(s_off);
    free(cnt);
    free(firstm);
    free(cover);
    free(table);
    free(in);
    free(out);
    free(gin);
    free(kept);
    free(u);
    free(score);
    free(cen);
}

int main(int argc, char **argv) {
    const char *data = NULL, *mode = "ctx", *tag = "run";
    ctx_opts co = {128, 0, 1, 2, 1, 65536, 2, 0, 5, 128, 32, 0, 0, 0, 1e-3, 0.075, 0, 0, 0.1, NULL, NULL, 1};
    sgns_opts so = {100, 5, 5, 5, 2, 1, 0.025, 1e-4, 0, NULL, NULL};
    const cli_option opts[] = {
        {"data", OPT_STRING, &data, "PATH", "dataset folder or archive", 0, 0},
        {"mode", OPT_STRING, &mode, "ctx|sgns", "what to train", 0, 0},
        {"tag", OPT_STRING, &tag, "NAME", "label of the RESULT line", 0, 0},
        {"random-seed", OPT_INT, &co.seed, "N", "random seed", 0, 1e9},
        {"dim", OPT_INT, &co.dim, "H", "ctx: encoder dim", 1, 4096},
        {"window", OPT_INT, &co.window, "W", "ctx: bag-of-words window (0 = sentence)", 0, 1000},
        {"sides", OPT_INT, &co.sides, "0|1", "ctx: separate left/right rows", 0, 1},
        {"pos-window", OPT_INT, &co.pos_window, "P", "ctx: positional features for |d| <= P", 0, 100},
        {"bigrams", OPT_INT, &co.bigrams, "0|1", "ctx: hashed bigrams", 0, 1},
        {"buckets", OPT_INT, &co.buckets, "N", "ctx: hash rows", 0, 1e8},
        {"min-count", OPT_INT, &co.min_count, "N", "ctx/sgns: words rarer than N become UNK / dropped", 1, 1e9},
        {"head", OPT_INT, &co.linear, "0|1", "ctx: 1 = linear head instead of Linear-GELU-Linear", 0, 1},
        {"epochs", OPT_INT, &co.epochs, "N", "epochs (0 = evaluate the initial model)", 0, 1000},
        {"batch", OPT_INT, &co.batch, "N", "ctx: batch", 1, 4096},
        {"spe", OPT_INT, &co.spe, "N", "ctx: samples per entity per epoch (0 = all once)", 0, 1e6},
        {"rep-cap", OPT_DOUBLE, &co.rep_cap, "R", "ctx: at most R x own samples per epoch (0 = no cap)", 0, 1e6},
        {"save-dists", OPT_STRING, &co.save_dists, "FILE", "ctx: dump r(e) (raw) after each evaluation; --mode eval reads it", 0, 0},
        {"eval-every", OPT_INT, &co.eval_every, "0|1", "ctx: evaluate after every epoch", 0, 1},
        {"oof", OPT_INT, &co.oof, "0|1", "ctx: two models, out-of-fold distributions", 0, 1},
        {"lr", OPT_DOUBLE, &co.lr, "LR", "ctx: AdamW lr", 0, 10},
        {"wd", OPT_DOUBLE, &co.wd, "WD", "ctx: AdamW weight decay", 0, 10},
        {"eta", OPT_DOUBLE, &co.eta, "ETA", "ctx: label smoothing", 0, 0.999},
        {"drop", OPT_DOUBLE, &co.drop, "P", "ctx: context feature dropout", 0, 0.99},
        {"init-std", OPT_DOUBLE, &co.init_std, "S", "ctx: embedding init std", 0, 10},
        {"init-sgns", OPT_STRING, &co.init_sgns, "FILE", "ctx: init from sgns --save-vectors (dim must match)", 0, 0},
        {"sg-dim", OPT_INT, &so.dim, "D", "sgns: dim", 1, 4096},
        {"sg-window", OPT_INT, &so.window, "W", "sgns: max window", 1, 100},
        {"sg-neg", OPT_INT, &so.neg, "K", "sgns: negatives", 1, 100},
        {"sg-epochs", OPT_INT, &so.epochs, "N", "sgns: epochs", 1, 1000},
        {"sg-lr", OPT_DOUBLE, &so.lr, "LR", "sgns: start lr (linear decay)", 0, 10},
        {"sg-subsample", OPT_DOUBLE, &so.subsample, "T", "sgns: frequent-word subsampling", 0, 1},
        {"sg-temp", OPT_DOUBLE, &so.temp, "T", "sgns: also run ProbExpan on r(e) = softmax(cos/T) (0 = no)", 0, 100},
        {"load-vectors", OPT_STRING, &so.load, "FILE", "sgns: skip training, load --save-vectors output", 0, 0},
        {"save-vectors", OPT_STRING, &so.save, "FILE", "sgns: save word output + entity input vectors", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0}};
    const cli_spec spec = {"shallow_ese", "issue-9 research driver: shallow encoder / skip-gram on an ESE dataset",
                           "--data PATH [options]", "shallow_ese --data wordnet-ese-dev.tar.gz --mode ctx", "", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!data) die_usage("--data is required");
    so.seed = co.seed;
    so.min_count = co.min_count;
    double t0 = now_seconds();
    corpus c;
    corpus_load(&c, data);
    rows_t r;
    rows_build(&r, &c);
    bench b;
    name_read_queries(data, &b.qs);
    dataset_read_gt(data, &b.gs);
    log_info("%lld sentences, %lld tokens, %lld words, %lld mentions, %lld entity rows, %.1f s", (long long)c.nsent,
             (long long)c.ntok, (long long)c.nwords, (long long)c.nment, (long long)r.E, now_seconds() - t0);
    if (!strcmp(mode, "ctx"))
        run_ctx(&c, &r, &b, &co, tag);
    else if (!strcmp(mode, "eval")) {
        if (!co.save_dists) die_usage("--mode eval needs --save-dists FILE (a dump to read)");
        FILE *f = fopen(co.save_dists, "rb");
        int64_t E = 0;
        if (!f || fread(&E, sizeof E, 1, f) != 1 || E != r.E) die_input(co.save_dists, "header", "not a dump of this dataset");
        int64_t *w = xmalloc(sizeof(int64_t) * (size_t)E);
        float *prob = xmalloc(sizeof(float) * (size_t)(E * E));
        if (fread(w, sizeof(int64_t), (size_t)E, f) != (size_t)E || fread(prob, sizeof(float), (size_t)(E * E), f) != (size_t)(E * E))
            die_input(co.save_dists, "rows", "short file");
        fclose(f);
        evaluate_all(&c, &r, &b, prob, w, tag, co.save_dists);
        free(w);
        free(prob);
    } else if (!strcmp(mode, "sgns"))
        run_sgns(&c, &r, &b, &so, tag);
    else
        die_usage("--mode must be ctx or sgns");
    return 0;
}
