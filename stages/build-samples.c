/* build-samples: one masked sample per (entity, mention) from a corpus artifact.
 *
 * For every mention, the sentence's wordpieces with the mention's span replaced
 * by one [MASK], wrapped in [CLS] ... [SEP] (docs/design.md §3 "Samples"). Sentences
 * over --max-words words (150, official code) and samples over --max-wordpieces
 * (512) are dropped, then entities with fewer than --min-samples (2) samples;
 * --max-samples-per-entity keeps a --random-seed-determined subset. Writes the
 * `samples` artifact (schemas/samples.md): the entity index (row i <-> eid, used
 * by every later stage), a per-entity sample table and the token stream, read
 * through common/artifacts/samples.h. Two streaming passes over the corpus: the first
 * decides and lays out, the second writes the tokens.
 * --contrastive instead builds the `pairs` artifact of contrastive learning from
 * a ranking, the queries and a samples artifact (model/pairs_build.h, schemas/pairs.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/corpus.h"
#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "model/pairs_build.h"
#include "base/rng.h"
#include "base/sort.h"
#include "artifacts/samples.h"

/* one candidate sample, in corpus order (16 bytes: the largest table in memory) */
typedef struct {
    uint64_t where;     /* corpus sentence index << 24 | index of the mention in the sentence */
    int32_t entity;     /* corpus entity table index; -1 once the sample is not kept */
    uint16_t length;    /* wordpieces incl. [CLS] [MASK] [SEP] (<= 65535) */
    uint16_t mask;      /* position of [MASK] in the sample */
} candidate;
#define MENTION_BITS 24
#define CAND_SENTENCE(k) ((int64_t)((k)->where >> MENTION_BITS))
#define CAND_MENTION(k) ((int32_t)((k)->where & ((1u << MENTION_BITS) - 1)))

/* The options of --contrastive. Thresholds -1 = the preset's (paper Table 6; wiki 12, 170, 200). */
typedef struct {
    int contrastive;                      /* the mode flag */
    const char *ranked, *queries, *samples, *preset;
    int thr_pos, l_neg, u_neg, show;
    int pairs_per_set;                    /* M of the recipe (cl_pair_opts.max_pairs_per_set) */
} contrastive_opts;

/* --contrastive: option checks (exit 2), the thresholds resolved from --preset (so the
 * artifact's params, the option table, hold the values used), pairs_build to `out` with
 * `seed`, the per-class report on stdout, the catalog metric and the closing log_done line. */
static void run_contrastive(contrastive_opts *p, const char *out, long seed) {
    if (!p->ranked || !p->queries || !p->samples)
        die_usage("--contrastive needs --ranked FILE, --queries DATA and --samples FILE");
    const cl_preset *pr = cl_preset_find(p->preset);
    if (!pr) die_usage("--preset: expected wiki, apr or se2, found '%s'", p->preset);
    if (p->thr_pos < 0) p->thr_pos = pr->thr_pos;
    if (p->l_neg < 0) p->l_neg = pr->l_neg;
    if (p->u_neg < 0) p->u_neg = pr->u_neg;
    cl_pair_opts po = cl_pair_opts_default();
    po.max_pairs_per_set = p->pairs_per_set;
    artifact_writer *w = pairs_create(out);
    artifact_param_options(w);
    pairs_build_opts o = {
        .ranked = p->ranked, .queries = p->queries, .samples = p->samples, .out = w,
        .bounds = {p->thr_pos, p->l_neg, p->u_neg},
        .opts = po,
        .seed = (uint64_t)seed,
        .show = p->show,
    };
    int64_t n = pairs_build(&o, stdout);
    stdout_flush();
    catalog_metric("pairs", (double)n);
    char b[32];
    log_done("%s pairs (thr_pos %d, L_neg %d, U_neg %d) in %s", fmt_count(b, n), o.bounds.thr_pos,
             o.bounds.l_neg, o.bounds.u_neg, out);
}

int main(int argc, char **argv) {
    const char *corpus_path = NULL, *out = NULL;
    int max_words = 150, max_wp = 512, min_samples = 2, cap = 0;
    long seed = 1;
    contrastive_opts pc = {.preset = "wiki", .thr_pos = -1, .l_neg = -1, .u_neg = -1, .show = 5,
                           .pairs_per_set = cl_pair_opts_default().max_pairs_per_set};
    const cli_option opts[] = {
        {"corpus", OPT_INPUT, &corpus_path, "FILE", "corpus artifact from tokenize", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output samples artifact (the pairs artifact with --contrastive)", 0, 0},
        {"max-words", OPT_INT, &max_words, "N", "drop sentences of more than N words (official code: 150)", 1, 100000000},
        {"max-wordpieces", OPT_INT, &max_wp, "N", "drop samples of more than N wordpieces incl. [CLS]/[SEP]", 3, 65535},
        {"min-samples", OPT_INT, &min_samples, "N", "drop entities with fewer than N samples", 1, 1000000},
        {"max-samples-per-entity", OPT_INT, &cap, "N", "keep at most N random samples per entity (0 = all)", 0, 100000000},
        {"random-seed", OPT_LONG, &seed, "N", "random seed of --max-samples-per-entity (and of the --contrastive pair draw)", 0, 0},
        {"contrastive", OPT_FLAG, &pc.contrastive, NULL, "build the contrastive `pairs` artifact from a ranking instead (needs --ranked --queries --samples)", 0, 0},
        {"ranked", OPT_INPUT, &pc.ranked, "FILE", "--contrastive: ranked artifact of the previous phase (rerank)", 0, 0},
        {"queries", OPT_INPUT, &pc.queries, "DATA", "--contrastive: dataset (folder or archive) whose query/ the ranking answered", 0, 0},
        {"samples", OPT_INPUT, &pc.samples, "FILE", "--contrastive: samples artifact the ranking's models were trained on", 0, 0},
        {"preset", OPT_STRING, &pc.preset, "wiki|apr|se2", "--contrastive: paper Table 6 column for the thresholds", 0, 0},
        {"thr-pos", OPT_INT, &pc.thr_pos, "N", "--contrastive: E_pos = seeds + ranks 1..N-1 (-1: preset, wiki 12)", -1, 1000000000},
        {"l-neg", OPT_INT, &pc.l_neg, "N", "--contrastive: E_neg = ranks in (L_neg, U_neg) (-1: preset, wiki 170)", -1, 1000000000},
        {"u-neg", OPT_INT, &pc.u_neg, "N", "--contrastive: upper bound U_neg, exclusive (-1: preset, wiki 200)", -1, 1000000000},
        {"pairs-per-set", OPT_INT, &pc.pairs_per_set, "M", "--contrastive: at most M sample pairs per entity pair set (official: the samples per entity, 256)", 1, 1000000000},
        {"show", OPT_INT, &pc.show, "N", "--contrastive: names printed per set on stdout", 0, 1000000000},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"build-samples", "one [CLS] ... [MASK] ... [SEP] sample per entity mention, indexed by entity",
                           "[options] --corpus corpus.mp --out samples.mp\n"
                           "   or: build-samples --contrastive --ranked ranked.mp --queries DATA --samples samples.mp --out pairs.mp",
                           "build-samples --corpus work/corpus.mp --out work/samples.mp",
                           "tokenize, train-mlm, train-cl, infer, probexpan inspect", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    int corpus_was_option = corpus_path != NULL;
    if (first < argc && !corpus_path) corpus_path = argv[first++];
    if (first < argc) die_usage("unexpected argument '%s'", argv[first]);
    if (pc.contrastive) {
        if (corpus_path) die_usage("--contrastive reads --samples, not a corpus");
        if (!out) die_usage("--out is required");
        catalog_begin_beside(out);
        run_contrastive(&pc, out, seed);
        return 0;
    }
    if (!corpus_path) die_usage("--corpus is required");
    if (!out) die_usage("--out is required");
    if (cap > 0 && cap < min_samples) die_usage("--max-samples-per-entity %d is below --min-samples %d", cap, min_samples);
    catalog_begin_beside(out);

    /* ---- pass 1: candidates ---- */
    corpus_reader c;
    corpus_open(&c, corpus_path);
    intmap eid_index;
    entity_table_row_map(&c.ents, &eid_index);
    candidate *cand = NULL;
    size_t ncand = 0, ccap = 0;
    int64_t long_sentences = 0, long_sentence_mentions = 0, long_samples = 0, mentions = 0;
    progress prog;
    progress_start(&prog, "pass 1", "sentences", 0);
    while (corpus_next(&c)) {
        mentions += c.nm;
        if (c.nwords > max_words) {
            long_sentences++;
            long_sentence_mentions += c.nm;
            continue;
        }
        for (int32_t k = 0; k < c.nm; k++) {
            int64_t e = intmap_get(&eid_index, c.m[k].eid);
            if (e < 0) die_input(corpus_path, NULL, "sentence %lld: mention of eid %lld not in the entity table",
                                 (long long)c.index, (long long)c.m[k].eid);
            int64_t len = (int64_t)c.nids - (c.m[k].wp_end - c.m[k].wp_start) + 3;
            if (len > max_wp) { long_samples++; continue; }
            if (k >= (1 << MENTION_BITS) || c.index >= ((int64_t)1 << (64 - MENTION_BITS)))
                die_input(corpus_path, NULL, "sentence %lld: more than %d mentions", (long long)c.index, 1 << MENTION_BITS);
            if (ncand == ccap) { ccap = ccap * 2 + 4096; cand = xrealloc(cand, ccap * sizeof *cand); }
            cand[ncand++] = (candidate){(uint64_t)c.index << MENTION_BITS | (uint64_t)k, (int32_t)e, (uint16_t)len,
                                        (uint16_t)(1 + c.m[k].wp_start)};
        }
        progress_update(&prog, c.index + 1);
    }
    progress_end(&prog);
    int64_t nsent = c.totals.sentences;
    wp_vocab vocab = c.vocab;     /* keep the vocabulary and entity table */
    entity_table ents = c.ents;
    memset(&c.vocab, 0, sizeof c.vocab);
    memset(&c.ents, 0, sizeof c.ents);
    corpus_close(&c);

    /* ---- entities: counts, drops, caps ---- */
    int64_t ne = ents.n;
    int64_t *count = xcalloc((size_t)(ne ? ne : 1), sizeof *count);
    for (size_t i = 0; i < ncand; i++) count[cand[i].entity]++;
    int64_t *row_of = xmalloc((size_t)(ne ? ne : 1) * sizeof *row_of);
    int64_t E = 0, dropped_with_samples = 0, never_mentioned = 0;
    for (int64_t e = 0; e < ne; e++) {
        if (count[e] >= min_samples) row_of[e] = E++;
        else {
            row_of[e] = -1;
            if (count[e]) dropped_with_samples++;
            else never_mentioned++;
        }
    }
    if (E == 0) die_input(corpus_path, NULL, "no entity has %d or more usable samples", min_samples);
    /* candidate lists per entity, then the cap */
    int64_t *start = xcalloc((size_t)ne + 1, sizeof *start);
    for (int64_t e = 0; e < ne; e++) start[e + 1] = start[e] + count[e];
    int64_t *by_entity = xmalloc((ncand ? ncand : 1) * sizeof *by_entity), *fill = xmalloc((size_t)(ne ? ne : 1) * sizeof *fill);
    memcpy(fill, start, (size_t)ne * sizeof *fill);
    for (size_t i = 0; i < ncand; i++) by_entity[fill[cand[i].entity]++] = (int64_t)i;
    rng_t rng;
    rng_seed(&rng, (uint64_t)seed);
    int64_t capped = 0, *pick = NULL;
    for (int64_t e = 0; e < ne; e++) {
        int64_t n = count[e];
        if (row_of[e] < 0) {
            for (int64_t k = 0; k < n; k++) cand[by_entity[start[e] + k]].entity = -1;
            continue;
        }
        if (cap <= 0 || n <= cap) continue;
        capped++;
        pick = xrealloc(pick, (size_t)n * sizeof *pick);
        rng_sample_without_replacement(&rng, n, cap, pick);
        qsort(pick, (size_t)cap, sizeof *pick, cmp_i64);
        for (int64_t k = 0, p = 0; k < n; k++) {
            if (p < cap && pick[p] == k) p++;
            else cand[by_entity[start[e] + k]].entity = -1;
        }
        count[e] = cap;
    }
    free(pick);
    free(by_entity);
    free(fill);
    free(start);

    /* ---- layout: the sample table by entity row, tokens in corpus order ---- */
    int64_t *first_of_row = xcalloc((size_t)E + 1, sizeof *first_of_row);
    for (int64_t e = 0; e < ne; e++)
        if (row_of[e] >= 0) first_of_row[row_of[e] + 1] = count[e];
    for (int64_t r = 0; r < E; r++) first_of_row[r + 1] += first_of_row[r];
    int64_t S = first_of_row[E];
    samples_writer *sw = samples_create(out, vocab.n);
    artifact_writer *w = samples_artifact(sw);
    artifact_param_options(w);
    if (!corpus_was_option) artifact_param_str(w, "corpus", corpus_path); /* given as the argument */
    artifact_add_input(w, corpus_path);
    samples_plan(sw, E, first_of_row);
    for (size_t ci = 0; ci < ncand; ci++)
        if (cand[ci].entity >= 0)
            samples_place(sw, row_of[cand[ci].entity], cand[ci].length, cand[ci].mask, CAND_SENTENCE(&cand[ci]));
    samples_begin(sw, &vocab, &ents, row_of);
    int64_t T = samples_planned_tokens(sw);

    /* ---- pass 2: the token stream, corpus order ---- */
    corpus_reader c3;
    corpus_open(&c3, corpus_path);
    progress_start(&prog, "pass 2", "sentences", nsent);
    size_t ci = 0;
    while (ci < ncand && corpus_next(&c3)) {
        for (; ci < ncand && CAND_SENTENCE(&cand[ci]) == c3.index; ci++) {
            const candidate *k = &cand[ci];
            if (k->entity < 0) continue;
            const corpus_mention *m = &c3.m[CAND_MENTION(k)];
            samples_write_masked(sw, c3.ids, m->wp_start, c3.ids + m->wp_end, c3.nids - m->wp_end);
        }
        progress_update(&prog, c3.index + 1);
    }
    progress_end(&prog);
    corpus_close(&c3);

    int p50 = samples_length_percentile(sw, 0.5), p90 = samples_length_percentile(sw, 0.9),
        p99 = samples_length_percentile(sw, 0.99), pmax = samples_length_percentile(sw, 1.0);
    /* the statistics, once: the artifact's closing map and the run's metrics */
    const samples_stat stats[] = {
        {"entities_kept", E},
        {"entities_dropped", dropped_with_samples + never_mentioned},
        {"entities_dropped_few_samples", dropped_with_samples},
        {"entities_never_mentioned", never_mentioned},
        {"entities_capped", capped},
        {"sentences", nsent},
        {"sentences_too_long", long_sentences},
        {"mentions", mentions},
        {"samples", S},
        {"samples_dropped_long_sentence", long_sentence_mentions},
        {"samples_dropped_over_max_wordpieces", long_samples},
        {"tokens", T},
        {"length_p50", p50},
        {"length_p90", p90},
        {"length_p99", p99},
        {"length_max", pmax},
    };
    const size_t nstats = sizeof stats / sizeof stats[0];
    uint64_t bytes = samples_commit(sw, stats, nstats);
    for (size_t i = 0; i < nstats; i++) catalog_metric(stats[i].key, (double)stats[i].value);
    catalog_metric("bytes", (double)bytes);
    char a[32], b[32], d[32], f[32];
    log_info("entities: %s kept, %s dropped (%lld with < %d samples, %lld never mentioned), %lld capped",
             fmt_count(a, E), fmt_count(b, dropped_with_samples + never_mentioned), (long long)dropped_with_samples,
             min_samples, (long long)never_mentioned, (long long)capped);
    log_info("mentions: %s, dropped %lld in sentences > %d words, %lld samples > %d wordpieces",
             fmt_count(a, mentions), (long long)long_sentence_mentions, max_words, (long long)long_samples, max_wp);
    log_info("sample length (wordpieces): p50 %d, p90 %d, p99 %d, max %d", p50, p90, p99, pmax);
    log_done("%s entities, %s samples, %s tokens, %s sentences", fmt_count(a, E), fmt_count(b, S), fmt_count(d, T),
             fmt_count(f, nsent));

    free(first_of_row);
    free(row_of);
    free(count);
    free(cand);
    intmap_free(&eid_index);
    wp_vocab_free(&vocab);
    entity_table_free(&ents);
    return 0;
}
