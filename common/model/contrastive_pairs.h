/* contrastive_pairs: the positive/negative entity sets of a class and the sample-pair recipe
 * of contrastive learning (docs/design.md §3 "Contrastive learning", paper §3.3 and Table 6), as
 * pure functions of their inputs and an rng.
 *
 * Entity sets, per class, accumulated over the class's queries (cl_sets_add_query):
 *   rank(e) = 1-based position of e in the query's ranked list (the previous phase's final
 *             ranking, best first), counting only entries that are not seeds of that query
 *             (so a list with or without its seeds gives the same ranks): rank 1 = the best
 *             expanded entity.
 *   E_pos   = seeds ∪ { e : rank(e) < thr_pos }            (thr_pos 12 → ranks 1..11)
 *   E_neg   = { e : L_neg < rank(e) < U_neg } \ E_pos      (170, 200 → ranks 171..199)
 * Both bounds are exclusive, as in the paper's equations. The union is taken over the
 * class's queries; an entity that is positive for any query of the class is never one of
 * its negatives. Sets keep first-insertion order (seeds first, then by rank).
 *
 * Pairs (cl_make_pairs), per class in order, reading docs/design.md's "two sentences of the same
 * positive entity; two pairs with another positive entity of the same class; two sentences
 * of the same negative entity" through the official code (HCL.py get_cl_dataset), whose
 * unit is a PAIR SET between two entities a, b holding k = min(max(n_a, n_b), M) sample
 * pairs (n = the entity's number of samples, M = max_pairs_per_set, the samples per entity
 * of train-mlm, 256 officially):
 *   (a) for each positive entity e: one same-entity set (e, e), k = min(n_e, M) pairs of two
 *       DIFFERENT sentences of e (first sentences distinct, second uniform among the others;
 *       the official code may pair a sentence with itself, we do not; needs n_e >= 2);
 *   (b) then cross_per_pos (2) cross sets (e, f) with f drawn uniformly among the other
 *       positive entities of the class whose unordered pair {e, f} has not been used yet
 *       anywhere (official dedup; fewer when the class runs out of partners, where the
 *       official code would loop forever); each side's sentences are drawn without
 *       replacement when it has >= k samples, else with replacement (official);
 *   (c) for each negative entity: sets_per_neg (2) same-entity sets as in (a).
 * Same-entity sets are also deduplicated like the official code: an entity gets its first
 * same-entity set only once over all classes; a negative entity always gets the remaining
 * sets_per_neg − 1 (so 2 for a fresh negative, 1 for an entity already paired before).
 * Entities with no samples are skipped everywhere (never a partner either).
 * Output order is generation order; the trainer shuffles (e.g. a permutation of indices
 * with rng_shuffle_i64) and cuts batches of 256 with drop_last, and draws fresh pairs for
 * each of the two contrastive passes of an epoch (official). */
#ifndef PROBEXPAN_CONTRASTIVE_PAIRS_H
#define PROBEXPAN_CONTRASTIVE_PAIRS_H

#include <stdint.h>

#include "artifacts/pairs.h"
#include "base/rng.h"

/* The paper's Table 6 (Appendix C) column for one dataset, plus the fixed values of §3.3 and
 * the official code (t 0.5, batch 256 pairs, loss weight 7). */
typedef struct {
    const char *name;        /* "wiki", "apr", "se2" */
    int thr_pos, l_neg, u_neg;
    double tau_plus, beta, cl_lr;
    double temperature;      /* 0.5 */
    int batch_pairs;         /* 256 */
    double loss_weight;      /* 7 */
} cl_preset;

/* Preset by name ("wiki", "apr", "se2"; case-sensitive) or NULL. The project default is
 * "wiki" (the official code's values). */
const cl_preset *cl_preset_find(const char *name);
const cl_preset *cl_preset_default(void);

/* The sets (cl_sets, cl_bounds: artifacts/pairs.h) of a class: adds one query of it: its seeds and its ranked list (n_ranked entity indices, best
 * first). Bad bounds die (exit 1: a caller bug; stages range-check their flags). */
void cl_sets_add_query(cl_sets *s, const int64_t *seeds, int64_t n_seeds,
                       const int64_t *ranked, int64_t n_ranked, const cl_bounds *b);
/* One entity known to be negative (ignored when positive): a person's rejected entities. */
void cl_sets_add_neg(cl_sets *s, int64_t e);

/* One training pair: sample s1 of entity e1 and sample s2 of entity e2; s are ordinals
 * 0..n_e−1 within the entity's samples (the caller maps them to sample rows). */
typedef struct {
    int64_t e1, e2;
    int32_t s1, s2;
    int32_t kind;                /* cl_pair_kind */
    int32_t cls;                 /* index of the class that produced it */
} cl_pair;

typedef struct {
    cl_pair *p;
    int64_t n, cap;
} cl_pairs;

cl_pair_opts cl_pair_opts_default(void);
/* Draws the pairs of one contrastive pass for n_classes classes. n_samples[e] is the number
 * of samples of entity index e (0 <= e < n_entities); an entity index outside that range
 * dies. Appends to out (initialise it with {0}); returns the number of pairs appended. */
int64_t cl_make_pairs(const cl_sets *classes, int n_classes, const int64_t *n_samples,
                      int64_t n_entities, const cl_pair_opts *o, rng_t *rng, cl_pairs *out);
void cl_pairs_free(cl_pairs *p);

#endif
