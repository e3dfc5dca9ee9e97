/* feature_prior: research code (not shipped) — corpus-level attributes of the pattern model's
 * features and a weighting derived from them without any seed set, to test whether a
 * general property of features (which contexts gather entities of one semantic class rather
 * than of one topic) can stand in for feature weights learned on other queries.
 *
 * Coherence of a feature f, the mean pairwise cosine of the PMI profiles of the n_f entities
 * carrying it,
 *     coh(f) = sum over a != b carrying f of cos(x_a, x_b) / (n_f (n_f - 1)),
 * is estimated in linear time with a random projection: each entity's unit profile is
 * sketched into D dimensions, s_e = R x_e / |x_e| with R a D x F matrix of independent
 * +-1/sqrt(D) entries (E[s_a . s_b] = cos(x_a, x_b)); with S_f = sum over e carrying f of s_e,
 *     coh(f) ~ (|S_f|^2 - sum |s_e|^2) / (n_f (n_f - 1)).
 * R is never stored: the signs of row f are hashes of (seed, feature key), 64 per hash.
 *
 * Cost: O(D x feature-entity pairs) time, O(D x E + F) memory (the entities' sketches and one
 * value per feature): linear in the corpus, no E x E matrix. Deterministic for a given seed
 * and any thread count (each sketch and each feature's sum is computed by one thread, in a
 * fixed order). */
#ifndef PROBEXPAN_FEATURE_PRIOR_H
#define PROBEXPAN_FEATURE_PRIOR_H

#include <stdint.h>

#include "model/pattern_model.h"

/* Sketch dimensions D of the coherence (standard error ~ 1/sqrt(D) for a two-entity feature,
 * less for more entities). */
#define FEATURE_PRIOR_SKETCH_DIM 256

/* coh[0 .. k->F) for the features of the counts k, with the profiles of m: the fitted
 * similarity model over k with every feature (feature_fraction 1, so its feature ids are
 * the counts'). Returns the background: the mean cosine of two distinct entities with a
 * non-empty profile from the same sketches, (|sum s_e|^2 - sum |s_e|^2) / (E' (E' - 1)). */
double feature_prior_coherence(const pattern_model *m, const pattern_counts *k, int dim, uint64_t seed, float *coh);

/* The coherence prior of every feature into w[0 .. k->F): the coherence shrunk towards the
 * background c0 by `shrink` pseudo-pairs (a feature with n entities has n (n - 1) / 2 pairs),
 *     c(f) = (pairs coh(f) + shrink c0) / (pairs + shrink),   w(f) = max(c(f) / c0, 1)^power,
 * so features whose entities are no more alike than two random entities keep weight 1. */
void feature_prior_weights(const pattern_counts *k, const float *coh, double c0, double power, double shrink, float *w);

#endif
