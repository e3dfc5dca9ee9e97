/* build-pairs: the `pairs` artifact of the contrastive phase (schemas/pairs.md) from the
 * previous phase's ranking, the dataset's queries and the samples artifact the ranking's
 * models read: per class E_pos = seeds + ranks 1..thr_pos-1 and E_neg = ranks in
 * (L_neg, U_neg), thresholds from --preset (paper Table 6) unless given, then one seeded draw
 * of sample pairs (common/model/pairs_build.h). Prints per class the sizes and the first
 * --show names of each set on stdout. train-cl and pattern-model/pattern-dists --pairs read it. */
#include <stdio.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"
#include "model/pairs_build.h"

int main(int argc, char **argv) {
    const char *ranked = NULL, *queries = NULL, *samples = NULL, *preset = "wiki", *out = NULL;
    cl_bounds bounds = {-1, -1, -1}; /* -1: the preset's */
    int show = 5, pairs_per_set = cl_pair_opts_default().max_pairs_per_set;
    long seed = 1;
    const cli_option opts[] = {
        {"ranked", OPT_INPUT, &ranked, "FILE", "ranked artifact of the previous phase (rerank)", 0, 0},
        {"queries", OPT_INPUT, &queries, "DATA", "dataset (folder or archive) whose query/ the ranking answered", 0, 0},
        {"samples", OPT_INPUT, &samples, "FILE", "samples artifact the ranking's models were trained on", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "pairs artifact to write", 0, 0},
        {"preset", OPT_STRING, &preset, "wiki|apr|se2", "paper Table 6 column for the thresholds", 0, 0},
        {"thr-pos", OPT_INT, &bounds.thr_pos, "N", "E_pos = seeds + ranks 1..N-1 (-1: preset, wiki 12)", -1, 1000000000},
        {"l-neg", OPT_INT, &bounds.l_neg, "N", "E_neg = ranks in (L_neg, U_neg) (-1: preset, wiki 170)", -1, 1000000000},
        {"u-neg", OPT_INT, &bounds.u_neg, "N", "upper bound U_neg, exclusive (-1: preset, wiki 200)", -1, 1000000000},
        {"pairs-per-set", OPT_INT, &pairs_per_set, "M", "at most M sample pairs per entity pair set (official: the samples per entity, 256)", 1, 1000000000},
        {"random-seed", OPT_LONG, &seed, "N", "random seed of the pair draw", 0, 0},
        {"show", OPT_INT, &show, "N", "names printed per set on stdout", 0, 1000000000},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"build-pairs", "the contrastive pairs artifact: positive and negative entity sets from a ranking, and their sample pairs",
                           "--ranked ranked.mp --queries DATA --samples samples.mp --out pairs.mp [options]",
                           "build-pairs --ranked run/phase2/ranked.mp --queries data/wn --samples run/samples.mp --out run/phase3/pairs.mp",
                           "rerank, train-cl, pattern-model, pattern-dists", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!ranked || !queries || !samples || !out) die_usage("--ranked, --queries, --samples and --out are required");
    const cl_preset *pr = cl_preset_find(preset);
    if (!pr) die_usage("--preset: expected wiki, apr or se2, found '%s'", preset);
    /* resolved before the params are recorded: the artifact holds the values used */
    if (bounds.thr_pos < 0) bounds.thr_pos = pr->thr_pos;
    if (bounds.l_neg < 0) bounds.l_neg = pr->l_neg;
    if (bounds.u_neg < 0) bounds.u_neg = pr->u_neg;
    catalog_begin_beside(out);
    cl_pair_opts po = cl_pair_opts_default();
    po.max_pairs_per_set = pairs_per_set;
    artifact_writer *w = pairs_create(out);
    artifact_param_options(w);
    pairs_build_opts o = {.ranked = ranked, .queries = queries, .samples = samples, .out = w, .bounds = bounds,
                          .opts = po, .seed = (uint64_t)seed, .show = show};
    int64_t n = pairs_build(&o, stdout);
    stdout_flush();
    catalog_metric("pairs", (double)n);
    char b[32];
    log_done("%s pairs (thr_pos %d, L_neg %d, U_neg %d) in %s", fmt_count(b, n), bounds.thr_pos, bounds.l_neg,
             bounds.u_neg, out);
    return 0;
}
