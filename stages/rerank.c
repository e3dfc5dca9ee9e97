/* rerank: ProbExpan's entity re-ranking (docs/design.md §3 Re-ranking). For each
 * expanded set, score every expanded entity against the whole final set as the
 * anchor, rank by that score, and combine rank and expansion order:
 * sqrt(1/i * 1/rank) (default) or mu/i + 1/rank (official code). Writes a
 * `ranked` artifact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/dists.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "base/log.h"
#include "method/rerank.h"

static int64_t row_or_die(const dists *d, int64_t eid, const char *path, const expansion_record *r) {
    int64_t row = dists_row_of(d, eid);
    if (row < 0) {
        char where[300];
        snprintf(where, sizeof where, "%s query %d", r->class_name, r->query + 1);
        die_input(path, where, "entity eid %lld has no row in %s: expansions and dists come from different entity tables",
                  (long long)eid, d->path);
    }
    return row;
}

int main(int argc, char **argv) {
    const char *dists_path = NULL, *out = NULL, *agg_name = "geo";
    double mu = 9;
    int official = 0, names = 0;
    const char *format = NULL;
    anchor_weighting aw = ANCHOR_DEFAULT;
    const cli_option opts[] = {
        {"dists", OPT_INPUT, &dists_path, "FILE", "the dists artifact the expansions were made with", 0, 0},
        {"aggregate", OPT_STRING, &agg_name, "geo|sum", "geo: sqrt(1/i * 1/rank) (paper); sum: mu/i + 1/rank (official code)", 0, 0},
        {"mu", OPT_DOUBLE, &mu, "MU", "weight of the expansion order in --aggregate sum", 0, 1e9},
        ANCHOR_CLI_OPTIONS(aw),
        {"official", OPT_FLAG, &official, NULL, "the official code: --aggregate sum --mu 9 and its anchor bands 1600/900/600/150", 0, 0},
        {"names", OPT_FLAG, &names, NULL, "print the re-ranked lists with entity names on stdout (= --format text)", 0, 0},
        {"format", OPT_STRING, &format, "text|tsv|json", LIST_FORMAT_HELP, 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output ranked artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"rerank", "re-rank expanded sets by KL rank and expansion order",
                           "--dists FILE --out FILE [options] EXPANSIONS",
                           "rerank --dists run/ensemble.mp --out run/ranked.mp run/expansions.mp",
                           "expand, evaluate", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    int fmt = format ? list_format_parse(format) : names ? LIST_TEXT : LIST_NONE;
    if (fmt < 0) die_usage("--format: expected text, tsv or json, found '%s'", format);
    if (argc - first != 1) die_usage("expected exactly one EXPANSIONS artifact (try --help)");
    if (!dists_path) die_usage("--dists is required");
    if (!out) die_usage("--out is required");
    int agg = rerank_agg_parse(agg_name);
    if (agg < 0) die_usage("--aggregate: expected geo or sum, found '%s'", agg_name);
    if (official) { /* the official code's settings, recorded as the options' values */
        agg_name = "sum";
        agg = RERANK_SUM;
        mu = 9;
        aw.kind = ANCHOR_RERANK_BANDS;
    }
    const char *in = argv[first];
    catalog_begin_beside(out);

    dists d;
    dists_open(&d, dists_path);
    expansion_set es;
    expansion_set_read(&es, in);
    if (strcmp(es.kind, EXPANSIONS_KIND))
        die_input(in, "header", "kind \"%s\": expected the \"expansions\" artifact of expand (re-ranking a ranking would "
                  "rank its already re-ordered lists again)", es.kind);
    if (es.entities != dists_n(&d))
        die_input(in, "summary", "expanded over %lld entities, but %s has %lld: use the dists the expansion used",
                  (long long)es.entities, dists_path, (long long)dists_n(&d));
    row_source prob = row_source_dense(&d.prob);
    anchor_scorer sc;
    anchor_init(&sc, &prob);

    artifact_writer *w = artifact_create(out, RANKED_KIND, EXPANSIONS_SCHEMA);
    artifact_param_options(w);
    artifact_param_str(w, "expansions", in);
    if (es.queries) artifact_param_str(w, "queries", es.queries); /* evaluate finds the gt through it */
    artifact_add_input(w, dists_path);
    artifact_add_input(w, in);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, es.n, es.entities);
    expansion_list_begin(stdout, (list_format)fmt);
    int64_t total = 0;
    for (int q = 0; q < es.n; q++) {
        expansion_record *r = &es.r[q];
        int n = r->nseeds + r->n;
        int64_t *rows = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
        for (int i = 0; i < r->nseeds; i++) rows[i] = row_or_die(&d, r->seeds[i], in, r);
        for (int i = 0; i < r->n; i++) rows[r->nseeds + i] = row_or_die(&d, r->eids[i], in, r);
        rerank_item *it = xmalloc(sizeof *it * (size_t)(r->n + 1));
        rerank_set(&sc, rows, n, r->nseeds, &aw, (rerank_agg)agg, mu, it);
        expansion_record o = *r;
        expansion_record_alloc_lists(&o);
        for (int k = 0; k < r->n; k++) {
            int src = it[k].order - 1;
            o.eids[k] = r->eids[src];
            o.names[k] = r->names[src];
            o.scores[k] = it[k].score;
            o.order[k] = it[k].order;
            o.kl_rank[k] = it[k].rank;
            o.kl_score[k] = it[k].s;
        }
        expansion_record_pack(pk, &o);
        expansion_record_write(stdout, &o, (list_format)fmt);
        total += r->n;
        expansion_record_free_lists(&o);
        free(it);
        free(rows);
    }
    artifact_commit(w);
    catalog_metric("queries", es.n);
    char b1[32], b2[32];
    log_done("%s queries, %s entities re-ranked", fmt_count(b1, es.n), fmt_count(b2, total));
    anchor_free(&sc);
    expansion_set_free(&es);
    dists_close(&d);
    return 0;
}
