/* expand: ProbExpan's window search (docs/design.md §3 Expansion). For every query —
 * from a dataset's query/ folder, a query file, or seeds on the command line —
 * grow the seed set one entity at a time: order the candidates by the set's mean
 * distribution, score the first w against the anchor distribution, append the
 * best, until --size entities were added. Writes an `expansions` artifact.
 * The rows come from a dense dists artifact or are computed from a corpus index and a
 * patmodel (common/model/entity_rows.h): the same expansions.
 * Cost per query, for E entities and N = seeds + --size members: O(N x (E + w x N)) for
 * the candidate order and the anchor scores (w = the window), plus each row touched once
 * (members and window candidates, at most N x w rows): O(E) mapped from dists, or
 * O(sum over the entity's features of their entities) computed from the index. Memory:
 * O(E) plus the dists mapping, or the index (O(E + F + feature-entity pairs)) and the
 * query's computed rows, dropped after each query. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "base/cli.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "base/log.h"
#include "dataset/queries.h"
#include "method/windowsearch.h"
#include "model/entity_rows.h"

/* Record for query q of the list from its expansion x. */
static expansion_record make_record(const entity_table *t, const query_rows *q, const windowsearch_query *x) {
    expansion_record r = {0};
    r.class_name = q->class_name;
    r.query = q->index;
    r.nseeds = x->nseeds;
    r.nneg = x->nneg;
    r.n = x->n - x->nseeds;
    r.seeds = xmalloc(sizeof(int64_t) * (size_t)(r.nseeds + 1));
    r.seed_names = xmalloc(sizeof(char *) * (size_t)(r.nseeds + 1));
    for (int i = 0; i < r.nseeds; i++) {
        r.seeds[i] = t->eid[x->rows[i]];
        r.seed_names[i] = t->name[x->rows[i]];
    }
    r.negatives = xmalloc(sizeof(int64_t) * (size_t)(r.nneg + 1));
    for (int i = 0; i < r.nneg; i++) r.negatives[i] = t->eid[x->negatives[i]];
    r.eids = xmalloc(sizeof(int64_t) * (size_t)(r.n + 1));
    r.names = xmalloc(sizeof(char *) * (size_t)(r.n + 1));
    for (int i = 0; i < r.n; i++) {
        r.eids[i] = t->eid[x->rows[x->nseeds + i]];
        r.names[i] = t->name[x->rows[x->nseeds + i]];
    }
    r.scores = x->score;
    return r;
}

/* The window searches of every query: one at a time, or with `exclusive` the i-th query of
 * every class together (an entity goes to one of them only). */
static void search_groups(anchor_scorer *sc, entity_rows *er, windowsearch_query *x, const query_list *ql,
                          const windowsearch_params *p, int exclusive, progress *pr) {
    int *group = xmalloc(sizeof(int) * (size_t)(ql->n + 1));
    windowsearch_query *gq = xmalloc(sizeof *gq * (size_t)(ql->n + 1));
    int done = 0;
    for (int idx = 0; done < ql->n; idx++) {
        int ng = 0;
        for (int i = 0; i < ql->n; i++)
            if (exclusive ? ql->q[i].index == idx : i == idx) group[ng++] = i;
        if (!ng) continue;
        for (int k = 0; k < ng; k++) gq[k] = x[group[k]];
        windowsearch_group(sc, &er->src, gq, ng, p, exclusive);
        entity_rows_forget(er);
        for (int k = 0; k < ng; k++) x[group[k]] = gq[k];
        done += ng;
        progress_update(pr, done);
    }
    free(group);
    free(gq);
}

int main(int argc, char **argv) {
    entity_rows_paths rp = {0};
    const char *queries = NULL, *class_name = "seeds", *aliases = NULL;
    seed_options so = {0};
    const char *out = NULL, *cand = "mean";
    int size = 100, s = 20, exclusive = 0, official = 0;
    list_format_options lf = {0};
    double w0 = 1, g = 2.5;
    anchor_weighting aw = ANCHOR_DEFAULT;
    const cli_option opts[] = {
        ENTITY_ROWS_CLI_OPTIONS(rp),
        {"queries", OPT_INPUT, &queries, "PATH", "dataset folder/archive (its query/*.txt) or a query file CLASS.txt", 0, 0},
        SEED_CLI_OPTIONS(so),
        {"aliases", OPT_INPUT, &aliases, "PATH", "more names for --seeds and query files: a names file (name<TAB>alias...) or a dataset (its aliases.txt)", 0, 0},
        {"class", OPT_STRING, &class_name, "NAME", "class name recorded for --seeds", 0, 0},
        {"size", OPT_INT, &size, "N", "entities to add beyond the seeds (S_tgt = seeds + N)", 1, 100000},
        {"window", OPT_DOUBLE, &w0, "W0", "initial window w0", 1, 1e6},
        {"window-growth", OPT_DOUBLE, &g, "G", "window growth g per step", 0, 1e6},
        {"window-step", OPT_INT, &s, "S", "window step s: w = w0 + g*floor(|L_cur|/s)", 1, 1000000},
        ANCHOR_CLI_OPTIONS(aw),
        {"candidates", OPT_STRING, &cand, "mean|logz", "candidate order: mean distribution (paper) or logz (official code)", 0, 0},
        {"exclusive", OPT_FLAG, &exclusive, NULL, "expand the i-th query of every class together; an entity goes to one class only", 0, 0},
        {"official", OPT_FLAG, &official, NULL, "the official code's schedule: logz candidates, its window and anchor bands", 0, 0},
        LIST_FORMAT_CLI_OPTIONS(lf, "the expanded lists"),
        {"out", OPT_OUTPUT, &out, "FILE", "output expansions artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"expand", "grow seed sets by window search over entity distributions",
                           "(--dists FILE | --index FILE --model FILE) (--queries PATH | --seeds LIST | --seed NAME... | --seeds-file FILE) --out FILE [options]",
                           "expand --dists run/ensemble.mp --seeds \"Ohio,Texas,Iowa\" --names --out states.mp",
                           "score-models, rerank, evaluate", opts, 0};
    cli_parse(&spec, argc, argv);
    list_format fmt = list_format_chosen(&lf);
    if (!out) die_usage("--out is required");
    if (!queries == !seed_input_given(&so.seeds)) die_usage("give exactly one of --queries and --seeds/--seed/--seeds-file");
    if (official) { /* the official schedule, recorded as the options' values */
        cand = "logz";
        aw.kind = ANCHOR_EXPAND_BANDS;
    }
    int cmode = candidates_mode_parse(cand);
    if (cmode < 0) die_usage("--candidates: expected mean or logz, found '%s'", cand);
    catalog_begin_beside(out);

    windowsearch_params p = {size, w0, g, s, official, (candidates_mode)cmode, aw};
    entity_rows er;
    entity_rows_open(&er, &rp, "expand");
    name_index ni;
    name_index_init(&ni, er.ent, er.row_of_eid);
    query_list ql = {0, NULL};
    if (aliases) name_index_load_aliases(&ni, aliases);
    if (queries) queries_load(&ql, queries, er.path, &ni);
    else queries_add_seeds(&ql, class_name, &so.seeds, &ni);
    int nneg = 0;
    int64_t *neg = queries_resolve_negatives(&ql, &so.negatives, &ni, &nneg);
    queries_add_accepted(&ql, &so.accepted, &ni, neg, nneg);

    windowsearch_query *x = xcalloc((size_t)ql.n, sizeof *x);
    for (int i = 0; i < ql.n; i++) {
        x[i].nseeds = ql.q[i].nseeds;
        x[i].seeds = ql.q[i].rows;
        x[i].nneg = nneg;
        x[i].negatives = neg;
    }
    anchor_scorer sc;
    anchor_init(&sc, &er.src);
    double t0 = now_seconds();
    clock_t c0 = clock();
    progress pr;
    progress_start(&pr, "expand", "queries", ql.n);
    search_groups(&sc, &er, x, &ql, &p, exclusive, &pr);
    progress_end(&pr);
    double secs = now_seconds() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;

    artifact_writer *w = expansions_create(out);
    artifact_param_options(w);
    entity_rows_add_inputs(&er, w);
    if (queries) artifact_add_input(w, queries);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, ql.n, er.n);
    expansion_list_begin(stdout, fmt);
    int64_t total = 0;
    for (int i = 0; i < ql.n; i++) {
        expansion_record r = make_record(er.ent, &ql.q[i], &x[i]);
        expansion_record_pack(pk, &r);
        expansion_record_write(stdout, &r, fmt);
        if (r.n < size) log_warn("%s #%d: only %d entities could be added", r.class_name, r.query + 1, r.n);
        total += r.n;
        free(r.seeds);
        free(r.seed_names);
        free(r.negatives);
        free(r.eids);
        free(r.names);
        windowsearch_query_free(&x[i]);
    }
    artifact_commit(w);
    catalog_metric("queries", ql.n);
    catalog_metric("entities_expanded", (double)total);
    catalog_metric("window_search_seconds", secs);
    log_info("window search: %.3f s for %lld entities (%.3f ms each, %.3f s of CPU), V_e = %lld", secs,
             (long long)total, total ? 1e3 * secs / (double)total : 0.0, cpu, (long long)er.n);
    char b1[32], b2[32];
    log_done("%s queries, %s entities expanded", fmt_count(b1, ql.n), fmt_count(b2, total));
    free(x);
    free(neg);
    free(so.seeds.names.v);
    free(so.negatives.names.v);
    free(so.accepted.names.v);
    anchor_free(&sc);
    query_list_free(&ql);
    name_index_free(&ni);
    entity_rows_close(&er);
    return 0;
}
