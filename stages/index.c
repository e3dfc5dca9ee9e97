/* index: builds the corpus index (schemas/index.md) from a samples artifact — the entity
 * table, each entity's mention count and the pattern model's feature counts: every feature
 * of every sample (n-gram patterns and the bag of nearby words around its [MASK], the genus of
 * its definition, its coordination list, the class nouns around it, its name's head), kept when seen
 * with at least --min-entities entities, with its (entity, count) postings. `query`, `serve`
 * and the pipeline's stages derive the K models, rows and refinements from it on demand.
 * Cost: O(S x PATTERN_MAX x log(S x PATTERN_MAX)) time for S samples (hashing and sorting
 * the feature occurrences), O(S x PATTERN_MAX) memory while counting; the index itself is
 * O(E + F + feature-entity pairs) bytes — linear in the corpus, no E x E matrix.
 * Under mpirun each rank counts the features it owns (a hash of the feature picks the rank)
 * over all samples and rank 0 merges them in order of first occurrence and writes the index:
 * the same file as one process, the sorting and counting divided among the ranks. */
#include <stdlib.h>
#include <string.h>

#include "artifacts/index.h"
#include "artifacts/samples.h"
#include "base/cli.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"
#include "model/located_pairs.h"
#include "model/noun_slots.h"
#include "model/pattern_samples.h"

int main(int argc, char **argv) {
    const char *samples_path = NULL, *out = NULL, *patterns = "long";
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.list_weight = c.evidence = c.differentia_weight = PATTERN_AUTO;
    const cli_option opts[] = {
        {"samples", OPT_INPUT, &samples_path, "FILE", "samples artifact (build-samples)", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "index artifact to write", 0, 0},
        {"patterns", OPT_STRING, &patterns, "short|long", "short: l1_, _r1, l1_r1, l2l1_, _r1r2; long: also l2l1_r1, l1_r1r2, l3l2l1_, _r1r2r3", 0, 0},
        PATTERN_COUNT_CLI_OPTIONS(c)
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"index", "the corpus index: entity table, mention counts and pattern-model feature counts",
                           "--samples FILE --out index.mp [options]",
                           "index --samples runs/wn/samples.mp --out runs/wn/index.mp",
                           "build-samples, query, pattern-dists, inspect", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!samples_path || !out) die_usage("--samples and --out are required");
    if (strcmp(patterns, "short") && strcmp(patterns, "long")) die_usage("--patterns must be short or long, not '%s'", patterns);
    c.long_patterns = !strcmp(patterns, "long");
    pattern_config_finish_options(&c);
    cluster_init(&argc, &argv);
    if (cluster_rank() == 0) catalog_begin_beside(out); /* one catalog record for the whole job */
    double t0 = now_seconds();
    samples *s = samples_open(samples_path);
    int64_t E = samples_entities(s), S = samples_count(s);
    pattern_sample *ps = pattern_samples_read(s);
    double subjects = pattern_config_resolve(&c, S, ps);
    if (cluster_rank() == 0)
        log_info("%.1f%% of the samples are a definition's subject: list weight %g, evidence %g, differentia weight %g",
                 100 * subjects, c.list_weight, c.evidence, c.differentia_weight);
    pattern_counts k;
    pattern_counts_build(&k, &c, E, S, ps);
    located_pairs lp = {0};
    if (c.list_weight > 0 && cluster_rank() == 0) { /* running text: the place-in-place rule's pairs */
        const char **name = xmalloc(sizeof(char *) * (size_t)(E + 1));
        for (int64_t e = 0; e < E; e++) name[e] = samples_name(s, e);
        located_pairs_count(ps, S, name, &lp);
        free(name);
    }
    int32_t *noun_slots = NULL;
    if (cluster_rank() == 0) { /* the modifier rule's counts (noun_slots.h) */
        int32_t V = samples_vocab_size(s);
        const char **tokens = xmalloc(sizeof(char *) * ((size_t)V + 1));
        for (int32_t i = 0; i < V; i++) tokens[i] = samples_vocab_token(s, i);
        noun_slots = xmalloc(sizeof(int32_t) * (size_t)(E + 1));
        noun_slots_count(ps, S, tokens, V, E, noun_slots);
        free(tokens);
    }
    free(ps);
    if (cluster_rank() > 0) { /* a worker: its counts went to rank 0, which writes the index */
        samples_close(s);
        return 0;
    }
    int64_t *mentions = xmalloc(sizeof(int64_t) * (size_t)E);
    for (int64_t e = 0; e < E; e++) {
        int64_t f;
        samples_range(s, e, &f, &mentions[e]);
    }
    entity_table t;
    samples_entity_table(s, &t);
    index_write(out, &t, mentions, noun_slots, S, samples_path, &c, &k, &lp);
    double secs = now_seconds() - t0;
    char a[32], b[32], d[32], e[32];
    catalog_metric("features", (double)k.F);
    catalog_metric("pairs", (double)k.foff[k.F]);
    catalog_metric("seconds", secs);
    log_done("%s entities, %s samples: %s features, %s feature-entity pairs -> %s (%.1f s)", fmt_count(a, E),
             fmt_count(b, S), fmt_count(d, k.F), fmt_count(e, k.foff[k.F]), out, secs);
    entity_table_free(&t);
    free(mentions);
    free(noun_slots);
    pattern_counts_free(&k);
    located_pairs_free(&lp);
    samples_close(s);
    return 0;
}
