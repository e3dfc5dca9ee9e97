/* engine: the whole method for one seed set, rows computed on demand from the index. */
#include "engine/engine.h"

#include <math.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/budget.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/row_list.h"
#include "base/sort.h"
#include "dataset/entitynames.h"
#include "engine/refine_check.h"
#include "method/anchor.h"
#include "method/candidates.h"
#include "method/modelscore.h"
#include "method/rerank.h"
#include "method/windowsearch.h"
#include "model/genus_agreement.h"
#include "model/located_pairs.h"
#include "model/noun_slots.h"

struct engine {
    corpus_index idx;
    name_index names;
    engine_config cfg;
    pattern_model *m[ENGINE_MAX_MODELS];
    int64_t *background; /* every entity row in a fixed pseudo-random order */
    _Atomic(sparse_row *) *kept[ENGINE_MAX_MODELS]; /* [E] unrefined rows kept across queries (NULL: not yet) */
    atomic_size_t *kept_bytes; /* their size, at most cfg.row_cache_bytes */
    genus_heads genus; /* what each entity's own definitions call it (genus_agreement, the set's name) */
    int glossary;      /* genus_agreement_glossary: the re-ranking applies */
};

typedef struct {
    uint64_t h;
    int64_t row;
} hashed_row;

static int by_hash(const void *a, const void *b) {
    const hashed_row *x = a, *y = b;
    return x->h != y->h ? (x->h < y->h ? -1 : 1) : (x->row > y->row) - (x->row < y->row);
}

/* The background order: rows sorted by a hash of their eid (fixed for a corpus). */
static int64_t *background_order(const corpus_index *x) {
    int64_t E = x->ent.n;
    hashed_row *h = xmalloc(sizeof *h * (size_t)(E + 1));
    for (int64_t e = 0; e < E; e++) h[e] = (hashed_row){hash_bytes(&x->ent.eid[e], sizeof x->ent.eid[e]), e};
    qsort(h, (size_t)E, sizeof *h, by_hash);
    int64_t *order = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    for (int64_t e = 0; e < E; e++) order[e] = h[e].row;
    free(h);
    return order;
}

int64_t engine_add_aliases(engine *g, const char *path) { return name_index_load_aliases(&g->names, path); }

engine_config engine_config_defaults(void) {
    engine_config c = {3, 0.95, 1, 0};
    return c;
}

engine *engine_open(const char *index_path, const engine_config *c) {
    if (c->models < 1 || c->models > ENGINE_MAX_MODELS) die_usage("models must be in 1..%d", ENGINE_MAX_MODELS);
    if (!(c->feature_fraction > 0 && c->feature_fraction <= 1)) die_usage("feature fraction must be in (0, 1]");
    engine *g = xcalloc(1, sizeof *g);
    g->cfg = *c;
    index_read(&g->idx, index_path);
    name_index_init(&g->names, &g->idx.ent, &g->idx.row_of_eid);
    g->background = background_order(&g->idx);
    for (int k = 0; k < c->models; k++) {
        pattern_config pc = g->idx.cfg;
        if (k > 0) { /* the pipeline's pattern_subset: models 2..K */
            pc.feature_fraction = c->feature_fraction;
            pc.seed = c->seed * 1000 + (uint64_t)(k + 1);
        }
        g->m[k] = pattern_model_from_counts(&pc, &g->idx.counts);
        g->kept[k] = xcalloc((size_t)g->idx.ent.n + 1, sizeof *g->kept[k]);
    }
    g->kept_bytes = xcalloc(1, sizeof *g->kept_bytes);
    genus_heads_build(&g->genus, &g->idx.counts);
    g->glossary = genus_agreement_glossary(&g->genus, g->idx.samples);
    return g;
}

void engine_free(engine *g) {
    if (!g) return;
    for (int k = 0; k < g->cfg.models; k++) {
        pattern_model_free(g->m[k]);
        for (int64_t e = 0; e < g->idx.ent.n; e++) {
            sparse_row *row = atomic_load(&g->kept[k][e]);
            if (row) sparse_row_free(row);
            free(row);
        }
        free(g->kept[k]);
    }
    free(g->kept_bytes);
    genus_heads_free(&g->genus);
    name_index_free(&g->names);
    free(g->background);
    index_free(&g->idx);
    free(g);
}

const corpus_index *engine_index(const engine *g) { return &g->idx; }
const genus_heads *engine_genus_heads(const engine *g) { return &g->genus; }
const pattern_model *engine_model(const engine *g) { return g->m[0]; }

seedfeat_opts engine_select_opts(const engine_request *q, int accepted) {
    seedfeat_opts o = q->features;
    if (!accepted) o.share_fraction = 0;
    return o;
}

seedfeat_set engine_select_others(const engine *g, const engine_request *q) {
    return (seedfeat_set){g->background, (int)(q->select_others < g->idx.ent.n ? q->select_others : g->idx.ent.n)};
}

static const char *const variant_names[] = {"full", "noen", "nocl", "noclen"};

int engine_variant_parse(const char *s) {
    for (int v = 0; v < 4; v++)
        if (!strcmp(s, variant_names[v])) return v;
    return -1;
}


engine_request engine_request_defaults(void) {
    engine_request q = {0};
    q.variant = ENGINE_FULL;
    q.size = 100;
    q.phase2_size = 200;
    q.top = 2;
    const cl_preset *p = cl_preset_default();
    q.bounds = (cl_bounds){p->thr_pos, p->l_neg, p->u_neg};
    q.contrast = pattern_contrast_defaults();
    q.contrast.weight_decay = ENGINE_CL_WEIGHT_DECAY;
    q.accepted_steps = ENGINE_CL_ACCEPTED_STEPS;
    q.select = 1;
    q.features = seedfeat_defaults();
    q.select_rounds = 0;
    q.select_grow = 10;
    q.select_size = 50;
    q.select_others = 500;
    q.refine_check = 1;
    q.genus_agreement = ENGINE_GENUS_AGREEMENT;
    q.genus_gate = ENGINE_GENUS_GATE;
    q.located_share = ENGINE_LOCATED_SHARE;
    q.modifier_ratio = ENGINE_MODIFIER_RATIO;
    return q;
}

/* ---- rows of one model or the mean of several, computed on demand and cached per call ---- */

typedef struct {
    const engine *g;
    int k;
    int idx[ENGINE_MAX_MODELS];
    const pattern_refinement *ref[ENGINE_MAX_MODELS];
    int64_t E;
    const sparse_row **cache; /* [E], NULL until needed */
    uint8_t *owned;           /* [E] 1: cache[e] is this call's (else the engine's kept row) */
    pattern_scratch *scratch; /* the call's, shared by its sources */
    int32_t *mark;            /* mean scratch, all -1 */
    sparse_row_getter getter; /* rows_get over this struct */
    row_source src;           /* the rows; this struct must not move */
} model_rows;

/* Row e of model k, unrefined: the engine's kept row, or computed and then kept while the
 * cache has room; NULL when not kept, the row then in *tmp (the caller's to free). */
static const sparse_row *unrefined_row(const engine *g, int k, int64_t e, pattern_scratch *s, sparse_row *tmp) {
    sparse_row *row = atomic_load_explicit(&g->kept[k][e], memory_order_acquire);
    if (row) return row;
    pattern_model_sparse_row(g->m[k], NULL, e, s, tmp);
    size_t bytes = sizeof *tmp + (size_t)tmp->nnz * (sizeof *tmp->col + sizeof *tmp->val);
    if (atomic_fetch_add(g->kept_bytes, bytes) + bytes > g->cfg.row_cache_bytes) {
        atomic_fetch_sub(g->kept_bytes, bytes);
        return NULL;
    }
    row = xmalloc(sizeof *row);
    *row = *tmp;
    sparse_row *other = NULL;
    if (atomic_compare_exchange_strong_explicit(&g->kept[k][e], &other, row, memory_order_acq_rel, memory_order_acquire))
        return row;
    sparse_row_free(row); /* another thread kept it first */
    free(row);
    atomic_fetch_sub(g->kept_bytes, bytes);
    return other;
}

static const sparse_row *rows_get(void *ctx, int64_t e) {
    model_rows *r = ctx;
    if (r->cache[e]) return r->cache[e];
    sparse_row parts[ENGINE_MAX_MODELS];
    const sparse_row *pp[ENGINE_MAX_MODELS];
    for (int i = 0; i < r->k; i++) {
        if (r->ref[i]) {
            pattern_model_sparse_row(r->g->m[r->idx[i]], r->ref[i], e, r->scratch, &parts[i]);
            pp[i] = &parts[i];
        } else {
            pp[i] = unrefined_row(r->g, r->idx[i], e, r->scratch, &parts[i]);
            if (!pp[i]) pp[i] = &parts[i];
        }
    }
    if (r->k == 1 && pp[0] != &parts[0]) return r->cache[e] = pp[0]; /* the engine's */
    sparse_row *out = xmalloc(sizeof *out);
    if (r->k == 1) *out = parts[0];
    else sparse_row_mean(pp, r->k, out, r->mark);
    for (int i = 0; i < r->k && r->k > 1; i++)
        if (pp[i] == &parts[i]) sparse_row_free(&parts[i]);
    r->owned[e] = 1;
    return r->cache[e] = out;
}


/* Rows of the mean of models idx[0..k-1] (refinements ref[] or NULL). */
static void rows_init(model_rows *r, const engine *g, const int *idx, int k, pattern_refinement *const *ref,
                      pattern_scratch *scratch, int32_t *mark) {
    memset(r, 0, sizeof *r);
    r->g = g;
    r->k = k;
    r->E = g->idx.ent.n;
    for (int i = 0; i < k; i++) {
        r->idx[i] = idx[i];
        r->ref[i] = ref ? ref[idx[i]] : NULL;
    }
    r->cache = xcalloc((size_t)r->E, sizeof *r->cache);
    r->owned = xcalloc((size_t)r->E, 1);
    r->scratch = scratch;
    r->mark = mark;
    r->getter = (sparse_row_getter){rows_get, r};
    r->src = sparse_row_source(r->E, &r->getter);
}

static void rows_free(model_rows *r) {
    for (int64_t e = 0; e < r->E; e++)
        if (r->owned[e]) {
            sparse_row_free((sparse_row *)r->cache[e]);
            free((sparse_row *)r->cache[e]);
        }
    free(r->cache);
    free(r->owned);
}

/* ---- one query ---- */

typedef struct {
    const engine *g;
    const engine_request *q;
    engine_result *res;
    int64_t *members; /* the known class members: the seeds, then the accepted entities */
    int nmembers;
    int64_t explain;  /* the row of q->explain, or -1 */
    pattern_scratch *scratch;
    int32_t *mark;
    const int64_t *extra; /* candidates the search did not reach, re-ranked after its own (NULL: none) */
    int nextra;
} call;

/* 1 when a person accepted entities beyond the seeds: what switches the feedback rules on (E_pos
 * without pseudo-positives, the selection's share of the set, the refinement's steps). */
static int has_accepted(const call *c) { return c->nmembers > c->res->nseeds; }

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The row a token names (a name or an eid, or only an eid when by_eid); -1 with the reason in msg. */
static int64_t resolve_one(const engine *g, const char *token, int by_eid, char *msg, size_t msglen) {
    if (!by_eid) return name_lookup(&g->names, token, msg, msglen);
    int64_t r = intmap_get(&g->idx.row_of_eid, strtoll(token, NULL, 10));
    if (r < 0) snprintf(msg, msglen, "eid %s is not an entity of the index (fewer than 2 mentions?)", token);
    return r;
}

/* Resolves tokens[0..n-1] into rows (duplicates dropped); -1 with the message on a bad name. */
static int resolve(const engine *g, const char *what, const char *const *tokens, int n, int by_eid, int64_t **rows,
                   int *nrows, char *err, size_t errlen) {
    *rows = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    *nrows = 0;
    for (int i = 0; i < n; i++) {
        char msg[1200];
        int64_t r = resolve_one(g, tokens[i], by_eid, msg, sizeof msg);
        if (r < 0) return fail(err, errlen, "%s %d: %s", what, i + 1, msg);
        if (!row_list_contains(*rows, *nrows, r)) (*rows)[(*nrows)++] = r;
    }
    return 0;
}


/* Checks q and resolves its lists into res; the known members (seeds, then the accepted
 * entities) into *members (the caller's to free, also on failure). */
static int check_request(const engine *g, const engine_request *q, engine_result *res, int64_t **members,
                         int *nmembers, char *err, size_t errlen) {
    *members = NULL;
    *nmembers = 0;
    if (q->size < 1 || q->phase2_size < 1) return fail(err, errlen, "size must be at least 1");
    if (q->top < 1 || q->top > g->cfg.models)
        return fail(err, errlen, "top %d: expected 1..%d (the engine's models)", q->top, g->cfg.models);
    if (q->bounds.thr_pos < 1 || q->bounds.l_neg < 0 || q->bounds.l_neg >= q->bounds.u_neg)
        return fail(err, errlen, "contrastive bounds: need thr_pos >= 1 and 0 <= l_neg < u_neg");
    if ((int)q->variant < 0 || q->variant > ENGINE_NOCLEN) return fail(err, errlen, "unknown variant");
    if (q->contrast.steps < 0 || q->accepted_steps < 0) return fail(err, errlen, "refinement steps must be >= 0");
    if (resolve(g, "seed", q->seeds, q->nseeds, q->by_eid, &res->seeds, &res->nseeds, err, errlen) ||
        resolve(g, "negative seed", q->negatives, q->nnegatives, 0, &res->negatives, &res->nnegatives, err, errlen) ||
        resolve(g, "accepted entity", q->accepted, q->naccepted, 0, &res->accepted, &res->naccepted, err, errlen))
        return -1;
    const entity_table *t = &g->idx.ent;
    for (int i = 0; i < res->naccepted; i++) /* one entity is one kind of feedback */
        if (row_list_contains(res->seeds, res->nseeds, res->accepted[i]))
            return fail(err, errlen, "\"%s\" (eid %lld) is both a seed and accepted: give it once", t->name[res->accepted[i]],
                        (long long)t->eid[res->accepted[i]]);
    for (int i = 0; i < res->nnegatives; i++) {
        int64_t r = res->negatives[i];
        if (row_list_contains(res->seeds, res->nseeds, r))
            return fail(err, errlen, "\"%s\" (eid %lld) is both a seed and a negative seed", t->name[r],
                        (long long)t->eid[r]);
        if (row_list_contains(res->accepted, res->naccepted, r))
            return fail(err, errlen, "\"%s\" (eid %lld) is both accepted and a negative seed", t->name[r],
                        (long long)t->eid[r]);
    }
    *members = xmalloc(sizeof(int64_t) * (size_t)(res->nseeds + res->naccepted + 1));
    memcpy(*members, res->seeds, sizeof(int64_t) * (size_t)res->nseeds);
    *nmembers = res->nseeds;
    for (int i = 0; i < res->naccepted; i++) (*members)[(*nmembers)++] = res->accepted[i];
    if (*nmembers < 2)
        return fail(err, errlen, "%d distinct seed and accepted entit%s: expected at least 2 (the method compares "
                    "seeds)", *nmembers, *nmembers == 1 ? "y" : "ies");
    if (*nmembers + q->size > t->n) return fail(err, errlen, "size %d: the index has only %lld entities", q->size, (long long)t->n);
    return 0;
}

/* Orders the K models (refined by ref, or not) by seed consistency into kept[0..K-1], best
 * first (ties: lower index), scores into score[]. As score-models, for one class. */
static void select_models(call *c, pattern_refinement *const *ref, int *kept, double *score) {
    int K = c->g->cfg.models;
    for (int k = 0; k < K; k++) {
        model_rows r;
        rows_init(&r, c->g, &k, 1, ref, c->scratch, c->mark);
        double v = modelscore_class(&r.src, c->members, c->nmembers);
        score[k] = modelscore_geomean(&v, 1);
        kept[k] = k;
        rows_free(&r);
    }
    for (int i = 1; i < K; i++) /* insertion sort: stable on ties */
        for (int j = i; j > 0 && score[kept[j]] < score[kept[j - 1]]; j--) {
            int t = kept[j];
            kept[j] = kept[j - 1];
            kept[j - 1] = t;
        }
}

/* Where the final search (x: the final set, members first; it[0..n-1]: its re-ranking; ranked:
 * the list) and its rows place the explained entity (engine_place, engine.h). */
static void place_entity(call *c, anchor_scorer *sc, const row_source *rows, const windowsearch_query *x,
                         const rerank_item *it, const int64_t *ranked, int n, const anchor_weighting *bands) {
    engine_place *p = &c->res->place;
    int64_t e = c->explain, E = c->g->idx.ent.n;
    p->row = e;
    p->listed = n;
    for (int i = 0; i < n; i++) {
        if (!i || it[i].s > p->list_kl_best) p->list_kl_best = it[i].s;
        if (!i || it[i].s < p->list_kl_worst) p->list_kl_worst = it[i].s;
    }
    if (row_list_contains(c->res->seeds, c->res->nseeds, e)) { p->kind = ENGINE_PLACE_SEED; return; }
    if (row_list_contains(c->members, c->nmembers, e)) { p->kind = ENGINE_PLACE_ACCEPTED; return; }
    for (int i = 0; i < n; i++)
        if (ranked[i] == e) {
            *p = (engine_place){ENGINE_PLACE_LISTED, e, i + 1, 0, it[i].rank, it[i].order, it[i].s, it[i].score,
                                n, p->list_kl_best, p->list_kl_worst};
            return;
        }
    p->kind = row_list_contains(c->res->negatives, c->res->nnegatives, e) ? ENGINE_PLACE_REJECTED : ENGINE_PLACE_OUTSIDE;
    int m = x->n + 1; /* the final set with e as its last member */
    int64_t *set = xmalloc(sizeof(int64_t) * (size_t)m);
    double *mult = xmalloc(sizeof(double) * (size_t)m);
    memcpy(set, x->rows, sizeof(int64_t) * (size_t)x->n);
    set[x->n] = e;
    for (int i = 0; i < m; i++) mult[i] = anchor_multiplier(bands, i);
    p->kl_score = anchor_score(sc, e, x->n, set, mult, m);
    p->kl_rank = 1;
    for (int i = 0; i < n; i++) p->kl_rank += it[i].s > p->kl_score;
    candidates_order co; /* the search's order of what is left after the final set */
    candidates_init(&co, rows, CAND_MEAN);
    unsigned char *blocked = xcalloc((size_t)E, 1);
    for (int i = 0; i < x->n; i++) {
        candidates_add_member(&co, x->rows[i]);
        blocked[x->rows[i]] = 1;
    }
    for (int i = 0; i < c->res->nnegatives; i++) blocked[c->res->negatives[i]] = 1;
    p->search_rank = 1;
    for (int64_t f = 0; f < E; f++)
        p->search_rank += !blocked[f] && f != e && (co.score[f] > co.score[e] || (co.score[f] == co.score[e] && f < e));
    if (p->kind == ENGINE_PLACE_OUTSIDE) p->rank = n + p->search_rank;
    candidates_free(&co);
    free(blocked);
    free(mult);
    free(set);
}

/* Window search (seeds + size) and official re-ranking over the mean rows of models[0..k-1]
 * (ascending indices, as an ensemble averages them); the expanded rows in re-ranked order
 * into *ranked (n of them) and, when items is not NULL, the per-entity figures. */
static int search_and_rerank(call *c, const int *models, int k, pattern_refinement *const *ref, int size,
                             int64_t **ranked, engine_item **items) {
    int64_t room = c->g->idx.ent.n - c->nmembers; /* a search never asks for more than the entities */
    if (size > room) size = (int)room;
    model_rows r;
    rows_init(&r, c->g, models, k, ref, c->scratch, c->mark);
    anchor_scorer sc;
    anchor_init(&sc, &r.src);
    windowsearch_params p = {size, 1, 2.5, 20, 0, CAND_MEAN, ANCHOR_DEFAULT};
    windowsearch_query x = {c->nmembers, c->members, c->res->nnegatives, c->res->negatives, 0, NULL, NULL};
    windowsearch_group(&sc, &r.src, &x, 1, &p, 0);
    int n = x.n - x.nseeds;
    if (c->nextra) { /* the extra candidates join the set after the search's, where the search left room */
        x.rows = xrealloc(x.rows, sizeof(int64_t) * (size_t)(x.n + c->nextra));
        x.score = xrealloc(x.score, sizeof(double) * (size_t)(n + c->nextra));
        for (int i = 0; i < c->nextra; i++)
            if (!row_list_contains(x.rows, x.n, c->extra[i])) {
                x.rows[x.n++] = c->extra[i];
                x.score[n++] = -HUGE_VAL;
            }
    }
    rerank_item *it = xmalloc(sizeof *it * (size_t)(n + 1));
    anchor_weighting bands = {ANCHOR_RERANK_BANDS, 0, 1};
    rerank_set(&sc, x.rows, x.n, x.nseeds, &bands, RERANK_SUM, 9, it);
    *ranked = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) (*ranked)[i] = x.rows[x.nseeds + it[i].order - 1];
    if (items) {
        const corpus_index *idx = &c->g->idx;
        *items = xmalloc(sizeof(engine_item) * (size_t)(n + 1));
        for (int i = 0; i < n; i++) {
            int64_t row = (*ranked)[i];
            (*items)[i] = (engine_item){row, idx->ent.eid[row], idx->ent.name[row], it[i].score, it[i].order,
                                        it[i].rank, it[i].s, x.score[it[i].order - 1], idx->mentions[row]};
        }
        if (c->explain >= 0) place_entity(c, &sc, &r.src, &x, it, *ranked, n, &bands);
    }
    free(it);
    windowsearch_query_free(&x);
    anchor_free(&sc);
    rows_free(&r);
    return n;
}

/* The ensemble of the `top` best models (refined by ref or not): its model indices in
 * ascending order into models[], the selection recorded in the result. */
static int ensemble_models(call *c, pattern_refinement *const *ref, int *models) {
    int kept[ENGINE_MAX_MODELS];
    double score[ENGINE_MAX_MODELS];
    select_models(c, ref, kept, score);
    int top = c->q->top;
    c->res->models_kept = top;
    memcpy(c->res->kept, kept, sizeof(int) * (size_t)top);
    memcpy(c->res->model_score, score, sizeof(double) * (size_t)c->g->cfg.models);
    memcpy(models, kept, sizeof(int) * (size_t)top);
    qsort(models, (size_t)top, sizeof(int), cmp_i32); /* int is int32_t here */
    return top;
}

/* The contrastive sets of this query from its phase-2 ranking and the person's feedback:
 * E_pos = the known members plus, when nothing was accepted, the ranking's first entities
 * (pseudo-positives: accepted entities replace these guesses); E_neg = the ranking's band,
 * the rejected entities and the background negatives. */
static void query_sets(call *c, const int64_t *ranked, int n, cl_sets *s) {
    engine_result *res = c->res;
    cl_bounds b = c->q->bounds;
    if (has_accepted(c)) b.thr_pos = 1;
    cl_sets_init(s);
    cl_sets_add_query(s, c->members, c->nmembers, ranked, n, &b);
    for (int i = 0; i < res->nnegatives; i++) cl_sets_add_neg(s, res->negatives[i]);
    int64_t want = s->n_neg + c->q->background;
    for (int64_t i = 0; i < c->g->idx.ent.n && s->n_neg < want; i++) cl_sets_add_neg(s, c->g->background[i]);
    res->n_pos = (int)s->n_pos;
    res->n_neg = (int)s->n_neg;
}

/* The query's own context features: the models[0..nm-1] (or all K with an ensemble) reweighted
 * by the features the known members share, then re-selected select_rounds times on them plus the
 * top select_grow of the reweighted expansion (SetExpan's iteration), scored against the
 * others and the rejected (seed_features.h); the refinements into sf[]. */
static void select_features(call *c, int ensemble, const seedfeat_opts *feat, const seedfeat_set *others,
                            const seedfeat_set *rejected, int *models, int *nm, pattern_refinement **sf) {
    const engine_request *q = c->q;
    int K = ensemble ? c->g->cfg.models : 1;
    int64_t *set = xmalloc(sizeof(int64_t) * (size_t)(c->nmembers + q->select_grow + 1));
    memcpy(set, c->members, sizeof(int64_t) * (size_t)c->nmembers);
    int nset = c->nmembers;
    for (int round = 0;; round++) {
        for (int k = 0; k < K; k++) {
            pattern_refinement_free(sf[k]);
            sf[k] = seedfeat_refinement(c->g->m[k], &(seedfeat_set){set, nset}, others, rejected, feat);
        }
        if (ensemble) *nm = ensemble_models(c, sf, models);
        if (round == q->select_rounds) break;
        int64_t *ranked;
        int n = search_and_rerank(c, models, *nm, sf, q->select_size, &ranked, NULL);
        nset = c->nmembers;
        for (int i = 0; i < n && i < q->select_grow; i++) set[nset++] = ranked[i];
        free(ranked);
    }
    free(set);
}

/* The seeds' row scores of the mean of models[0..k-1] (refined by ref or not) into
 * row_score[0..members): for each known member a, the mean over the other members s of s's
 * reciprocal rank in r(a) among s and the entities that are not members (ties count against
 * s), in (0, 1], higher = a finds the others first (refine_check.h). O(members^2 + members x
 * row length). */
static void members_holdout_rows(call *c, const int *models, int k, pattern_refinement *const *ref, double *row_score) {
    model_rows r;
    rows_init(&r, c->g, models, k, ref, c->scratch, c->mark);
    for (int i = 0; i < c->nmembers; i++) {
        const sparse_row *row = r.getter.get(r.getter.ctx, c->members[i]);
        int64_t listed_members = 0; /* members among the listed columns, for the background's count */
        for (int64_t q = 0; q < row->nnz; q++) listed_members += row_list_contains(c->members, c->nmembers, row->col[q]);
        double total = 0;
        for (int j = 0; j < c->nmembers; j++) {
            if (j == i) continue;
            float v = sparse_row_at(row, c->members[j]);
            int64_t above = 0;
            for (int64_t q = 0; q < row->nnz; q++)
                above += row->val[q] >= v && !row_list_contains(c->members, c->nmembers, row->col[q]);
            if (row->background >= v) above += row->n - row->nnz - (c->nmembers - listed_members);
            total += 1.0 / (1.0 + (double)above);
        }
        row_score[i] = total / (c->nmembers - 1);
    }
    rows_free(&r);
}

/* The entities whose own definitions name the set's heads (genus_agreement_candidates), the
 * rejected ones left out: the final search's extra candidates; their count into *n. */
static int64_t *genus_candidates(const call *c, int *n) {
    int64_t *cand = xmalloc(sizeof(int64_t) * (ENGINE_GENUS_POOL + 1));
    int k = genus_agreement_candidates(&c->g->genus, c->members, c->nmembers, c->res->negatives, c->res->nnegatives,
                                       c->g->idx.mentions, cand, ENGINE_GENUS_POOL);
    *n = k;
    return cand;
}

/* items[0..n) in the order order[0..n) (positions in the old order). */
static void reorder_items(engine_item *items, int n, const int *order) {
    engine_item *was = xmalloc(sizeof *was * (size_t)(n + 1));
    memcpy(was, items, sizeof *was * (size_t)n);
    for (int i = 0; i < n; i++) items[i] = was[order[i]];
    free(was);
}

/* The final ranking items[0..n) re-ranked by the candidates' own definitions against the
 * set's (genus_agreement.h), then cut to size; returns the new n. */
static int rerank_by_genus(const call *c, engine_item *items, int n, int size) {
    int *order = xmalloc(sizeof(int) * (size_t)(n + 1));
    int64_t *rows = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) rows[i] = items[i].row;
    if (genus_agreement_order(&c->g->genus, c->members, c->nmembers, rows, n, c->q->genus_agreement, order))
        reorder_items(items, n, order);
    free(rows);
    free(order);
    return n < size ? n : size;
}

/* Whether the genus re-ranking applies to the context ranking items[0..n): the gate of
 * engine.h (genus_gate) over its first ENGINE_GENUS_GATE_LIST entities. */
static int genus_gate_open(const call *c, const engine_item *items, int n) {
    int64_t rows[ENGINE_GENUS_GATE_LIST];
    int k = n < ENGINE_GENUS_GATE_LIST ? n : ENGINE_GENUS_GATE_LIST;
    for (int i = 0; i < k; i++) rows[i] = items[i].row;
    double share = genus_agreement_list_share(&c->g->genus, c->members, c->nmembers, rows, k);
    c->res->genus_share = share;
    return c->q->genus_gate >= 1 || (share >= 0 && share < c->q->genus_gate);
}

/* The ranking rules that move entities of the final ranking items[0..n) to its end: the
 * place-in-place rule (located_pairs.h), then the modifier rule (noun_slots.h). */
static void demote_peers(const call *c, engine_item *items, int n) {
    const corpus_index *x = &c->g->idx;
    int *order = xmalloc(sizeof(int) * (size_t)(n + 1));
    int64_t *rows = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) rows[i] = items[i].row;
    if (located_pairs_demote(&x->located, x->mentions, c->members, c->nmembers, rows, n, c->q->located_share, order)) {
        reorder_items(items, n, order);
        for (int i = 0; i < n; i++) rows[i] = items[i].row;
    }
    if (noun_slots_demote(x->noun_slots, x->mentions, c->members, c->nmembers, rows, n, c->q->modifier_ratio, order))
        reorder_items(items, n, order);
    free(rows);
    free(order);
}

static double thread_cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int engine_query(const engine *g, const engine_request *q, engine_result *out, char *err, size_t errlen) {
    double t0 = now_seconds(), c0 = thread_cpu_seconds();
    memset(out, 0, sizeof *out);
    call c = {g, q, out, NULL, 0, -1, NULL, NULL, NULL, 0};
    out->genus_share = -1;
    char msg[1200];
    int bad = check_request(g, q, out, &c.members, &c.nmembers, err, errlen);
    if (!bad && q->explain && (c.explain = resolve_one(g, q->explain, q->by_eid, msg, sizeof msg)) < 0)
        bad = fail(err, errlen, "entity to explain: %s", msg);
    if (bad) {
        free(c.members);
        engine_result_free(out);
        return -1;
    }
    c.scratch = pattern_scratch_new(g->m[0]);
    c.mark = xmalloc(sizeof(int32_t) * (size_t)(g->idx.ent.n + 1));
    for (int64_t e = 0; e < g->idx.ent.n; e++) c.mark[e] = -1;
    int K = g->cfg.models, models[ENGINE_MAX_MODELS], nm = 1;
    int contrastive = q->variant == ENGINE_FULL || q->variant == ENGINE_NOEN;
    int ensemble = q->variant == ENGINE_FULL || q->variant == ENGINE_NOCL;
    models[0] = 0;
    out->models_kept = 1;
    if (ensemble) nm = ensemble_models(&c, NULL, models);
    pattern_refinement *ref[ENGINE_MAX_MODELS] = {0}, *sf[ENGINE_MAX_MODELS] = {0};
    seedfeat_set others = engine_select_others(g, q);
    seedfeat_set rejected = {out->negatives, out->nnegatives};
    seedfeat_opts feat = engine_select_opts(q, c.nmembers - out->nseeds);
    if (q->select) select_features(&c, ensemble, &feat, &others, &rejected, models, &nm, sf);
    /* the unrefined ensemble, kept for the check */
    int unref_models[ENGINE_MAX_MODELS], unref_nm = nm, unref_kept[ENGINE_MAX_MODELS];
    double unref_score[ENGINE_MAX_MODELS];
    memcpy(unref_models, models, sizeof models);
    memcpy(unref_kept, out->kept, sizeof unref_kept);
    memcpy(unref_score, out->model_score, sizeof unref_score);
    int unref_kept_n = out->models_kept;
    int check = contrastive && q->refine_check && !has_accepted(&c) && q->bounds.thr_pos > 2;
    out->refinement_used = contrastive;
    if (contrastive && !budget_spent()) {
        int64_t *ranked2;
        int n2 = search_and_rerank(&c, models, nm, q->select ? sf : NULL, q->phase2_size, &ranked2, NULL);
        cl_sets s;
        query_sets(&c, ranked2, n2, &s);
        free(ranked2);
        pattern_class_sets cs = {s.pos, s.neg, s.n_pos, s.n_neg};
        if (check) { /* the seeds are held out of E_pos: the check scores the refinement on them */
            cs.pos += c.nmembers;
            cs.n_pos -= c.nmembers;
        }
        pattern_contrast_opts contrast = q->contrast;
        if (has_accepted(&c)) contrast.steps = q->accepted_steps;
        for (int k = 0; k < (ensemble ? K : 1); k++) {
            ref[k] = pattern_model_refine(g->m[k], &cs, 1, &contrast, k ? NULL : &out->loss_before,
                                          k ? NULL : &out->loss_after);
            if (q->select) { /* the contrastive weights times the query's feature weights */
                pattern_refinement *both = pattern_refinement_product(g->m[k], ref[k], sf[k]);
                pattern_refinement_free(ref[k]);
                ref[k] = both;
            }
        }
        cl_sets_free(&s);
        if (ensemble) nm = ensemble_models(&c, ref, models);
        if (check) { /* the candidate the seeds prefer (refine_check.h); ties: the simpler one */
            const int first[1] = {0};
            int n = c.nmembers;
            double *rows = out->holdout_seeds = xmalloc(sizeof(double) * (size_t)(REFINE_CHECK_CANDIDATES * n));
            const double *cand[REFINE_CHECK_CANDIDATES] = {rows, rows + n, rows + 2 * n};
            members_holdout_rows(&c, first, 1, q->select ? sf : NULL, rows);
            if (ensemble) members_holdout_rows(&c, unref_models, unref_nm, q->select ? sf : NULL, rows + n);
            else memcpy(rows + n, rows, sizeof(double) * (size_t)n);
            members_holdout_rows(&c, models, nm, ref, rows + 2 * n);
            int chosen = refine_check_choice(cand, n);
            if (chosen != REFINE_CHECK_REFINED) { /* an unrefined candidate answers */
                out->refinement_used = 0;
                if (chosen == REFINE_CHECK_ENSEMBLE) {
                    nm = unref_nm;
                    memcpy(models, unref_models, sizeof models);
                    out->models_kept = unref_kept_n;
                    memcpy(out->kept, unref_kept, sizeof unref_kept);
                    memcpy(out->model_score, unref_score, sizeof unref_score);
                } else { /* model 1 alone */
                    nm = 1;
                    models[0] = 0;
                    out->models_kept = 1;
                    out->kept[0] = 0;
                }
            }
        }
    }
    if (!budget_spent()) {
        int64_t *ranked;
        pattern_refinement *const *final = out->refinement_used ? ref : q->select ? sf : NULL;
        out->n = search_and_rerank(&c, models, nm, final, q->size, &ranked, &out->items);
        free(ranked);
        if (q->genus_agreement > 0 && g->glossary && genus_gate_open(&c, out->items, out->n)) {
            /* the search redone with the definitions' candidates, longer, then re-ranked */
            free(out->items);
            out->items = NULL;
            int64_t *extra = genus_candidates(&c, &c.nextra);
            c.extra = extra;
            int pool = q->size < ENGINE_GENUS_POOL ? ENGINE_GENUS_POOL : q->size;
            out->n = search_and_rerank(&c, models, nm, final, pool, &ranked, &out->items);
            free(extra);
            free(ranked);
            out->n = rerank_by_genus(&c, out->items, out->n, q->size);
            out->genus_reranked = 1;
        }
        demote_peers(&c, out->items, out->n);
    }
    for (int k = 0; k < K; k++) pattern_refinement_free(sf[k]);
    for (int k = 0; k < K; k++) pattern_refinement_free(ref[k]);
    pattern_scratch_free(c.scratch);
    free(c.mark);
    free(c.members);
    out->seconds = now_seconds() - t0;
    out->cpu_seconds = thread_cpu_seconds() - c0;
    if (budget_spent()) { /* some phase ended short: no ranking */
        snprintf(err, errlen, "%s", budget_reason());
        engine_result_free(out);
        return ENGINE_STOPPED;
    }
    return 0;
}

void engine_result_free(engine_result *r) {
    free(r->seeds);
    free(r->negatives);
    free(r->accepted);
    free(r->items);
    free(r->holdout_seeds);
    memset(r, 0, sizeof *r);
}
