/* pairs: the `pairs` artifact of contrastive learning (schemas/pairs.md; docs/design.md §3
 * "Contrastive learning") — per class of the queries the positive and negative entity sets
 * taken from the previous phase's ranking, the thresholds, and one drawn set of sample pairs
 * as sample indices of the samples artifact. Built by pairs_build (model/pairs_build.h,
 * `build-pairs`), read by `train-cl` and `pattern-dists --pairs`, which
 * redraw fresh pairs from the sets for every contrastive pass (official behaviour) or, with
 * --fixed-pairs, reuse the stored draw.
 *
 * Identity: the artifact records the samples artifact's sha256; pairs_check_samples()
 * refuses (exit 3) a samples artifact with another sha256 or whose rows, eids or sample
 * ranges do not match the stored references. */
#ifndef PROBEXPAN_PAIRS_H
#define PROBEXPAN_PAIRS_H

#include <stdint.h>
#include <stdio.h>

#include "artifacts/samples.h"

#define PAIRS_KIND "pairs"
#define PAIRS_SCHEMA 1

/* The entity sets of a class and the recipe's settings, as model/contrastive_pairs.h defines
 * them (it builds the sets and draws the pairs; the artifact stores them). */
typedef struct {
    int thr_pos, l_neg, u_neg;   /* thr_pos >= 1, 0 <= l_neg < u_neg */
} cl_bounds;

typedef struct {
    int64_t *pos, *neg;          /* entity indices (samples-artifact row ids) */
    int64_t n_pos, n_neg, cap_pos, cap_neg;
} cl_sets;

void cl_sets_init(cl_sets *s);
void cl_sets_free(cl_sets *s);

typedef enum { CL_SAME_POS = 0, CL_CROSS_POS = 1, CL_SAME_NEG = 2 } cl_pair_kind;

typedef struct {
    int max_pairs_per_set;       /* M, 256 */
    int cross_per_pos;           /* 2 */
    int sets_per_neg;            /* 2 */
} cl_pair_opts;

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

/* Creates the `pairs` artifact at `out`. The caller records as params the values it was built
 * with, under the names of its options (build-samples: artifact_param_options after resolving
 * --preset): thr_pos, l_neg, u_neg, pairs_per_set and seed, which pairs_read needs. */
artifact_writer *pairs_create(const char *out);
/* Adds the ranked, queries and samples inputs p was built from, the recipe's fixed counts
 * (cross_per_pos, sets_per_neg) and the samples sha256 as params, writes p and commits
 * (atomically). */
void pairs_commit(artifact_writer *w, const pairs_set *p, const char *ranked, const char *queries, const char *samples);
/* Reads a `pairs` artifact (exit 3 on a wrong kind or any defect, naming file and byte). */
void pairs_read(pairs_set *p, const char *path);
/* Exit 3 unless p was built from samples s (sha256 samples_sha): same sha256, entity and
 * sample counts (pairs_read has checked every stored sample index against the latter), and
 * the same eid for every set member's row. */
void pairs_check_samples(const pairs_set *p, const char *pairs_path, const samples *s,
                         const char *samples_sha);
void pairs_free(pairs_set *p);

/* Per-class report lines ("class: |E_pos| = 14, |E_neg| = 29", "  pos: a, b, …", "  neg: …"),
 * then one line with the stored draw's pair count per kind. */
void pairs_print_summary(FILE *f, const pairs_set *p, int show);

#endif
