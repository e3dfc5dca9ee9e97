/* pairs: the `pairs` artifact of contrastive learning (schemas/pairs.md; docs/design.md §3
 * "Contrastive learning", issue 7) — per class of the queries the positive and negative
 * entity sets taken from the previous phase's ranking, the thresholds, and one drawn set of
 * sample pairs — built by `build-samples --contrastive`, read by `train-cl`.
 *
 * Build (pairs_build): for every query of the dataset (query/<class>.txt, classes sorted by
 * name, queries in file order) the `ranked` artifact must hold the list of the same class
 * and query index with the same seeds (exit 3 otherwise: the ranking came from other
 * queries); seeds and ranked entities are mapped from eid to samples-artifact entity rows
 * (an eid without samples exits 3: ranking and samples come from different entity tables).
 * Per class, cl_sets_add_query over its queries gives E_pos = seeds ∪ {rank < thr_pos} and
 * E_neg = {L_neg < rank < U_neg} \ E_pos (1-based ranks among non-seeds, contrastive_pairs.h).
 * Then one cl_make_pairs draw (seeded) turns the sets into sample pairs, stored as sample
 * indices of the samples artifact. train-cl redraws fresh pairs from the sets for every
 * contrastive pass (official behaviour) or, with --fixed-pairs, reuses the stored draw.
 *
 * Identity: the artifact records the samples artifact's sha256; pairs_check_samples()
 * refuses (exit 3) a samples artifact with another sha256 or whose rows, eids or sample
 * ranges do not match the stored references. */
#ifndef PROBEXPAN_PAIRS_H
#define PROBEXPAN_PAIRS_H

#include <stdint.h>
#include <stdio.h>

#include "base/cli.h"
#include "model/contrastive_pairs.h"
#include "artifacts/samples.h"

#define PAIRS_KIND "pairs"
#define PAIRS_SCHEMA 1

typedef struct {
    char *name;             /* class name (query/<name>.txt) */
    int queries;            /* queries of the class that contributed */
    cl_sets sets;           /* pos/neg as samples-artifact entity rows */
    int64_t *pos_eid, *neg_eid;   /* the same entities as dataset eids */
    char **pos_name, **neg_name;  /* and names (owned) */
} pairs_class;

typedef struct {
    char samples_sha256[65];
    int64_t entities, samples;    /* of the samples artifact */
    cl_bounds bounds;
    cl_pair_opts opts;
    uint64_t seed;                /* seed of the stored draw */
    int n_classes;
    pairs_class *c;
    /* the stored draw: pair i = sample sample1[i] with sample sample2[i] (sample indices of
     * the samples artifact), its cl_pair_kind and class index */
    int64_t n_pairs;
    int64_t *sample1, *sample2;
    uint8_t *kind;
    int32_t *cls;
} pairs_set;

typedef struct {
    const char *ranked, *queries, *samples, *out;   /* paths */
    cl_bounds bounds;
    cl_pair_opts opts;
    uint64_t seed;
    int show;                     /* names printed per set in the report (first `show`) */
} pairs_build_opts;

/* Builds the sets and the draw from the three inputs, writes the artifact at o->out
 * (atomically) and prints per class |E_pos|, |E_neg| and the first o->show names of each on
 * `report` (NULL: nothing). Returns the number of pairs drawn. Bad input exits 3. */
int64_t pairs_build(const pairs_build_opts *o, FILE *report);

/* Reads a `pairs` artifact (exit 3 on a wrong kind or any defect, naming file and byte). */
void pairs_read(pairs_set *p, const char *path);
/* Exit 3 unless p was built from samples s (sha256 samples_sha): same sha256, entity and
 * sample counts (pairs_read has checked every stored sample index against the latter), and
 * the same eid for every set member's row. */
void pairs_check_samples(const pairs_set *p, const char *pairs_path, const samples *s,
                         const char *samples_sha);
void pairs_free(pairs_set *p);

/* The options of `build-samples --contrastive`, for its cli_option table (PAIRS_OPTIONS) and
 * pairs_cli_run(). Thresholds -1 = the preset's (paper Table 6; wiki 12, 170, 200). */
typedef struct {
    int contrastive;                      /* the mode flag */
    const char *ranked, *queries, *samples, *preset;
    int thr_pos, l_neg, u_neg, show;
    int pairs_per_set;                    /* M of the recipe (cl_pair_opts.max_pairs_per_set) */
} pairs_cli;

void pairs_cli_init(pairs_cli *p);

#define PAIRS_OPTIONS(p)                                                                                   \
    {"contrastive", OPT_FLAG, &(p).contrastive, NULL, "build the contrastive `pairs` artifact from a ranking instead (needs --ranked --queries --samples)", 0, 0}, \
    {"ranked", OPT_INPUT, &(p).ranked, "FILE", "--contrastive: ranked artifact of the previous phase (rerank)", 0, 0}, \
    {"queries", OPT_INPUT, &(p).queries, "DATA", "--contrastive: dataset (folder or archive) whose query/ the ranking answered", 0, 0}, \
    {"samples", OPT_INPUT, &(p).samples, "FILE", "--contrastive: samples artifact the ranking's models were trained on", 0, 0}, \
    {"preset", OPT_STRING, &(p).preset, "wiki|apr|se2", "--contrastive: paper Table 6 column for the thresholds", 0, 0}, \
    {"thr-pos", OPT_INT, &(p).thr_pos, "N", "--contrastive: E_pos = seeds + ranks 1..N-1 (-1: preset, wiki 12)", -1, 1000000000}, \
    {"l-neg", OPT_INT, &(p).l_neg, "N", "--contrastive: E_neg = ranks in (L_neg, U_neg) (-1: preset, wiki 170)", -1, 1000000000}, \
    {"u-neg", OPT_INT, &(p).u_neg, "N", "--contrastive: upper bound U_neg, exclusive (-1: preset, wiki 200)", -1, 1000000000}, \
    {"pairs-per-set", OPT_INT, &(p).pairs_per_set, "M", "--contrastive: at most M sample pairs per entity pair set (official: the samples per entity, 256)", 1, 1000000000}, \
    {"show", OPT_INT, &(p).show, "N", "--contrastive: names printed per set on stdout", 0, 1000000000}

/* Runs the --contrastive mode: option checks (exit 2), pairs_build to `out` with `seed`,
 * the per-class report on stdout, catalog metrics and the closing log_done line. */
void pairs_cli_run(const pairs_cli *p, const char *out, long seed);

/* Per-class report lines ("class: |E_pos| = 14, |E_neg| = 29", "  pos: a, b, …", "  neg: …"),
 * then one line with the stored draw's pair count per kind. */
void pairs_print_summary(FILE *f, const pairs_set *p, int show);

#endif
