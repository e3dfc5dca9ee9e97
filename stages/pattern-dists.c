/* pattern-dists: the from-scratch entity model — writes the same dists artifact
 * as train-mlm + infer, estimated from counts of the context features around each sample's
 * [MASK] (n-gram patterns and a bag of nearby words) instead of a trained encoder
 * (common/model/pattern_model.h): seconds instead of hours, and nothing to memorise. expand,
 * rerank and score-models use its output unchanged; --feature-fraction with K seeds gives K
 * different models for ProbExpan's ensemble and model selection; --pairs is the contrastive
 * phase (what train-cl is for an encoder): feature weights refined on the pairs' classes. */
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/dists.h"
#include "base/error.h"
#include "base/log.h"
#include "artifacts/pairs.h"
#include "model/pairs_refinement.h"
#include "model/pattern_model.h"
#include "model/pattern_samples.h"
#include "artifacts/samples.h"

#define ROW_BLOCK 64

/* Phase 3 for pattern models: refine the feature weights on the classes of a pairs artifact. */
static void contrast(pattern_model *m, const char *pairs_path, const samples *s, const char *samples_path,
                     const pattern_contrast_opts *o) {
    pairs_set ps;
    pairs_read(&ps, pairs_path);
    char sha[65];
    input_sha256_hex(samples_path, sha);
    pairs_check_samples(&ps, pairs_path, s, sha);
    pattern_class_sets *cs = pairs_class_sets(&ps);
    double t0 = now_seconds(), before = 0, after = pattern_model_contrast(m, cs, ps.n_classes, o, &before);
    pairs_refinement_report(&ps, pairs_path, o->steps, before, after, t0);
    free(cs);
    pairs_free(&ps);
}

int main(int argc, char **argv) {
    const char *samples_path = NULL, *out = NULL, *estimator = "similarity", *patterns = "long", *pairs_path = NULL;
    pattern_contrast_opts co = pattern_contrast_defaults();
    pattern_config c = pattern_config_defaults(PATTERN_SIMILARITY);
    c.bag = c.min_entities = -1; /* -1: the estimator's default */
    c.idf_power = -1;
    c.differentia_weight = PATTERN_AUTO; /* as `index` chooses it: the pipeline's dense path ranks as its index path */
    long seed = (long)c.seed;
    const cli_option opts[] = {
        {"samples", OPT_INPUT, &samples_path, "FILE", "samples artifact (build-samples)", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "dists artifact to write", 0, 0},
        {"estimator", OPT_STRING, &estimator, "similarity|prediction", "similarity: softmax of PMI-profile cosines; prediction: leave-one-out P(entity | feature) mixture (pattern_model.h)", 0, 0},
        {"patterns", OPT_STRING, &patterns, "short|long", "short: l1_, _r1, l1_r1, l2l1_, _r1r2; long: also l2l1_r1, l1_r1r2, l3l2l1_, _r1r2r3", 0, 0},
        PATTERN_COUNT_CLI_OPTIONS(c)
        PATTERN_ESTIMATE_CLI_OPTIONS(c)
        {"random-seed", OPT_LONG, &seed, "N", "random seed of the --feature-fraction subset", 0, 9.2e18},
        {"pairs", OPT_INPUT, &pairs_path, "FILE", "pairs artifact (build-pairs): refine the feature weights on its classes first (similarity)", 0, 0},
        PATTERN_CONTRAST_CLI_OPTIONS(co, "--pairs"),
        {0}};
    const cli_spec spec = {"pattern-dists", "entity distributions r(e) from context-pattern counts, no encoder (the from-scratch model)",
                           "[options] --samples FILE --out dists.mp",
                           "pattern-dists --samples run/samples.mp --feature-fraction 0.8 --random-seed 2 --out run/phase1/dists-2.mp",
                           "build-samples, score-models, expand", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!samples_path || !out) die_usage("--samples and --out are required");
    if (strcmp(estimator, "similarity") && strcmp(estimator, "prediction"))
        die_usage("--estimator must be similarity or prediction, not '%s'", estimator);
    if (strcmp(patterns, "short") && strcmp(patterns, "long")) die_usage("--patterns must be short or long, not '%s'", patterns);
    c.estimator = strcmp(estimator, "similarity") ? PATTERN_PREDICTION : PATTERN_SIMILARITY;
    pattern_config_finish_options(&c);
    if (pairs_path && c.estimator != PATTERN_SIMILARITY) die_usage("--pairs needs --estimator similarity");
    c.long_patterns = !strcmp(patterns, "long");
    c.seed = (uint64_t)seed;
    catalog_begin_beside(out);
    double t0 = now_seconds();
    samples *s = samples_open(samples_path);
    int64_t E = samples_entities(s), S = samples_count(s);
    pattern_sample *ps = pattern_samples_read(s);
    pattern_config_resolve(&c, S, ps);
    pattern_model *m = pattern_model_build(&c, E, S, ps);
    free(ps);
    pattern_model_fit(m);
    if (pairs_path) contrast(m, pairs_path, s, samples_path, &co);
    pattern_stats st = pattern_model_stats(m);
    char a[32], b[32], d[32], e[32];
    log_info("%s entities, %s samples: %s features, %s feature-entity pairs; %lld samples without a feature, "
             "%lld entities with a uniform row (nothing usable)", fmt_count(a, E), fmt_count(b, S),
             fmt_count(d, st.features), fmt_count(e, st.pairs), (long long)st.samples_unusable,
             (long long)st.entities_uniform);

    entity_table t;
    samples_entity_table(s, &t);
    dists_writer *w = dists_create(out, &t);
    entity_table_free(&t);
    artifact_writer *aw = dists_artifact(w);
    artifact_param_str(aw, "model", "patterns");
    artifact_param_options(aw); /* --bag, --min-entities, --idf-power: the estimator's values */
    const char *inputs[2] = {samples_path, pairs_path};
    for (int i = 0; i < 2 && inputs[i]; i++) {
        char *r = realpath(inputs[i], NULL);
        artifact_add_input(aw, r ? r : inputs[i]);
        free(r);
    }
    float *block = xmalloc(sizeof(float) * (size_t)ROW_BLOCK * (size_t)E);
    progress pr;
    progress_start(&pr, "distributions", "entities", E);
    for (int64_t first = 0; first < E; first += ROW_BLOCK) {
        int64_t n = E - first < ROW_BLOCK ? E - first : ROW_BLOCK;
        pattern_model_rows(m, first, n, block);
        for (int64_t i = 0; i < n; i++) dists_write_row(w, block + (size_t)i * E);
        progress_update(&pr, first + n);
    }
    progress_end(&pr);
    dists_commit(w);
    double secs = now_seconds() - t0;
    catalog_metric("features", (double)st.features);
    catalog_metric("pairs", (double)st.pairs);
    catalog_metric("samples_unusable", (double)st.samples_unusable);
    catalog_metric("entities_uniform", (double)st.entities_uniform);
    catalog_metric("seconds", secs);
    log_done("%s entities -> %s (%.1f s)", fmt_count(a, E), out, secs);
    free(block);
    pattern_model_free(m);
    samples_close(s);
    return 0;
}
