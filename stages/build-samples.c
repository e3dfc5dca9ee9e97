/* build-samples: one masked sample per (entity, mention) from a corpus artifact.
 *
 * For every mention, the sentence's wordpieces with the mention's span replaced
 * by one [MASK], wrapped in [CLS] ... [SEP] (docs/design.md §3 "Samples"). Sentences
 * over --max-words words (150, official code) and samples over --max-wordpieces
 * (512) are dropped, then entities with fewer than --min-samples (2) samples;
 * --max-samples-per-entity keeps a --random-seed-determined subset. Writes the
 * `samples` artifact (schemas/samples.md): the entity index (row i <-> eid, used
 * by every later stage), a per-entity sample table and the token stream, read
 * through common/artifacts/samples.h. The two passes over the corpus are
 * common/model/samples_build.h. */
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"
#include "model/samples_build.h"

int main(int argc, char **argv) {
    const char *corpus_path = NULL, *out = NULL;
    samples_build_opts o = samples_build_defaults();
    long seed = (long)o.seed;
    const cli_option opts[] = {
        {"corpus", OPT_INPUT, &corpus_path, "FILE", "corpus artifact from tokenize", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output samples artifact", 0, 0},
        {"max-words", OPT_INT, &o.max_words, "N", "drop sentences of more than N words (official code: 150)", 1, 100000000},
        {"max-wordpieces", OPT_INT, &o.max_wordpieces, "N", "drop samples of more than N wordpieces incl. [CLS]/[SEP]", 3, 65535},
        {"min-samples", OPT_INT, &o.min_samples, "N", "drop entities with fewer than N samples", 1, 1000000},
        {"max-samples-per-entity", OPT_INT, &o.max_per_entity, "N", "keep at most N random samples per entity (0 = all)", 0, 100000000},
        {"random-seed", OPT_LONG, &seed, "N", "random seed of --max-samples-per-entity", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"build-samples", "one [CLS] ... [MASK] ... [SEP] sample per entity mention, indexed by entity",
                           "[options] --corpus corpus.mp --out samples.mp",
                           "build-samples --corpus work/corpus.mp --out work/samples.mp",
                           "tokenize, index, train-mlm, infer, build-pairs, probexpan inspect", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    int corpus_was_option = corpus_path != NULL;
    if (first < argc && !corpus_path) corpus_path = argv[first++];
    if (first < argc) die_usage("unexpected argument '%s'", argv[first]);
    if (!corpus_path) die_usage("--corpus is required");
    if (!out) die_usage("--out is required");
    if (o.max_per_entity > 0 && o.max_per_entity < o.min_samples)
        die_usage("--max-samples-per-entity %d is below --min-samples %d", o.max_per_entity, o.min_samples);
    o.seed = (uint64_t)seed;
    catalog_begin_beside(out);

    samples_build *b = samples_build_scan(corpus_path, &o);
    samples_writer *sw = samples_create(out, samples_build_vocab_size(b));
    artifact_writer *w = samples_artifact(sw);
    artifact_param_options(w);
    if (!corpus_was_option) artifact_param_str(w, "corpus", corpus_path); /* given as the argument */
    artifact_add_input(w, corpus_path);
    samples_build_report r;
    samples_build_write(b, sw, &r);

    for (int i = 0; i < SAMPLES_BUILD_STATS; i++) catalog_metric(r.stat[i].key, (double)r.stat[i].value);
    catalog_metric("bytes", (double)r.bytes);
    char a[32], c[32], d[32], f[32];
    log_done("%s entities, %s samples, %s tokens, %s sentences", fmt_count(a, r.entities), fmt_count(c, r.samples),
             fmt_count(d, r.tokens), fmt_count(f, r.sentences));
    return 0;
}
