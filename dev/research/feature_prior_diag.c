/* feature_prior_diag: research driver (not shipped) — can the feature weights a contrastive
 * refinement learns on other queries be had from the corpus alone? Over a corpus index:
 *
 *  --model M --out T.tsv   one line per feature next to M's refined weight (M: a refined
 *                          one-member patmodel of every feature, e.g. the transductive
 *                          pipeline's phase3-single/model.mp):
 *                            f kind nent freq entropy coherence weight ids
 *                          kind 0..8 the n-gram shape (l1_, _r1, l1_r1, l2l1_, _r1r2,
 *                          l2l1_r1, l1_r1r2, l3l2l1_, _r1r2r3), 9 a bag word; nent its
 *                          entities; freq its samples; entropy of its entity distribution
 *                          (nats); coherence feature_prior.h; ids its context ids ("_" = the
 *                          mask) or bag word id (needs --samples for kind and ids);
 *  --model M --smooth --out P.mp
 *                          a patmodel whose weights are M's log-weights averaged within cells
 *                          of (kind, nent bin, coherence bin): the part of the learned weights
 *                          those attributes predict;
 *  --coherence-prior G --out P.mp
 *                          a patmodel whose weights are the coherence prior (feature_prior.h,
 *                          --prior-shrink K);
 *  --pairs PAIRS --out PREFIX
 *                          leave one class out: for each class c of a pairs artifact, model 1
 *                          refined on the other classes (--cl-* options) -> PREFIX-c.mp.
 * A patmodel it writes is an ordinary one-member patmodel over the index: evaluate it with
 * `expand --index I --model P.mp` and `rerank --index I --model P.mp --official`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/index.h"
#include "artifacts/pairs.h"
#include "artifacts/patmodel.h"
#include "artifacts/samples.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "feature_prior.h"
#include "model/pattern_samples.h"

static int kind_of(const pattern_feature *d) {
    static const int shape[4][4] = {{-1, 1, 4, 8}, {0, 2, 6, -1}, {3, 5, -1, -1}, {7, -1, -1, -1}};
    return d->kind == PATTERN_BAG ? 9 : d->kind == PATTERN_GENUS ? 10 : shape[d->nl][d->nr];
}

/* Writes a one-member patmodel of every feature of x with the weights w (NULL: unrefined). */
static void write_model(const char *path, const char *index_path, const char *extra_input, const corpus_index *x,
                        const float *w) {
    patmodel_member mb = {1.0, 1, w ? x->counts.F : 0, (float *)w};
    artifact_writer *aw = patmodel_create(path);
    artifact_param_str(aw, "model", "patterns");
    artifact_param_options(aw);
    artifact_add_input(aw, index_path);
    if (extra_input) artifact_add_input(aw, extra_input);
    patmodel_pack(aw, x, &mb, 1);
    artifact_commit(aw);
}

/* desc[f]: what feature f of the counts is, from the first sample showing it. */
static pattern_feature *describe_features(const corpus_index *x, const char *samples_path) {
    intmap row;
    intmap_init(&row);
    for (int64_t f = 0; f < x->counts.F; f++) intmap_put(&row, (int64_t)x->counts.key[f], f);
    pattern_feature *desc = xcalloc((size_t)x->counts.F + 1, sizeof *desc);
    samples *s = samples_open(samples_path);
    pattern_sample *ps = pattern_samples_read(s);
    for (int64_t j = 0; j < samples_count(s); j++) {
        pattern_feature d[PATTERN_MAX];
        int n = pattern_sample_features(&ps[j], &x->cfg, d);
        for (int q = 0; q < n; q++) {
            int64_t f = intmap_get(&row, (int64_t)d[q].key);
            if (f >= 0 && desc[f].key == 0) desc[f] = d[q];
        }
    }
    free(ps);
    samples_close(s);
    intmap_free(&row);
    return desc;
}

/* The refined weights of a one-member patmodel of every feature of x. */
static const float *model_weights(patmodel *pm, const char *path, const corpus_index *x) {
    patmodel_read(pm, path);
    patmodel_check_index(pm, x);
    if (pm->n != 1 || pm->m[0].feature_fraction < 1 || !pm->m[0].weights)
        die("%s: a refined one-member model of every feature is expected", path);
    return pm->m[0].weights;
}

/* Log-weights averaged within (kind, nent bin, coherence bin) cells, exponentiated into out. */
static void smooth_weights(const corpus_index *x, const pattern_feature *desc, const float *coh, const float *w,
                           float *out) {
    const pattern_counts *k = &x->counts;
    intmap cell;
    intmap_init(&cell);
    int64_t *id = xmalloc(sizeof(int64_t) * (size_t)(k->F + 1)), ncell = 0;
    for (int64_t f = 0; f < k->F; f++) {
        int64_t n = k->foff[f + 1] - k->foff[f];
        int64_t nbin = (int64_t)fmin(30, floor(2 * log2((double)n)));
        int64_t cbin = (int64_t)fmax(-1, fmin(12, floor(coh[f] / 0.01)));
        int64_t key = (kind_of(&desc[f]) * 64 + nbin) * 64 + cbin + 1, c = intmap_get(&cell, key);
        if (c < 0) intmap_put(&cell, key, c = ncell++);
        id[f] = c;
    }
    double *sum = xcalloc((size_t)ncell + 1, sizeof(double));
    int64_t *cnt = xcalloc((size_t)ncell + 1, sizeof(int64_t));
    for (int64_t f = 0; f < k->F; f++) {
        sum[id[f]] += log(w[f]);
        cnt[id[f]]++;
    }
    for (int64_t f = 0; f < k->F; f++) out[f] = (float)exp(sum[id[f]] / (double)cnt[id[f]]);
    fprintf(stderr, "feature_prior_diag: %lld cells\n", (long long)ncell);
    free(sum);
    free(cnt);
    free(id);
    intmap_free(&cell);
}

static void write_tsv(const char *out, const corpus_index *x, const pattern_feature *desc, const float *coh, const float *w) {
    const pattern_counts *k = &x->counts;
    FILE *fp = fopen(out, "w");
    if (!fp) die("%s: cannot write", out);
    fprintf(fp, "f\tkind\tnent\tfreq\tentropy\tcoherence\tweight\tids\n");
    for (int64_t f = 0; f < k->F; f++) {
        double tot = 0, h = 0;
        for (int64_t p = k->foff[f]; p < k->foff[f + 1]; p++) tot += k->cnt[p];
        for (int64_t p = k->foff[f]; p < k->foff[f + 1]; p++) h -= k->cnt[p] / tot * log(k->cnt[p] / tot);
        const pattern_feature *d = &desc[f];
        fprintf(fp, "%lld\t%d\t%lld\t%.0f\t%.4f\t%.5f\t%.6g\t", (long long)f, kind_of(d),
                (long long)(k->foff[f + 1] - k->foff[f]), tot, h, coh[f], w[f]);
        if (d->kind == PATTERN_BAG) {
            fprintf(fp, "%d\n", d->word);
            continue;
        }
        if (d->kind == PATTERN_GENUS) {
            for (int i = 0; i < GENUS_PIECES && d->genus_word[i] >= 0; i++) fprintf(fp, "%s%d", i ? " " : "is-a ", d->genus_word[i]);
            fprintf(fp, "\n");
            continue;
        }
        for (int i = d->nl - 1; i >= 0; i--) fprintf(fp, "%d ", d->left[i]);
        fprintf(fp, "_");
        for (int i = 0; i < d->nr; i++) fprintf(fp, " %d", d->right[i]);
        fprintf(fp, "\n");
    }
    if (fclose(fp)) die("%s: write failed", out);
}

/* Leave one class out: model 1 refined on every class of the pairs but one, per class. */
static void leave_one_class_out(const char *prefix, const char *index_path, const char *pairs_path,
                                const corpus_index *x, const pattern_model *m, const pattern_contrast_opts *co) {
    pairs_set ps;
    pairs_read(&ps, pairs_path);
    pattern_class_sets *cs = xmalloc(sizeof(pattern_class_sets) * (size_t)(ps.n_classes + 1));
    for (int held = 0; held < ps.n_classes; held++) {
        int n = 0;
        for (int i = 0; i < ps.n_classes; i++)
            if (i != held) cs[n++] = (pattern_class_sets){ps.c[i].sets.pos, ps.c[i].sets.neg, ps.c[i].sets.n_pos, ps.c[i].sets.n_neg};
        pattern_refinement *r = pattern_model_refine(m, cs, n, co, NULL, NULL);
        char path[4096];
        snprintf(path, sizeof path, "%s-%s.mp", prefix, ps.c[held].name);
        write_model(path, index_path, pairs_path, x, pattern_refinement_weights(r));
        pattern_refinement_free(r);
        fprintf(stderr, "feature_prior_diag: %s (without class %s)\n", path, ps.c[held].name);
    }
    free(cs);
    pairs_free(&ps);
}

int main(int argc, char **argv) {
    const char *index_path = NULL, *samples_path = NULL, *model_path = NULL, *pairs_path = NULL, *out = NULL;
    int dim = FEATURE_PRIOR_SKETCH_DIM, smooth = 0;
    double power = 0, shrink = 0;
    pattern_contrast_opts co = pattern_contrast_defaults();
    const cli_option opts[] = {
        {"index", OPT_INPUT, &index_path, "FILE", "corpus index", 0, 0},
        {"samples", OPT_INPUT, &samples_path, "FILE", "the samples artifact of the index (--model: feature kinds)", 0, 0},
        {"model", OPT_INPUT, &model_path, "FILE", "refined one-member patmodel of every feature: TSV (or --smooth)", 0, 0},
        {"smooth", OPT_FLAG, &smooth, NULL, "with --model: write its weights averaged within attribute cells as a patmodel", 0, 0},
        {"coherence-prior", OPT_DOUBLE, &power, "G", "write the coherence prior with power G as a patmodel", 0, 10},
        {"prior-shrink", OPT_DOUBLE, &shrink, "K", "coherence prior: pseudo-pairs at the background", 0, 1e9},
        {"pairs", OPT_INPUT, &pairs_path, "FILE", "leave one class out: a patmodel per class, --out is the prefix", 0, 0},
        PATTERN_CONTRAST_CLI_OPTIONS(co, "--pairs"),
        {"dim", OPT_INT, &dim, "D", "sketch dimensions of the coherence", 1, 4096},
        {"out", OPT_STRING, &out, "FILE", "TSV, patmodel or prefix to write", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"feature_prior_diag", "corpus-level feature attributes against refined feature weights (research)",
                           "--index FILE (--model FILE --samples FILE [--smooth] | --coherence-prior G | --pairs FILE) --out FILE",
                           "feature_prior_diag --index runs/wn/index.mp --samples runs/wn/samples.mp "
                           "--model runs/wn/phase3-single/model.mp --out diag.tsv",
                           "pattern-model, expand, rerank", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!index_path || !out || (!model_path && !(power > 0) && !pairs_path))
        die_usage("--index, --out and one of --model, --coherence-prior, --pairs are required");
    if (model_path && !samples_path) die_usage("--model needs --samples");
    corpus_index x;
    index_read(&x, index_path);
    pattern_model *m = pattern_model_from_counts(&x.cfg, &x.counts);
    if (pairs_path) {
        leave_one_class_out(out, index_path, pairs_path, &x, m, &co);
    } else {
        float *coh = xmalloc(sizeof(float) * (size_t)(x.counts.F + 1));
        float *w = xmalloc(sizeof(float) * (size_t)(x.counts.F + 1));
        double c0 = feature_prior_coherence(m, &x.counts, dim, 1, coh);
        fprintf(stderr, "feature_prior_diag: background coherence %.5f\n", c0);
        if (model_path) {
            patmodel pm;
            const float *learned = model_weights(&pm, model_path, &x);
            pattern_feature *desc = describe_features(&x, samples_path);
            if (smooth) {
                smooth_weights(&x, desc, coh, learned, w);
                write_model(out, index_path, model_path, &x, w);
            } else {
                write_tsv(out, &x, desc, coh, learned);
            }
            free(desc);
            patmodel_free(&pm);
        } else {
            feature_prior_weights(&x.counts, coh, c0, power, shrink, w);
            write_model(out, index_path, NULL, &x, w);
        }
        free(coh);
        free(w);
    }
    pattern_model_free(m);
    index_free(&x);
    return 0;
}
