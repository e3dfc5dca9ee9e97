/* rerank: ProbExpan's entity re-ranking (docs/design.md §3 Re-ranking). For each
 * expanded set, score every expanded entity against the whole final set as the
 * anchor, rank by that score, and combine rank and expansion order:
 * sqrt(1/i * 1/rank) (default) or mu/i + 1/rank (official code). Writes a
 * `ranked` artifact. The rows come from a dense dists artifact or are computed from a
 * corpus index and a patmodel (common/model/entity_rows.h).
 * Cost per set of N entities (seeds + expanded) among E: O(N^2) anchor terms plus one sum
 * over each of the N rows: O(E) from dists, or O(sum over the entity's features of their
 * entities) computed from the index. Memory: the dists mapping, or the index plus the N rows
 * of one set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "base/cli.h"
#include "base/error.h"
#include "artifacts/expansions.h"
#include "base/log.h"
#include "method/rerank.h"
#include "model/entity_rows.h"

static int64_t row_or_die(const entity_rows *d, int64_t eid, const char *path, const expansion_record *r) {
    int64_t row = intmap_get(d->row_of_eid, eid);
    if (row < 0) {
        char where[300];
        snprintf(where, sizeof where, "%s query %d", r->class_name, r->query + 1);
        die_input(path, where, "entity eid %lld has no row in %s: expansions and rows come from different entity tables",
                  (long long)eid, d->path);
    }
    return row;
}

int main(int argc, char **argv) {
    entity_rows_paths rp = {0};
    const char *out = NULL, *agg_name = "geo";
    double mu = 9;
    int official = 0;
    list_format_options lf = {0};
    anchor_weighting aw = ANCHOR_DEFAULT;
    const cli_option opts[] = {
        ENTITY_ROWS_CLI_OPTIONS(rp),
        {"aggregate", OPT_STRING, &agg_name, "geo|sum", "geo: sqrt(1/i * 1/rank) (paper); sum: mu/i + 1/rank (official code)", 0, 0},
        {"mu", OPT_DOUBLE, &mu, "MU", "weight of the expansion order in --aggregate sum", 0, 1e9},
        ANCHOR_CLI_OPTIONS(aw),
        {"official", OPT_FLAG, &official, NULL, "the official code: --aggregate sum --mu 9 and its anchor bands 1600/900/600/150", 0, 0},
        LIST_FORMAT_CLI_OPTIONS(lf, "the re-ranked lists"),
        {"out", OPT_OUTPUT, &out, "FILE", "output ranked artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"rerank", "re-rank expanded sets by KL rank and expansion order",
                           "(--dists FILE | --index FILE --model FILE) --out FILE [options] EXPANSIONS",
                           "rerank --dists run/ensemble.mp --out run/ranked.mp run/expansions.mp",
                           "expand, evaluate", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    list_format fmt = list_format_chosen(&lf);
    if (argc - first != 1) die_usage("expected exactly one EXPANSIONS artifact (try --help)");
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

    entity_rows d;
    entity_rows_open(&d, &rp, "rerank");
    expansion_set es;
    expansion_set_read(&es, in);
    if (strcmp(es.kind, EXPANSIONS_KIND))
        die_input(in, "header", "kind \"%s\": expected the \"expansions\" artifact of expand (re-ranking a ranking would "
                  "rank its already re-ordered lists again)", es.kind);
    if (es.entities != d.n)
        die_input(in, "summary", "expanded over %lld entities, but %s has %lld: use the rows the expansion used",
                  (long long)es.entities, d.path, (long long)d.n);
    anchor_scorer sc;
    anchor_init(&sc, &d.src);

    artifact_writer *w = ranked_create(out);
    artifact_param_options(w);
    artifact_param_str(w, "expansions", in);
    if (es.queries) artifact_param_str(w, "queries", es.queries); /* evaluate finds the gt through it */
    entity_rows_add_inputs(&d, w);
    artifact_add_input(w, in);
    msgpack_packer *pk = artifact_payload(w);
    expansions_pack_begin(pk, es.n, es.entities);
    expansion_list_begin(stdout, fmt);
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
        expansion_record_write(stdout, &o, fmt);
        total += r->n;
        expansion_record_free_lists(&o);
        free(it);
        free(rows);
        entity_rows_forget(&d);
    }
    artifact_commit(w);
    catalog_metric("queries", es.n);
    char b1[32], b2[32];
    log_done("%s queries, %s entities re-ranked", fmt_count(b1, es.n), fmt_count(b2, total));
    anchor_free(&sc);
    expansion_set_free(&es);
    entity_rows_close(&d);
    return 0;
}
