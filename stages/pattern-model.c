/* pattern-model: one pattern model over a corpus index, as a `patmodel` artifact
 * (schemas/patmodel.md) — the index path's counterpart of pattern-dists: the same model
 * (its feature subset with --feature-fraction/--random-seed; with --pairs its feature weights
 * refined on the pairs' classes, ProbExpan's contrastive phase for the pattern model), but
 * stored as the few numbers that define it instead of its E x E rows. expand, rerank and
 * score-models take it with --index and compute the rows they need on demand; their
 * rankings equal those from pattern-dists' dists (tests/stage/pipeline.sh).
 * Cost for F features and P feature-entity pairs: O(P) to derive the model from the index;
 * with --pairs, steps x (F + sum over classes of |pos| x (|pos| + |neg|) x profile length)
 * for the refinement. Memory O(E + F + P); the output is O(F) bytes (the weights; a few
 * hundred bytes unrefined). */
#include <stdlib.h>
#include <string.h>

#include "artifacts/index.h"
#include "artifacts/pairs.h"
#include "artifacts/patmodel.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"
#include "model/pairs_refinement.h"
#include "model/pattern_model.h"

/* Exit 3 unless the pairs were built from the samples the index was built from (the pairs'
 * entity rows are then index rows). */
static void check_pairs_index(const pairs_set *p, const char *pairs_path, const corpus_index *x) {
    if (strcmp(p->samples_sha256, x->samples_sha256) || p->entities != x->ent.n || p->samples != x->samples)
        die_input(pairs_path, "header", "built from samples %.12s... (%lld entities), but the index %s from %.12s... "
                  "(%lld entities): build both from one samples artifact", p->samples_sha256, (long long)p->entities,
                  x->path, x->samples_sha256, (long long)x->ent.n);
    for (int c = 0; c < p->n_classes; c++) {
        const pairs_class *k = &p->c[c];
        for (int64_t i = 0; i < k->sets.n_pos + k->sets.n_neg; i++) {
            int pos = i < k->sets.n_pos;
            int64_t row = pos ? k->sets.pos[i] : k->sets.neg[i - k->sets.n_pos];
            int64_t eid = pos ? k->pos_eid[i] : k->neg_eid[i - k->sets.n_pos];
            if (x->ent.eid[row] != eid)
                die_input(pairs_path, k->name, "entity row %lld is eid %lld, but eid %lld in the index %s", (long long)row,
                          (long long)eid, (long long)x->ent.eid[row], x->path);
        }
    }
}

/* The refinement of m on the classes of the pairs artifact at path. */
static pattern_refinement *refine(const pattern_model *m, const char *path, const corpus_index *x,
                                  const pattern_contrast_opts *co) {
    pairs_set ps;
    pairs_read(&ps, path);
    check_pairs_index(&ps, path, x);
    pattern_class_sets *cs = pairs_class_sets(&ps);
    double t0 = now_seconds(), before = 0, after = 0;
    pattern_refinement *r = pattern_model_refine(m, cs, ps.n_classes, co, &before, &after);
    pairs_refinement_report(&ps, path, co->steps, before, after, t0);
    free(cs);
    pairs_free(&ps);
    return r;
}

int main(int argc, char **argv) {
    const char *index_path = NULL, *pairs_path = NULL, *out = NULL;
    double fraction = 1;
    long seed = (long)pattern_config_defaults(PATTERN_SIMILARITY).seed;
    pattern_contrast_opts co = pattern_contrast_defaults();
    const cli_option opts[] = {
        {"index", OPT_INPUT, &index_path, "FILE", "corpus index (index): the features, counts and model settings", 0, 0},
        {"feature-fraction", OPT_DOUBLE, &fraction, "F", "keep a seeded subset of about F of the features", 1e-3, 1},
        {"random-seed", OPT_LONG, &seed, "N", "random seed of the --feature-fraction subset", 0, 9.2e18},
        {"pairs", OPT_INPUT, &pairs_path, "FILE", "pairs artifact (build-pairs, from the index's samples): refine the feature weights on its classes", 0, 0},
        PATTERN_CONTRAST_CLI_OPTIONS(co, "--pairs"),
        {"out", OPT_OUTPUT, &out, "FILE", "patmodel artifact to write", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"pattern-model", "a pattern model over a corpus index, as a small patmodel artifact (no E x E rows)",
                           "--index FILE [--feature-fraction F --random-seed N] [--pairs FILE] --out model.mp",
                           "pattern-model --index run/index.mp --feature-fraction 0.8 --random-seed 1002 --out run/phase1/model-2.mp",
                           "index, pattern-dists, score-models, expand, rerank", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!index_path || !out) die_usage("--index and --out are required");
    catalog_begin_beside(out);
    double t0 = now_seconds();
    corpus_index x;
    index_read(&x, index_path);
    pattern_config c = x.cfg;
    c.feature_fraction = fraction;
    c.seed = (uint64_t)seed;
    pattern_model *m = pattern_model_from_counts(&c, &x.counts);
    pattern_stats st = pattern_model_stats(m);
    patmodel_member mb = {fraction, (uint64_t)seed, 0, NULL};
    pattern_refinement *ref = pairs_path ? refine(m, pairs_path, &x, &co) : NULL;
    if (ref) {
        mb.nweights = st.features;
        mb.weights = (float *)pattern_refinement_weights(ref);
    }
    artifact_writer *w = patmodel_create(out);
    artifact_param_str(w, "model", "patterns");
    artifact_param_options(w);
    artifact_add_input(w, index_path);
    if (pairs_path) artifact_add_input(w, pairs_path);
    patmodel_pack(w, &x, &mb, 1);
    artifact_commit(w);
    double secs = now_seconds() - t0;
    catalog_metric("features", (double)st.features);
    catalog_metric("seconds", secs);
    char a[32], b[32];
    log_done("%s entities, %s features%s -> %s (%.1f s)", fmt_count(a, x.ent.n), fmt_count(b, st.features),
             ref ? " refined" : "", out, secs);
    pattern_refinement_free(ref);
    pattern_model_free(m);
    index_free(&x);
    return 0;
}
