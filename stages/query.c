/* query: the whole ProbExpan method for one seed set, in one process, from a corpus index
 * (`probexpan index`): phase-1 pattern models reweighted by the context features the seeds share
 * (SetExpan's feature selection, --select), model selection and ensemble, window search,
 * the contrastive sets of this set's own expansion, the refinement of every model on them,
 * selection and ensemble again, the final search and the re-ranking (common/engine/engine.h).
 * Prints the ranking as TSV or JSON on stdout, with the set's name (the definition heads the
 * seeds share, common/model/set_name.h: in the JSON; beside the TSV on standard error) when
 * --run gives the samples for the words, and where its confidence drops (common/method/
 * confidence_cut.h: the TSV's above_cut column, the JSON's "cut", a line on standard error;
 * --cut auto keeps only the entities above it), and, with --out, writes it as a `ranked`
 * artifact (evaluate, inspect). --why NAME prints instead where that answer places one more
 * entity and the context features it shares with the seeds or lacks (common/serve/why.h: the
 * JSON of serve's GET /api/entity/{eid}/why), its summary on standard error. Cost: loading the index and deriving the K models is
 * O(feature-entity pairs); the query is O(rows touched x their nonzeros + refinement steps x
 * features) — seconds on a corpus of ~8k entities; no E x E matrix. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifacts/corpus.h"
#include "artifacts/expansions.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/paths.h"
#include "base/log.h"
#include "base/sort.h"
#include "catalog/catalog.h"
#include "dataset/entitynames.h"
#include "dataset/queries.h"
#include "engine/engine.h"
#include "engine/refine_check.h"
#include "method/confidence_cut.h"
#include "model/set_name.h"
#include "serve/request.h"
#include "serve/why.h"

static void print_tsv(const engine_result *r, const confidence_cut *cut) {
    printf("rank\teid\tname\tscore\torder\tkl_rank\tkl_score\tsearch_score\tmentions\tabove_cut\n");
    for (int i = 0; i < r->n; i++) {
        const engine_item *it = &r->items[i];
        printf("%d\t%lld\t%s\t%.6g\t%d\t%d\t%.6g\t%.6g\t%lld\t%d\n", i + 1, (long long)it->eid, it->name, it->score, it->order,
               it->kl_rank, it->kl_score, it->search_score, (long long)it->mentions, i < cut->above);
    }
}

/* Where the confidence of answer r drops (confidence_cut.h, on its kl_score curve); with
 * `keep_above` the answer keeps only the entities above the cut. */
static void cut_answer(engine_result *r, double fraction, int keep_above, confidence_cut *cut) {
    double *curve = xmalloc(sizeof(double) * (size_t)(r->n + 1));
    for (int i = 0; i < r->n; i++) curve[i] = r->items[i].kl_score;
    confidence_cut_find(cut, curve, r->n, fraction);
    free(curve);
    if (keep_above) r->n = cut->above;
}

static json_t *entity_list(const corpus_index *x, const int64_t *rows, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:I,s:s}", "eid", (json_int_t)x->ent.eid[rows[i]], "name", x->ent.name[rows[i]]));
    return a;
}

/* The set's name of answer r, the words from the run's samples; NULL without them (--index). */
static json_t *query_set_name(const char *run, const engine *g, const engine_result *r) {
    const corpus_index *x = engine_index(g);
    char *samples_path = run ? xasprintf("%s/samples.mp", run) : NULL;
    json_t *j = NULL;
    if (samples_path && access(samples_path, R_OK) == 0) {
        feature_text *t = feature_text_open(x, samples_path);
        int64_t *set = xmalloc(sizeof(int64_t) * (size_t)(r->nseeds + r->naccepted + 1)),
                *list = xmalloc(sizeof(int64_t) * (size_t)(r->n + 1));
        memcpy(set, r->seeds, sizeof(int64_t) * (size_t)r->nseeds);
        memcpy(set + r->nseeds, r->accepted, sizeof(int64_t) * (size_t)r->naccepted);
        for (int i = 0; i < r->n; i++) list[i] = intmap_get(&x->row_of_eid, r->items[i].eid);
        set_name s;
        set_name_find(&s, engine_genus_heads(g), t, set, r->nseeds + r->naccepted, list, r->n);
        j = set_name_json(&s);
        free(set);
        free(list);
        feature_text_close(t);
    }
    free(samples_path);
    return j;
}

/* --why: where answer r (of request q) places its `explain` entity, with the features, as JSON
 * on stdout; the summary on standard error. */
static void print_why(const char *run, const engine *g, const engine_request *q, const engine_result *r, const char *variant) {
    char *samples_path = xasprintf("%s/samples.mp", run);
    if (access(samples_path, R_OK) != 0) die_input(samples_path, NULL, "missing: --why needs the samples the index was built from");
    feature_text *text = feature_text_open(engine_index(g), samples_path);
    ties *t = ties_open(g, text);
    int64_t *members = xmalloc(sizeof(int64_t) * (size_t)(r->nseeds + r->naccepted + 1));
    int n = why_members(r->seeds, r->nseeds, r->accepted, r->naccepted, members);
    why_set s = {members, n, n - r->nseeds, r->negatives, r->nnegatives};
    seedfeat_opts o = engine_select_opts(q, n - r->nseeds);
    seedfeat_set others = engine_select_others(g, q);
    json_t *j = why_json(t, &r->place, &s, &o, &others, REQUEST_DEFAULT_FEATURES);
    json_object_set_new(j, "variant", json_string(variant));
    json_object_set_new(j, "size", json_integer(q->size));
    json_dumpf(j, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
    putchar('\n');
    log_info("%s", json_string_value(json_object_get(j, "summary")));
    json_decref(j);
    free(members);
    ties_free(t);
    feature_text_close(text);
    free(samples_path);
}

static void print_json(const corpus_index *x, const engine_result *r, const char *variant, json_t *name,
                       const confidence_cut *cut) {
    json_t *items = json_array();
    for (int i = 0; i < r->n; i++) {
        const engine_item *it = &r->items[i];
        json_array_append_new(items, json_pack("{s:i,s:I,s:s,s:f,s:i,s:i,s:f,s:f,s:I}", "rank", i + 1, "eid",
                                               (json_int_t)it->eid, "name", it->name, "score", it->score, "order",
                                               it->order, "kl_rank", it->kl_rank, "kl_score", it->kl_score,
                                               "search_score", it->search_score, "mentions", (json_int_t)it->mentions));
    }
    json_t *kept = json_array();
    for (int i = 0; i < r->models_kept; i++) json_array_append_new(kept, json_integer(r->kept[i] + 1));
    json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:i,s:i,s:b,s:f,s:o}", "variant", variant, "seeds",
                          entity_list(x, r->seeds, r->nseeds), "negative_seeds", entity_list(x, r->negatives, r->nnegatives),
                          "accepted", entity_list(x, r->accepted, r->naccepted), "models_kept", kept, "positives", r->n_pos,
                          "negatives", r->n_neg, "refinement_used", r->refinement_used, "seconds", r->seconds, "entities",
                          items);
    if (name) json_object_set(o, "set_name", name);
    /* the check's scores per candidate: the mean ("holdout", 0 without the check) and each
     * member's row, its votes ("holdout_seeds", refine_check.h) */
    static const char *const cand[REFINE_CHECK_CANDIDATES] = {"model1", "ensemble", "refined"};
    int nmembers = r->nseeds + r->naccepted;
    json_t *holdout = json_object(), *votes = r->holdout_seeds ? json_object() : NULL;
    for (int c = 0; c < REFINE_CHECK_CANDIDATES; c++) {
        const double *row = r->holdout_seeds ? r->holdout_seeds + c * nmembers : NULL;
        json_object_set_new(holdout, cand[c], json_real(row ? refine_check_score(row, nmembers) : 0));
        if (!row) continue;
        json_t *each = json_array();
        for (int i = 0; i < nmembers; i++) json_array_append_new(each, json_real(row[i]));
        json_object_set_new(votes, cand[c], each);
    }
    json_object_set_new(o, "holdout", holdout);
    if (votes) json_object_set_new(o, "holdout_seeds", votes);
    json_object_set_new(o, "genus_share", json_real(r->genus_share));
    json_object_set_new(o, "genus_reranked", json_boolean(r->genus_reranked));
    json_object_set_new(o, "cut", confidence_cut_json(cut));
    json_dumpf(o, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
    putchar('\n');
    json_decref(o);
}

/* One answered query: its class, index within the class and result. */
typedef struct {
    const char *cls;
    int index;
    engine_result r;
} answer;

static void pack_answer(msgpack_packer *pk, const corpus_index *x, const answer *a) {
    const engine_result *r = &a->r;
    expansion_record e = {0};
    e.class_name = (char *)a->cls;
    e.query = a->index;
    e.nseeds = r->nseeds;
    e.nneg = r->nnegatives;
    e.n = r->n;
    e.seeds = xmalloc(sizeof(int64_t) * (size_t)(r->nseeds + 1));
    e.seed_names = xmalloc(sizeof(char *) * (size_t)(r->nseeds + 1));
    for (int i = 0; i < r->nseeds; i++) {
        e.seeds[i] = x->ent.eid[r->seeds[i]];
        e.seed_names[i] = x->ent.name[r->seeds[i]];
    }
    e.negatives = xmalloc(sizeof(int64_t) * (size_t)(r->nnegatives + 1));
    for (int i = 0; i < r->nnegatives; i++) e.negatives[i] = x->ent.eid[r->negatives[i]];
    expansion_record_alloc_lists(&e);
    for (int i = 0; i < r->n; i++) {
        const engine_item *it = &r->items[i];
        e.eids[i] = it->eid;
        e.names[i] = (char *)it->name;
        e.scores[i] = it->score;
        e.order[i] = it->order;
        e.kl_rank[i] = it->kl_rank;
        e.kl_score[i] = it->kl_score;
    }
    expansion_record_pack(pk, &e);
    free(e.seeds);
    free(e.seed_names);
    free(e.negatives);
    expansion_record_free_lists(&e);
}

/* The rankings as a `ranked` artifact (evaluate finds the ground truth through `queries`). */
static void write_ranked(const char *out, const char *index_path, const corpus_index *x, const answer *a, int n,
                         const char *queries) {
    artifact_writer *w = ranked_create(out);
    artifact_param_options(w); /* with --queries: evaluate finds the ground truth through it */
    artifact_param_str(w, "aggregate", "sum"); /* the re-ranking's, not an option of query */
    artifact_param_str(w, "protocol", "inductive");
    artifact_add_input(w, index_path);
    if (queries) artifact_add_input(w, queries);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, n, x->ent.n);
    for (int i = 0; i < n; i++) pack_answer(pk, x, &a[i]);
    artifact_commit(w);
}

/* The queries' seeds must be named in the dataset as in the index: an index built from an
 * earlier version of the dataset (rebuilt in place, its eids given to other names) would
 * answer for other entities. Exit 3 naming the first seed that differs. */
static void check_dataset_names(const corpus_index *x, const char *queries, const query_set *qs) {
    entity_table t;
    dataset_read_entities(queries, &t);
    intmap row;
    entity_table_row_map(&t, &row);
    for (int i = 0; i < qs->n; i++)
        for (int k = 0; k < qs->q[i].nseeds; k++) {
            int64_t eid = qs->q[i].seeds[k], d = intmap_get(&row, eid), r = intmap_get(&x->row_of_eid, eid);
            if (d >= 0 && r >= 0 && strcmp(t.name[d], x->ent.name[r]))
                die_input(queries, "entity2id.txt", "eid %lld is \"%s\" here but \"%s\" in the index %s: the index was "
                          "built from another version of this dataset; rebuild it (make -f pipelines/probexpan.mk ... "
                          "index)", (long long)eid, t.name[d], x->ent.name[r], x->path);
        }
    intmap_free(&row);
    entity_table_free(&t);
}

/* Every query of a dataset (query/<class>.txt), each expanded and refined on its own. */
static answer *run_dataset(const engine *g, engine_request q, const char *queries, double cut_fraction, int cut_auto,
                           int *n) {
    query_set qs;
    name_read_queries(queries, &qs);
    check_dataset_names(engine_index(g), queries, &qs);
    answer *a = xcalloc((size_t)qs.n + 1, sizeof *a);
    double *secs = xmalloc(sizeof(double) * (size_t)(qs.n + 1)), *cpu = xmalloc(sizeof(double) * (size_t)(qs.n + 1));
    progress pr;
    progress_start(&pr, "query", "queries", qs.n);
    for (int i = 0; i < qs.n; i++) {
        const dataset_query *dq = &qs.q[i];
        char **tok = xmalloc(sizeof(char *) * (size_t)(dq->nseeds + 1));
        for (int k = 0; k < dq->nseeds; k++) tok[k] = xasprintf("%lld", (long long)dq->seeds[k]);
        q.seeds = (const char *const *)tok;
        q.nseeds = dq->nseeds;
        q.by_eid = 1;
        a[i].cls = xstrdup(dq->class_name);
        for (int j = 0; j < i; j++) a[i].index += !strcmp(a[j].cls, dq->class_name);
        char err[2048], where[300];
        if (engine_query(g, &q, &a[i].r, err, sizeof err)) {
            snprintf(where, sizeof where, "query/%s.txt query %d", dq->class_name, a[i].index + 1);
            die_input(queries, where, "%s", err);
        }
        confidence_cut cut;
        cut_answer(&a[i].r, cut_fraction, cut_auto, &cut);
        secs[i] = a[i].r.seconds;
        cpu[i] = a[i].r.cpu_seconds;
        for (int k = 0; k < dq->nseeds; k++) free(tok[k]);
        free(tok);
        progress_update(&pr, i + 1);
    }
    progress_end(&pr);
    qsort(secs, (size_t)qs.n, sizeof(double), cmp_double);
    qsort(cpu, (size_t)qs.n, sizeof(double), cmp_double);
    if (qs.n) {
        log_info("%d queries: wall p50 %.3f s (max %.3f s), CPU p50 %.3f s (max %.3f s) per query", qs.n,
                 secs[qs.n / 2], secs[qs.n - 1], cpu[qs.n / 2], cpu[qs.n - 1]);
        catalog_metric("query_seconds_p50", secs[qs.n / 2]);
        catalog_metric("query_cpu_seconds_p50", cpu[qs.n / 2]);
    }
    free(secs);
    free(cpu);
    *n = qs.n;
    query_set_free(&qs);
    return a;
}

/* With --run: the run's samples artifact must be the one the index was built from. */
static void check_run_samples(const char *run, const char *index_path, const corpus_index *x) {
    char *samples_path = xasprintf("%s/samples.mp", run), sha[65];
    if (access(samples_path, F_OK) == 0) {
        input_sha256_hex(samples_path, sha);
        if (strcmp(sha, x->samples_sha256))
            die_input(index_path, "mentions", "built from samples with sha256 %.12s…, but %s has %.12s…: the index "
                      "belongs to another corpus or an older run; rebuild it (make -f pipelines/probexpan.mk ... index)",
                      x->samples_sha256, samples_path, sha);
    }
    free(samples_path);
}

int main(int argc, char **argv) {
    const char *run = NULL, *index_path = NULL, *aliases = NULL;
    const char *variant = "full", *format = "tsv", *out = NULL, *cls = "seeds", *queries = NULL, *cut_mode = "none", *why = NULL;
    double cut_fraction = CONFIDENCE_CUT_FRACTION;
    seed_options so = {0};
    engine_config ec = engine_config_defaults();
    engine_request q = engine_request_defaults();
    long subset_seed = (long)ec.seed;
    const cli_option opts[] = {
        {"run", OPT_STRING, &run, "DIR", "run folder of the pipeline: reads DIR/index.mp", 0, 0},
        {"index", OPT_INPUT, &index_path, "FILE", "the index artifact (instead of --run)", 0, 0},
        SEED_CLI_OPTIONS(so),
        {"aliases", OPT_INPUT, &aliases, "PATH", "more names the seeds may be typed as: a names file (name<TAB>alias...) or a dataset (its aliases.txt); default with --run: the dataset the run's corpus was made from, when it is there", 0, 0},
        {"queries", OPT_INPUT, &queries, "DATA", "instead of seeds: every query of a dataset's query/, each on its own (needs --out)", 0, 0},
        ENGINE_CLI_OPTIONS(q, ec, variant, subset_seed),
        {"format", OPT_STRING, &format, "tsv|json", "stdout: TSV (rank, eid, name, score, order, kl_rank, kl_score, search_score, mentions, above_cut) or JSON", 0, 0},
        {"cut", OPT_STRING, &cut_mode, "none|auto", "none: every entity of --size, the cut marked (above_cut, \"cut\"); auto: only the entities above the cut, where the method's confidence drops (docs/cut.md; also in --out)", 0, 0},
        CONFIDENCE_CUT_CLI_OPTION(cut_fraction, ""),
        {"why", OPT_STRING, &why, "NAME", "instead of the ranking, print as JSON where it places this entity (a name or eid: its rank, or its place after the list) and the context features it shares with the seeds and lacks (the answer of serve's /api/entity/{eid}/why; needs --run)", 0, 0},
        {"class", OPT_STRING, &cls, "NAME", "class name recorded in --out", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "also write the ranking as a `ranked` artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"query", "ProbExpan for one seed set from a corpus index: the whole method in one process",
                           "(--run DIR | --index FILE) (--seeds LIST | --seed NAME... | --seeds-file FILE | --queries DATA --out FILE) [options]",
                           "query --run runs/wn --seeds \"Ohio,Texas,Iowa\" --negative-seeds Chicago --size 50",
                           "index, evaluate, expand, rerank", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!run == !index_path) die_usage("give exactly one of --run and --index");
    int v = engine_variant_parse(variant);
    if (v < 0) die_usage("--variant: expected full, noen, nocl or noclen, found '%s'", variant);
    if (strcmp(format, "tsv") && strcmp(format, "json")) die_usage("--format: expected tsv or json, found '%s'", format);
    if (strcmp(cut_mode, "none") && strcmp(cut_mode, "auto")) die_usage("--cut: expected none or auto, found '%s'", cut_mode);
    int cut_auto = !strcmp(cut_mode, "auto");
    if (queries && (!out || seed_input_given(&so.seeds))) die_usage("--queries needs --out and no --seeds/--seed/--seeds-file");
    if (why && (queries || !run)) die_usage("--why needs --run (the samples give the features' words) and one seed set");
    q.explain = why;
    if (q.top > ec.models) die_usage("--top %d: only %d models (--models)", q.top, ec.models);
    q.variant = (engine_variant)v;
    ec.seed = (uint64_t)subset_seed;
    char *path = run ? xasprintf("%s/index.mp", run) : xstrdup(index_path);
    if (run) { /* the run folder itself may receive --out: only its index is an input */
        paths_input(path, "--run's index");
        paths_check();
    }
    if (out) catalog_begin_beside(out);
    seed_tokens st, nt, at;
    seed_input_tokens(&so.seeds, &st);
    seed_input_tokens(&so.negatives, &nt);
    seed_input_tokens(&so.accepted, &at);
    q.seeds = (const char *const *)st.v;
    q.nseeds = st.n;
    q.negatives = (const char *const *)nt.v;
    q.nnegatives = nt.n;
    q.accepted = (const char *const *)at.v;
    q.naccepted = at.n;

    double t0 = now_seconds();
    engine *g = engine_open(path, &ec);
    if (aliases) log_info("%lld aliases from %s", (long long)engine_add_aliases(g, aliases), aliases);
    /* without --aliases, the aliases of the run's dataset, read only when a name is not in the
     * index (an archive is read whole to find its aliases.txt) */
    char *run_dataset_path = run && !aliases && !queries ? corpus_dataset_of_run(run) : NULL;
    if (run_dataset_path && access(run_dataset_path, R_OK) != 0) {
        free(run_dataset_path);
        run_dataset_path = NULL;
    }
    double t_load = now_seconds() - t0;
    if (run) check_run_samples(run, path, engine_index(g));
    const corpus_index *x = engine_index(g);
    int n = 1;
    answer *a;
    if (queries) {
        a = run_dataset(g, q, queries, cut_fraction, cut_auto, &n);
    } else {
        a = xcalloc(1, sizeof *a);
        a->cls = xstrdup(cls);
        char err[2048];
        int bad = engine_query(g, &q, &a->r, err, sizeof err);
        if (bad && run_dataset_path) { /* a name the index lacks may be an alias */
            log_info("%lld aliases from %s", (long long)engine_add_aliases(g, run_dataset_path), run_dataset_path);
            bad = engine_query(g, &q, &a->r, err, sizeof err);
        }
        if (bad) die_input(NULL, NULL, "%s", err);
        if (why) {
            print_why(run, g, &q, &a->r, variant);
        } else {
            confidence_cut cut;
            cut_answer(&a->r, cut_fraction, cut_auto, &cut);
            json_t *name = query_set_name(run, g, &a->r);
            if (!strcmp(format, "tsv")) print_tsv(&a->r, &cut);
            else print_json(x, &a->r, variant, name, &cut);
            fflush(stdout);
            if (cut.dropped) log_info("confidence drops after rank %d of %d (-KL below %.4g)%s", cut.above, cut.n, cut.threshold,
                                      cut_auto ? ": only those listed (--cut auto)" : "");
            else log_info("no drop of confidence in the %d listed", cut.n);
            if (name && json_string_length(json_object_get(name, "text")))
                log_info("these look like: %s", json_string_value(json_object_get(name, "text")));
            json_decref(name);
        }
    }
    if (out) write_ranked(out, path, x, a, n, queries);
    catalog_metric("load_seconds", t_load);
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += a[i].r.n;
    log_done("%s: %d quer%s, %lld entities (%s; index loaded in %.2f s, queries %.2f s)", variant, n, n == 1 ? "y" : "ies",
             (long long)total, q.variant == ENGINE_FULL || q.variant == ENGINE_NOEN ? "each refined on its own expansion" : "no refinement",
             t_load, now_seconds() - t0 - t_load);
    for (int i = 0; i < n; i++) {
        engine_result_free(&a[i].r);
        free((char *)a[i].cls);
    }
    free(a);
    engine_free(g);
    free(path);
    free(run_dataset_path);
    seed_tokens_free(&st);
    seed_tokens_free(&nt);
    seed_tokens_free(&at);
    free(so.seeds.names.v);
    free(so.negatives.names.v);
    free(so.accepted.names.v);
    return 0;
}
