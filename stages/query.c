/* query: the whole ProbExpan method for one seed set, in one process, from a corpus index
 * (`probexpan index`): phase-1 pattern models reweighted by the context features the seeds share
 * (SetExpan's feature selection, --select), model selection and ensemble, window search,
 * the contrastive sets of this set's own expansion, the refinement of every model on them,
 * selection and ensemble again, the final search and the re-ranking (common/engine/engine.h).
 * Prints the ranking as TSV or JSON on stdout, with the set's name (the definition heads the
 * seeds share, common/model/set_name.h: in the JSON; beside the TSV on standard error) when
 * --run gives the samples for the words, and, with --out, writes it as a `ranked`
 * artifact (evaluate, inspect). Cost: loading the index and deriving the K models is
 * O(feature-entity pairs); the query is O(rows touched x their nonzeros + refinement steps x
 * features) — seconds on a corpus of ~8k entities; no E x E matrix. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifacts/expansions.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/paths.h"
#include "base/log.h"
#include "base/sort.h"
#include "catalog/catalog.h"
#include "dataset/entitynames.h"
#include "engine/engine.h"
#include "model/set_name.h"

/* The comma-separated items of `list` (may be NULL) followed by the repeated options. */
static const char **gather(const char *list, const cli_list *one, int *n, char **copy) {
    const char **v = xmalloc(sizeof(char *) * (size_t)(one->n + 1 + (list ? strlen(list) : 0)));
    *n = 0;
    *copy = list ? xstrdup(list) : NULL;
    char *save = NULL;
    for (char *tok = *copy ? strtok_r(*copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save))
        if (tok[strspn(tok, " \t")]) v[(*n)++] = tok;
    for (int i = 0; i < one->n; i++) v[(*n)++] = one->v[i];
    return v;
}

static void print_tsv(const engine_result *r) {
    printf("rank\teid\tname\tscore\torder\tkl_rank\tkl_score\tsearch_score\tmentions\n");
    for (int i = 0; i < r->n; i++) {
        const engine_item *it = &r->items[i];
        printf("%d\t%lld\t%s\t%.6g\t%d\t%d\t%.6g\t%.6g\t%lld\n", i + 1, (long long)it->eid, it->name, it->score, it->order,
               it->kl_rank, it->kl_score, it->search_score, (long long)it->mentions);
    }
}

static json_t *entity_list(const corpus_index *x, const int64_t *rows, int n) {
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:I,s:s}", "eid", (json_int_t)x->ent.eid[rows[i]], "name", x->ent.name[rows[i]]));
    return a;
}

/* The set's name of answer r, the words from the run's samples; NULL without them (--index). */
static json_t *query_set_name(const char *run, const corpus_index *x, const engine_result *r) {
    char *samples_path = run ? xasprintf("%s/samples.mp", run) : NULL;
    json_t *j = NULL;
    if (samples_path && access(samples_path, R_OK) == 0) {
        feature_text *t = feature_text_open(x, samples_path);
        genus_heads h;
        genus_heads_build(&h, &x->counts);
        int64_t *set = xmalloc(sizeof(int64_t) * (size_t)(r->nseeds + r->naccepted + 1)),
                *list = xmalloc(sizeof(int64_t) * (size_t)(r->n + 1));
        memcpy(set, r->seeds, sizeof(int64_t) * (size_t)r->nseeds);
        memcpy(set + r->nseeds, r->accepted, sizeof(int64_t) * (size_t)r->naccepted);
        for (int i = 0; i < r->n; i++) list[i] = intmap_get(&x->row_of_eid, r->items[i].eid);
        set_name s;
        set_name_find(&s, &h, t, set, r->nseeds + r->naccepted, list, r->n);
        j = set_name_json(&s);
        free(set);
        free(list);
        genus_heads_free(&h);
        feature_text_close(t);
    }
    free(samples_path);
    return j;
}

static void print_json(const corpus_index *x, const engine_result *r, const char *variant, json_t *name) {
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
    json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:i,s:i,s:b,s:{s:f,s:f,s:f},s:f,s:o}", "variant", variant, "seeds",
                          entity_list(x, r->seeds, r->nseeds), "negative_seeds", entity_list(x, r->negatives, r->nnegatives),
                          "accepted", entity_list(x, r->accepted, r->naccepted), "models_kept", kept, "positives", r->n_pos,
                          "negatives", r->n_neg, "refinement_used", r->refinement_used, "holdout", "model1",
                          r->holdout_single, "ensemble", r->holdout_unrefined, "refined", r->holdout_refined, "seconds",
                          r->seconds, "entities", items);
    if (name) json_object_set(o, "set_name", name);
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
    artifact_writer *w = artifact_create(out, RANKED_KIND, EXPANSIONS_SCHEMA);
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

/* Every query of a dataset (query/<class>.txt), each expanded and refined on its own. */
static answer *run_dataset(const engine *g, engine_request q, const char *queries, int *n) {
    query_set qs;
    name_read_queries(queries, &qs);
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
    const char *run = NULL, *index_path = NULL, *seeds = NULL, *negatives = NULL, *accepted = NULL;
    const char *variant = "full", *format = "tsv", *out = NULL, *cls = "seeds", *queries = NULL;
    cli_list seed1 = {0}, neg1 = {0}, acc1 = {0};
    engine_config ec = engine_config_defaults();
    engine_request q = engine_request_defaults();
    long subset_seed = (long)ec.seed;
    const cli_option opts[] = {
        {"run", OPT_STRING, &run, "DIR", "run folder of the pipeline: reads DIR/index.mp", 0, 0},
        {"index", OPT_INPUT, &index_path, "FILE", "the index artifact (instead of --run)", 0, 0},
        {"seeds", OPT_STRING, &seeds, "LIST", "seed entities: names or eids, comma-separated", 0, 0},
        {"queries", OPT_INPUT, &queries, "DATA", "instead of seeds: every query of a dataset's query/, each on its own (needs --out)", 0, 0},
        {"seed", OPT_LIST, &seed1, "NAME", "one seed entity (a name may contain commas)", 0, 0},
        {"negative-seeds", OPT_STRING, &negatives, "LIST", "rejected entities, comma-separated: never returned, and hard negatives of the refinement", 0, 0},
        {"negative", OPT_LIST, &neg1, "NAME", "one rejected entity", 0, 0},
        {"accepted", OPT_STRING, &accepted, "LIST", "accepted entities, comma-separated: they join the seeds (the search, model selection, re-ranking; not returned) and are the refinement's only positives besides the seeds", 0, 0},
        {"accept", OPT_LIST, &acc1, "NAME", "one accepted entity", 0, 0},
        {"size", OPT_INT, &q.size, "N", "entities to return beyond the seeds and accepted entities", 1, 1000000},
        {"variant", OPT_STRING, &variant, "full|noen|nocl|noclen", "the method's ablation variant (paper Table 4)", 0, 0},
        {"phase2-size", OPT_INT, &q.phase2_size, "N", "phase-2 search size: the contrastive sets come from its ranking", 1, 1000000},
        {"models", OPT_INT, &ec.models, "K", "phase-1 pattern models (1 all features, 2..K feature subsets)", 1, ENGINE_MAX_MODELS},
        {"top", OPT_INT, &q.top, "K", "models kept by selection for the ensemble", 1, ENGINE_MAX_MODELS},
        {"feature-fraction", OPT_DOUBLE, &ec.feature_fraction, "F", "feature subset of models 2..K", 1e-3, 1},
        {"random-seed", OPT_LONG, &subset_seed, "N", "random seed of the feature subsets: model k > 1 draws with N*1000+k (the pipeline's RANDOM_SEED)", 0, 9e15},
        {"thr-pos", OPT_INT, &q.bounds.thr_pos, "N", "E_pos = seeds + phase-2 ranks 1..N-1 (with accepted entities: seeds + accepted only)", 1, 1000000},
        {"l-neg", OPT_INT, &q.bounds.l_neg, "N", "E_neg = phase-2 ranks in (L_neg, U_neg)", 0, 1000000},
        {"u-neg", OPT_INT, &q.bounds.u_neg, "N", "upper bound U_neg, exclusive", 1, 1000000},
        {"background", OPT_INT, &q.background, "N", "refinement: also N background negatives (entities in a fixed pseudo-random order)", 0, 1000000},
        PATTERN_CONTRAST_CLI_OPTIONS(q.contrast, "refinement"),
        {"cl-steps-accepted", OPT_INT, &q.accepted_steps, "N", "refinement: AdamW steps instead of --cl-steps once entities are accepted (E_pos is then the seeds + accepted only)", 0, 1000000},
        {"refine-check", OPT_INT, &q.refine_check, "0|1", "full, noen, with pseudo-positives (--thr-pos > 2, nothing accepted): 1 = the refinement learns with the seeds held out of E_pos, and the final ranking uses whichever of model 1, the unrefined ensemble and the refined one ranks the seeds highest among each other's neighbours (ties: the simpler); 0 = the paper's E_pos, the refined ensemble always", 0, 1},
        {"genus-agreement", OPT_DOUBLE, &q.genus_agreement, "W", "re-rank the final list (searched to 200 first) by what its entities' own definitions call them against the genus heads at least half the seeds share: position x exp(-W (a - 1/2)), a the share of an entity's definition heads among the set's (1/2 without a definition); 0 = off", 0, 100},
        {"select", OPT_INT, &q.select, "0|1", "1 = reweight the models by the query's own context features (the features the seeds share, SetExpan's selection); 0 = the paper's method as the batch stages run it", 0, 1},
        {"select-features", OPT_INT, &q.features.top, "N", "--select: features selected", 1, 1000000},
        {"select-min-share", OPT_INT, &q.features.min_share, "N", "--select: set members that must hold a selected feature", 1, 1000},
        {"select-min-fraction", OPT_DOUBLE, &q.features.share_fraction, "P", "--select, once entities are accepted: share of the seeds + accepted that must hold a selected feature, if more than --select-min-share", 0, 1},
        {"select-boost", OPT_DOUBLE, &q.features.boost, "B", "--select: log-weight of a selected feature", 0, 20},
        {"select-proportional", OPT_INT, &q.features.proportional, "0|1", "--select: 1 = log-weight boost x score / best score, 0 = boost", 0, 1},
        {"select-rounds", OPT_INT, &q.select_rounds, "N", "--select: re-selections on the seeds + the top of the reweighted expansion", 0, 100},
        {"select-grow", OPT_INT, &q.select_grow, "N", "--select: entities of that expansion joining the seeds", 0, 10000},
        {"select-others", OPT_DOUBLE, &q.features.others, "L", "--select: weight of the other entities' mean in a feature's score (0 = not used)", 0, 100},
        {"select-rejected", OPT_DOUBLE, &q.features.rejected, "MU", "--select: weight of the rejected entities' (--negative-seeds) mean in a feature's score (0 = not used)", 0, 100},
        {"select-others-n", OPT_INT, &q.select_others, "N", "--select: other entities: the first N of a fixed pseudo-random order", 1, 100000000},
        {"select-size", OPT_INT, &q.select_size, "N", "--select: search size of a re-selection round", 1, 1000000},
        {"format", OPT_STRING, &format, "tsv|json", "stdout: TSV (rank, eid, name, score, order, kl_rank, kl_score, search_score, mentions) or JSON", 0, 0},
        {"class", OPT_STRING, &cls, "NAME", "class name recorded in --out", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "also write the ranking as a `ranked` artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"query", "ProbExpan for one seed set from a corpus index: the whole method in one process",
                           "(--run DIR | --index FILE) (--seeds LIST | --seed NAME... | --queries DATA --out FILE) [options]",
                           "query --run runs/wn --seeds \"Ohio,Texas,Iowa\" --negative-seeds Chicago --size 50",
                           "index, evaluate, expand, rerank", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!run == !index_path) die_usage("give exactly one of --run and --index");
    int v = engine_variant_parse(variant);
    if (v < 0) die_usage("--variant: expected full, noen, nocl or noclen, found '%s'", variant);
    if (strcmp(format, "tsv") && strcmp(format, "json")) die_usage("--format: expected tsv or json, found '%s'", format);
    if (queries && (!out || seeds || seed1.n)) die_usage("--queries needs --out and no --seeds/--seed");
    if (q.top > ec.models) die_usage("--top %d: only %d models (--models)", q.top, ec.models);
    q.variant = (engine_variant)v;
    ec.seed = (uint64_t)subset_seed;
    char *path = run ? xasprintf("%s/index.mp", run) : xstrdup(index_path);
    if (run) { /* the run folder itself may receive --out: only its index is an input */
        paths_input(path, "--run's index");
        paths_check();
    }
    if (out) catalog_begin_beside(out);
    char *c1, *c2, *c3;
    const char **sv = gather(seeds, &seed1, &q.nseeds, &c1), **nv = gather(negatives, &neg1, &q.nnegatives, &c2),
               **av = gather(accepted, &acc1, &q.naccepted, &c3);
    q.seeds = sv;
    q.negatives = nv;
    q.accepted = av;

    double t0 = now_seconds();
    engine *g = engine_open(path, &ec);
    double t_load = now_seconds() - t0;
    if (run) check_run_samples(run, path, engine_index(g));
    const corpus_index *x = engine_index(g);
    int n = 1;
    answer *a;
    if (queries) {
        a = run_dataset(g, q, queries, &n);
    } else {
        a = xcalloc(1, sizeof *a);
        a->cls = xstrdup(cls);
        char err[2048];
        if (engine_query(g, &q, &a->r, err, sizeof err)) die_input(NULL, NULL, "%s", err);
        json_t *name = query_set_name(run, x, &a->r);
        if (!strcmp(format, "tsv")) print_tsv(&a->r);
        else print_json(x, &a->r, variant, name);
        fflush(stdout);
        if (name && json_string_length(json_object_get(name, "text")))
            log_info("these look like: %s", json_string_value(json_object_get(name, "text")));
        json_decref(name);
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
    free(sv);
    free(nv);
    free(av);
    free(c1);
    free(c2);
    free(c3);
    free(seed1.v);
    free(neg1.v);
    free(acc1.v);
    return 0;
}
