/* classes: the classes a corpus holds, proposed before any seed from its index alone — groups
 * of entities whose definitions share a head word ("composer — 97 entities"), ranked by size
 * and coherence, each with its most typical members (common/model/class_proposals.h); the
 * head words are read back from the run's samples. Prints TSV or JSON on stdout
 * (docs/classes.md). Cost: O(feature-entity pairs) to load and scan the index, then
 * O(genus pairs log) — well under a second for ~8k entities. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifacts/index.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "model/class_report.h"

int main(int argc, char **argv) {
    const char *run = NULL, *format = "tsv";
    class_options o = class_options_defaults();
    const cli_option opts[] = {
        {"run", OPT_INPUT, &run, "DIR", "run folder of the pipeline: its index.mp and samples.mp (make ... index)", 0, 0},
        {"format", OPT_STRING, &format, "tsv|json", "stdout: TSV (rank, head, word, entities, core, coherence, score, member_eids, members) or JSON", 0, 0},
        {"limit", OPT_INT, &o.limit, "N", "classes to list, best first", 1, 100000},
        {"members", OPT_INT, &o.members, "N", "typical members listed per class", 1, 10000},
        {"words", OPT_INT, &o.words, "N", "narrowing words per head (a word near the mentions that part of its entities share: god + greek)", 0, 100},
        {"min-lift", OPT_DOUBLE, &o.min_lift, "X", "a narrowing word is held by the head's entities at least X times as often as by all entities", 1, 1e6},
        {"min-core", OPT_INT, &o.min_core, "N", "entities a class needs whose definitions mainly (>= 1/2) call them its head", 1, 1000000},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"classes", "the classes a corpus holds, from its index alone: shared definition heads and their typical members",
                           "--run DIR [--format tsv|json] [options]", "classes --run runs/wn --limit 20",
                           "index, query, serve, docs/classes.md", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!run) die_usage("--run is required");
    if (strcmp(format, "tsv") && strcmp(format, "json")) die_usage("--format: expected tsv or json, found '%s'", format);
    char *index_path = xasprintf("%s/index.mp", run), *samples_path = xasprintf("%s/samples.mp", run);
    if (access(index_path, R_OK) != 0) die_input(index_path, NULL, "missing: build it with make -f pipelines/probexpan.mk DATA=... RUN=%s index", run);
    if (access(samples_path, R_OK) != 0) die_input(samples_path, NULL, "missing: the samples %s was built from are needed", index_path);
    corpus_index x;
    index_read(&x, index_path);
    feature_text *t = feature_text_open(&x, samples_path);
    genus_heads h;
    genus_heads_build(&h, &x.counts);
    class_proposal *p;
    int n = class_proposals_build(&x, &h, &o, &p);
    if (!strcmp(format, "tsv")) {
        class_report_tsv(stdout, &x, p, n, t);
    } else {
        json_t *j = class_report_json(&x, &h, p, n, t);
        json_dumpf(j, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
        putchar('\n');
        json_decref(j);
    }
    stdout_flush();
    if (!h.features) log_info("%s has no genus features (no definitions found in the corpus, or --genus-weight 0): no class to propose", index_path);
    log_done("%d classes from %lld genus features of %lld entities", n, (long long)h.features, (long long)x.ent.n);
    class_proposals_free(p, n);
    genus_heads_free(&h);
    feature_text_close(t);
    index_free(&x);
    free(index_path);
    free(samples_path);
    return 0;
}
