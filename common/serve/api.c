/* api: handlers of the JSON API of `probexpan serve` (contract in api.h). */
#include "serve/api.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/row_list.h"
#include "format/tsv.h"
#include "model/class_report.h"
#include "method/confidence_cut.h"
#include "model/set_name.h"
#include "serve/why.h"

#define JSON_TYPE "application/json; charset=utf-8"
#define SUGGESTIONS 5

static void expand_result_free(expand_result *r) {
    free(r->rows);
    free(r->score);
    free(r->figures);
    memset(r, 0, sizeof *r);
}

void api_respond_json(api_response *r, int status, json_t *v) {
    r->status = status;
    r->body = json_dumps(v, JSON_COMPACT);
    if (!r->body) die("out of memory writing a JSON response");
    r->len = strlen(r->body);
    r->content_type = JSON_TYPE;
    r->filename = NULL;
    json_decref(v);
}

static json_t *error_object(int status, const char *message) {
    json_t *e = json_object();
    json_object_set_new(e, "status", json_integer(status));
    /* messages quote request text, already checked to be UTF-8; json_string refuses anything else */
    json_t *m = json_string(message);
    json_object_set_new(e, "message", m ? m : json_string("(message not UTF-8)"));
    return e;
}

static void respond_error(api_response *r, int status, const char *message, json_t *suggestions) {
    json_t *e = error_object(status, message);
    if (suggestions) json_object_set_new(e, "suggestions", suggestions);
    json_t *root = json_object();
    json_object_set_new(root, "error", e);
    api_respond_json(r, status, root);
}

void api_error(api_response *r, int status, const char *message) { respond_error(r, status, message, NULL); }

/* {"eid": .., "name": ..} of a row. */
static json_t *entity_brief(const lexicon *x, int64_t row) {
    json_t *o = json_object();
    json_object_set_new(o, "eid", json_integer(lexicon_eid(x, row)));
    json_object_set_new(o, "name", json_string(lexicon_name(x, row)));
    return o;
}

static json_t *entity_full(const lexicon *x, int64_t row) {
    json_t *o = entity_brief(x, row), *aliases = json_array();
    for (int a = 0; a < lexicon_alias_count(x, row); a++) json_array_append_new(aliases, json_string(lexicon_alias(x, row, a)));
    json_object_set_new(o, "aliases", aliases);
    json_object_set_new(o, "mentions", json_integer(lexicon_mentions(x, row)));
    return o;
}

/* ---- GET /api/info ---- */

void api_info(const serve_ctx *c, const query_param *p, int n, api_response *r) {
    static const char *const allowed[] = {NULL};
    char err[REQUEST_ERR];
    int rc = request_params_check(p, n, allowed, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    json_t *root = json_object(), *variants = json_array(), *figs = json_array();
    for (int v = 0; v < VARIANT_COUNT; v++)
        if (c->expander.available[v]) json_array_append_new(variants, json_string(variant_names[v]));
    for (int k = 0; k < c->expander.nfigures; k++) json_array_append_new(figs, json_string(c->expander.figure_names[k]));
    json_object_set_new(root, "entities", json_integer(lexicon_entities(c->lex)));
    json_object_set_new(root, "variants", variants);
    json_object_set_new(root, "default_variant", json_string(variant_names[c->expander.default_variant]));
    json_object_set_new(root, "figures", figs);
    json_object_set_new(root, "max_size", json_integer(REQUEST_MAX_SIZE));
    json_object_set_new(root, "names", json_boolean(c->names != NULL));
    api_respond_json(r, 200, root);
}

/* ---- GET /api/entities ---- */

void api_entities(const serve_ctx *c, const query_param *p, int n, api_response *r) {
    static const char *const allowed[] = {"prefix", "limit", NULL};
    char err[REQUEST_ERR];
    int limit, rc = request_params_check(p, n, allowed, err, sizeof err);
    if (!rc) rc = request_param_int(p, n, "limit", 20, 1, 1000, &limit, err, sizeof err);
    const char *prefix = request_param_get(p, n, "prefix");
    if (!prefix) prefix = "";
    if (!rc && strlen(prefix) > REQUEST_MAX_NAME) rc = 400, snprintf(err, sizeof err, "prefix: longer than %d bytes", REQUEST_MAX_NAME);
    if (rc) { api_error(r, rc, err); return; }
    int64_t *rows = xmalloc(sizeof(int64_t) * (size_t)limit), total;
    int k = lexicon_search(c->lex, prefix, limit, rows, &total);
    json_t *list = json_array(), *root = json_object();
    for (int i = 0; i < k; i++) json_array_append_new(list, entity_full(c->lex, rows[i]));
    free(rows);
    json_object_set_new(root, "prefix", json_string(prefix));
    json_object_set_new(root, "total", json_integer(total));
    json_object_set_new(root, "entities", list);
    api_respond_json(r, 200, root);
}

/* ---- entity references -> rows ---- */

/* Resolves list[0..n-1] into rows (duplicates dropped); on failure writes the error response
 * and returns its status. */
static int resolve_refs(const lexicon *x, const entity_ref *list, int n, const char *field, int64_t *rows, int *nrows,
                        api_response *r) {
    char msg[REQUEST_ERR + REQUEST_MAX_NAME];
    *nrows = 0;
    for (int i = 0; i < n; i++) {
        int64_t row;
        if (!list[i].name) {
            row = lexicon_row_of_eid(x, list[i].eid);
            if (row < 0) {
                snprintf(msg, sizeof msg, "%s[%d]: no entity with eid %lld in this run", field, i, (long long)list[i].eid);
                respond_error(r, 422, msg, NULL);
                return 422;
            }
        } else {
            int64_t close[SUGGESTIONS];
            int nclose;
            row = lexicon_resolve(x, list[i].name, close, SUGGESTIONS, &nclose);
            if (row < 0) {
                snprintf(msg, sizeof msg, row == -1 ? "%s[%d]: unknown entity \"%.200s\"" : "%s[%d]: \"%.200s\" names several entities; give the eid",
                         field, i, list[i].name);
                json_t *s = json_array();
                for (int k = 0; k < nclose; k++) json_array_append_new(s, entity_brief(x, close[k]));
                respond_error(r, 422, msg, s);
                return 422;
            }
        }
        int dup = 0;
        for (int k = 0; k < *nrows && !dup; k++) dup = rows[k] == row;
        if (!dup) rows[(*nrows)++] = row;
    }
    return 0;
}

/* GET /api/resolve?name=..: the entity a typed name means, resolved as the seeds of an
 * expansion are (lexicon_resolve); when it names none or several, entity null and the
 * closest names, or the entities it names, as suggestions. A question, not an error: 200. */
void api_resolve(const serve_ctx *c, const query_param *p, int n, api_response *r) {
    static const char *const allowed[] = {"name", NULL};
    char err[REQUEST_ERR];
    int rc = request_params_check(p, n, allowed, err, sizeof err);
    const char *name = request_param_get(p, n, "name");
    if (!rc && (!name || !name[0])) rc = 400, snprintf(err, sizeof err, "name: missing");
    if (!rc && strlen(name) > REQUEST_MAX_NAME) rc = 400, snprintf(err, sizeof err, "name: longer than %d bytes", REQUEST_MAX_NAME);
    if (rc) { api_error(r, rc, err); return; }
    int64_t close[SUGGESTIONS];
    int nclose = 0;
    int64_t row = lexicon_resolve(c->lex, name, close, SUGGESTIONS, &nclose);
    json_t *root = json_object(), *s = json_array();
    if (row < 0)
        for (int k = 0; k < nclose; k++) json_array_append_new(s, entity_brief(c->lex, close[k]));
    json_object_set_new(root, "name", json_string(name));
    json_object_set_new(root, "entity", row >= 0 ? entity_full(c->lex, row) : json_null());
    json_object_set_new(root, "ambiguous", json_boolean(row == -2));
    json_object_set_new(root, "suggestions", s);
    api_respond_json(r, 200, root);
}

typedef struct {
    int64_t seeds[REQUEST_MAX_LIST], accepted[REQUEST_MAX_LIST], negatives[REQUEST_MAX_LIST];
    int64_t members[2 * REQUEST_MAX_LIST]; /* the seeds, then the accepted entities that are not seeds */
    int nmembers;
    expand_job job;
    expand_result res;
    double ms;
    set_name name; /* what the set's seeds and accepted entities share */
    confidence_cut cut; /* where the list's confidence drops */
    int64_t *shared_all, *shared_any; /* per listed entity: context features it shares with all members, with one */
} expansion;

static void expansion_free(expansion *x) {
    expand_result_free(&x->res);
    free(x->shared_all);
    free(x->shared_any);
    free(x);
}

/* Where x's confidence drops (confidence_cut.h) on its kl_score figure (none: nothing drops);
 * with "cut": "auto" the list keeps only the entities above it. */
static void cut_expansion(const serve_expander *ex, expansion *x, int keep_above) {
    int k = 0;
    while (k < ex->nfigures && strcmp(ex->figure_names[k], "kl_score")) k++;
    double *curve = xcalloc((size_t)x->res.n + 1, sizeof(double));
    for (int i = 0; i < x->res.n && k < ex->nfigures; i++) curve[i] = x->res.figures[(size_t)i * (size_t)ex->nfigures + (size_t)k];
    confidence_cut_find(&x->cut, curve, x->res.n, CONFIDENCE_CUT_FRACTION);
    free(curve);
    if (keep_above) x->res.n = x->cut.above;
}

/* Resolves and runs q (placing row `explain` too, when >= 0); 0, or the status of the error
 * response written into r. */
static int run_expansion(const serve_ctx *c, const expand_request *q, int64_t explain, expansion *x, api_response *r) {
    expand_job *j = &x->job;
    memset(j, 0, sizeof *j);
    j->explain = explain;
    int rc = resolve_refs(c->lex, q->seeds, q->nseeds, "seeds", x->seeds, &j->nseeds, r);
    if (!rc) rc = resolve_refs(c->lex, q->accepted, q->naccepted, "accepted", x->accepted, &j->naccepted, r);
    if (!rc) rc = resolve_refs(c->lex, q->negatives, q->nnegatives, "negative_seeds", x->negatives, &j->nnegatives, r);
    if (rc) return rc;
    char err[REQUEST_ERR + REQUEST_MAX_NAME];
    for (int i = 0; i < j->nnegatives; i++)
        if (row_list_contains(x->seeds, j->nseeds, x->negatives[i]) || row_list_contains(x->accepted, j->naccepted, x->negatives[i])) {
            snprintf(err, sizeof err, "\"%.200s\" (eid %lld) is both a seed and a negative seed",
                     lexicon_name(c->lex, x->negatives[i]), (long long)lexicon_eid(c->lex, x->negatives[i]));
            api_error(r, 422, err);
            return 422;
        }
    if (j->nseeds + j->naccepted < 2) {
        api_error(r, 422, "seeds: at least two distinct entities are needed (seeds and accepted together)");
        return 422;
    }
    j->seeds = x->seeds;
    j->accepted = x->accepted;
    j->negatives = x->negatives;
    j->size = q->size;
    j->variant = q->variant;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = c->expansion_begin ? c->expansion_begin(err, sizeof err) : 0;
    if (!rc) {
        rc = c->expander.run(c->expander.state, j, &x->res, err, sizeof err);
        if (c->expansion_end) c->expansion_end();
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    x->ms = 1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (rc) {
        api_error(r, rc, err);
        return rc;
    }
    cut_expansion(&c->expander, x, q->cut_auto);
    x->nmembers = why_members(x->seeds, j->nseeds, x->accepted, j->naccepted, x->members);
    set_name_find(&x->name, c->heads, c->text, x->members, x->nmembers, x->res.rows, x->res.n);
    x->shared_all = xmalloc(sizeof(int64_t) * (size_t)(x->res.n + 1));
    x->shared_any = xmalloc(sizeof(int64_t) * (size_t)(x->res.n + 1));
    ties_shared_counts(engine_model(ties_engine(c->ties)), x->members, x->nmembers, x->res.rows, x->res.n, x->shared_all,
                       x->shared_any);
    return 0;
}

/* A figure: an integer when it is one (orders, ranks), else a real; null when not finite. */
static json_t *figure_json(double v) {
    if (!isfinite(v)) return json_null();
    return v == (double)(int64_t)v && v > -1e15 && v < 1e15 ? json_integer((json_int_t)v) : json_real(v);
}

static json_t *brief_list(const lexicon *x, const int64_t *rows, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++) json_array_append_new(a, entity_brief(x, rows[i]));
    return a;
}

static json_t *expansion_json(const serve_ctx *c, const expansion *x) {
    const serve_expander *ex = &c->expander;
    json_t *root = json_object(), *list = json_array(), *figs = json_array();
    json_object_set_new(root, "variant", json_string(variant_names[x->job.variant]));
    json_object_set_new(root, "size", json_integer(x->job.size));
    json_object_set_new(root, "seeds", brief_list(c->lex, x->job.seeds, x->job.nseeds));
    json_object_set_new(root, "accepted", brief_list(c->lex, x->job.accepted, x->job.naccepted));
    json_object_set_new(root, "negative_seeds", brief_list(c->lex, x->job.negatives, x->job.nnegatives));
    for (int k = 0; k < ex->nfigures; k++) json_array_append_new(figs, json_string(ex->figure_names[k]));
    json_object_set_new(root, "figures", figs);
    json_object_set_new(root, "set_name", set_name_json(&x->name));
    json_object_set_new(root, "cut", confidence_cut_json(&x->cut));
    for (int i = 0; i < x->res.n; i++) {
        json_t *e = entity_brief(c->lex, x->res.rows[i]);
        json_object_set_new(e, "rank", json_integer(i + 1));
        json_object_set_new(e, "status", json_string("candidate"));
        json_object_set_new(e, "mentions", json_integer(lexicon_mentions(c->lex, x->res.rows[i])));
        json_object_set_new(e, "score", figure_json(x->res.score[i]));
        for (int k = 0; k < ex->nfigures; k++)
            json_object_set_new(e, ex->figure_names[k], figure_json(x->res.figures[(size_t)i * (size_t)ex->nfigures + (size_t)k]));
        json_t *heads = json_array(); /* the set's heads this entity's definitions call it */
        for (int h = 0; h < x->name.n; h++)
            if (genus_heads_count(c->heads, x->res.rows[i], x->name.heads[h].feature) > 0)
                json_array_append_new(heads, json_string(x->name.words[h]));
        json_object_set_new(e, "heads", heads);
        json_object_set_new(e, "shared_all", json_integer(x->shared_all[i]));
        json_object_set_new(e, "shared_any", json_integer(x->shared_any[i]));
        json_array_append_new(list, e);
    }
    json_object_set_new(root, "entities", list);
    json_object_set_new(root, "elapsed_ms", json_real(x->ms));
    return root;
}

/* ---- POST /api/expand ---- */

void api_expand(const serve_ctx *c, const char *body, size_t len, api_response *r) {
    char err[REQUEST_ERR];
    expand_request q;
    int rc = expand_request_from_json(body, len, &q, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    expansion *x = xcalloc(1, sizeof *x);
    if (!run_expansion(c, &q, -1, x, r)) api_respond_json(r, 200, expansion_json(c, x));
    expansion_free(x);
    expand_request_free(&q);
}

/* ---- GET /api/export ---- */

/* Rows without a rank (seeds, accepted and rejected entities). */
static void tsv_rows(FILE *f, const lexicon *lex, const int64_t *rows, int n, const char *status, int nfigures) {
    for (int i = 0; i < n; i++) {
        fprintf(f, "\t%lld\t", (long long)lexicon_eid(lex, rows[i]));
        tsv_field(f, lexicon_name(lex, rows[i]));
        fprintf(f, "\t%s\t", status);
        for (int k = 0; k < nfigures + 3; k++) fputc('\t', f); /* the figures, above_cut, shared_all, shared_any */
        fputc('\n', f);
    }
}

static void export_tsv(const serve_ctx *c, const expansion *x, api_response *r) {
    const serve_expander *ex = &c->expander;
    size_t size = 0;
    FILE *f = open_memstream(&r->body, &size);
    if (!f) die_errno("open_memstream");
    fprintf(f, "rank\teid\tname\tstatus\tscore");
    for (int k = 0; k < ex->nfigures; k++) fprintf(f, "\t%s", ex->figure_names[k]);
    fputs("\tabove_cut\tshared_all\tshared_any\n", f);
    tsv_rows(f, c->lex, x->job.seeds, x->job.nseeds, "seed", ex->nfigures);
    tsv_rows(f, c->lex, x->job.accepted, x->job.naccepted, "accepted", ex->nfigures);
    for (int i = 0; i < x->res.n; i++) {
        fprintf(f, "%d\t%lld\t", i + 1, (long long)lexicon_eid(c->lex, x->res.rows[i]));
        tsv_field(f, lexicon_name(c->lex, x->res.rows[i]));
        fprintf(f, "\tcandidate\t%.6g", x->res.score[i]);
        for (int k = 0; k < ex->nfigures; k++) fprintf(f, "\t%.6g", x->res.figures[(size_t)i * (size_t)ex->nfigures + (size_t)k]);
        fprintf(f, "\t%d\t%lld\t%lld\n", i < x->cut.above, (long long)x->shared_all[i], (long long)x->shared_any[i]);
    }
    tsv_rows(f, c->lex, x->job.negatives, x->job.nnegatives, "rejected", ex->nfigures);
    if (x->name.n) { /* the last line, a comment: readers of the rows (by status) skip it */
        char text[SET_NAME_HEADS * (FEATURE_TEXT + 64)];
        set_name_text(&x->name, text, sizeof text);
        fputs("# these look like: ", f);
        tsv_field(f, text);
        fputc('\n', f);
    }
    if (fclose(f)) die_errno("open_memstream");
    r->status = 200;
    r->len = size;
    r->content_type = "text/tab-separated-values; charset=utf-8";
}

void api_export(const serve_ctx *c, const query_param *p, int n, api_response *r) {
    char err[REQUEST_ERR];
    expand_request q;
    int rc = expand_request_from_params(p, n, &q, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    expansion *x = xcalloc(1, sizeof *x);
    if (!run_expansion(c, &q, -1, x, r)) {
        if (q.format == EXPORT_JSON) {
            api_respond_json(r, 200, expansion_json(c, x));
            r->filename = "expansion.json";
        } else {
            export_tsv(c, x, r);
            r->filename = "expansion.tsv";
        }
    }
    expansion_free(x);
    expand_request_free(&q);
}

/* ---- GET /api/entity/{eid}/contexts ---- */

static json_t *contexts_json(const lexicon *lex, int64_t row, int limit) {
    lexicon_context ctx[LEXICON_CONTEXTS];
    int k = lexicon_contexts(lex, row, ctx, limit);
    json_t *list = json_array();
    for (int i = 0; i < k; i++) {
        json_t *o = json_object(), *tokens = json_array();
        const char *t = ctx[i].tokens;
        for (int w = 0; w < ctx[i].ntokens; w++, t += strlen(t) + 1) json_array_append_new(tokens, json_string(t));
        json_object_set_new(o, "line", json_integer(ctx[i].line));
        json_object_set_new(o, "tokens", tokens);
        json_object_set_new(o, "start", json_integer(ctx[i].start));
        json_object_set_new(o, "end", json_integer(ctx[i].end));
        json_array_append_new(list, o);
    }
    return list;
}

/* The features tying row to the seeds, best first, into root. */
static void ties_json(const ties *t, int64_t row, const int64_t *seeds, int nseeds, int limit, json_t *root) {
    ties_result tr;
    ties_explain(t, row, seeds, nseeds, limit, &tr);
    json_t *list = json_array();
    for (int i = 0; i < tr.n; i++) json_array_append_new(list, why_feature_json(&tr, i, "contribution"));
    json_object_set_new(root, "similarity", nseeds ? json_real(tr.similarity) : json_null());
    json_object_set_new(root, "shared_features", json_integer(tr.shared));
    json_object_set_new(root, "features", list);
    ties_result_free(&tr);
}

void api_contexts(const serve_ctx *c, int64_t eid, const query_param *p, int n, api_response *r) {
    char err[REQUEST_ERR];
    contexts_request q;
    int rc = contexts_request_from_params(p, n, LEXICON_CONTEXTS, &q, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    int64_t row = lexicon_row_of_eid(c->lex, eid), seeds[REQUEST_MAX_LIST];
    int nseeds;
    if (row < 0) {
        snprintf(err, sizeof err, "no entity with eid %lld in this run", (long long)eid);
        api_error(r, 404, err);
    } else if (!resolve_refs(c->lex, q.seeds, q.nseeds, "seed", seeds, &nseeds, r)) {
        json_t *root = entity_full(c->lex, row);
        json_object_set_new(root, "contexts", contexts_json(c->lex, row, q.limit));
        json_object_set_new(root, "seeds", brief_list(c->lex, seeds, nseeds));
        ties_json(c->ties, row, seeds, nseeds, q.features, root);
        api_respond_json(r, 200, root);
    }
    contexts_request_free(&q);
}

/* ---- GET /api/entity/{eid}/why ---- */

void api_why(const serve_ctx *c, int64_t eid, const query_param *p, int n, api_response *r) {
    char err[REQUEST_ERR];
    expand_request q;
    int features, rc = why_request_from_params(p, n, &q, &features, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    int64_t row = lexicon_row_of_eid(c->lex, eid);
    if (row < 0) {
        snprintf(err, sizeof err, "no entity with eid %lld in this run", (long long)eid);
        api_error(r, 404, err);
        expand_request_free(&q);
        return;
    }
    expansion *x = xcalloc(1, sizeof *x);
    if (!run_expansion(c, &q, row, x, r)) {
        engine_request dflt = engine_request_defaults(); /* the feature selection as the expansion ran it */
        int accepted = x->nmembers - x->job.nseeds;
        seedfeat_opts o = engine_select_opts(&dflt, accepted);
        seedfeat_set others = engine_select_others(ties_engine(c->ties), &dflt);
        why_set s = {x->members, x->nmembers, accepted, x->negatives, x->job.nnegatives};
        json_t *root = why_json(c->ties, &x->res.place, &s, &o, &others, features);
        json_object_set_new(root, "variant", json_string(variant_names[x->job.variant]));
        json_object_set_new(root, "size", json_integer(x->job.size));
        json_object_set_new(root, "elapsed_ms", json_real(x->ms));
        api_respond_json(r, 200, root);
    }
    expansion_free(x);
    expand_request_free(&q);
}

/* ---- GET /api/classes ---- */

void class_cache_free(class_cache *c) {
    free(c->body);
    c->body = NULL;
    pthread_mutex_destroy(&c->lock);
}

void api_classes(const serve_ctx *c, const query_param *p, int n, api_response *r) {
    static const char *const allowed[] = {NULL};
    char err[REQUEST_ERR];
    int rc = request_params_check(p, n, allowed, err, sizeof err);
    if (rc) { api_error(r, rc, err); return; }
    class_cache *cc = c->classes;
    pthread_mutex_lock(&cc->lock);
    if (!cc->body) {
        class_options o = class_options_defaults();
        class_proposal *props;
        int k = class_proposals_build(c->index, c->heads, &o, &props);
        json_t *j = class_report_json(c->index, c->heads, props, k, c->text);
        cc->body = json_dumps(j, JSON_COMPACT);
        json_decref(j);
        if (!cc->body) die("out of memory writing a JSON response");
        cc->len = strlen(cc->body);
        class_proposals_free(props, k);
    }
    pthread_mutex_unlock(&cc->lock);
    r->status = 200;
    r->body = xmalloc(cc->len + 1);
    memcpy(r->body, cc->body, cc->len + 1);
    r->len = cc->len;
    r->content_type = JSON_TYPE;
    r->filename = NULL;
}
