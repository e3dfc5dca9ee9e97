/* seed_features: query-specific context features of the pattern model, chosen by the entity
 * set of one query without any gradient (SetExpan's context-feature selection, Shen et al.
 * 2017, over the pattern model's PPMI profiles).
 *
 * For a set S of entities (a query's seeds, later the seeds plus the top of an expansion),
 * each feature f of model m is scored by how the set shares it. With z_e[f] = x_e[f] / |x_e|
 * (e's normalised profile, pattern_model_profile) and h_f the members holding f (z > 0):
 *   score_f = (1/|S|) sum_{e in S} z_e[f] - lambda (1/|O|) sum_{e in O} z_e[f]
 *                                         - mu (1/|R|) sum_{e in R} z_e[f]
 * where O is a set of other entities (e.g. a fixed sample of the corpus: features every
 * entity holds score low), lambda the option `others` (0: O is not read), R the entities a
 * user rejected (hard negatives: features they share with S score low) and mu the option
 * `rejected` (0 or R empty: R is not read).
 * A feature is a candidate when h_f >= max(min_share, ceil(share_fraction |S|)); the `top` best candidates by score (ties:
 * lower feature id) are selected. Selected features get the log-weight
 *   u_f = boost                        (flat), or
 *   u_f = boost * score_f / max score  (proportional),
 * every other feature u_f = 0 (weight 1), and the weights exp(u_f) make a pattern_refinement:
 * the rows of the refined model are recomputed from the reweighted profiles exactly as a
 * contrastive refinement's are (pattern_refinement_product combines them with a contrastive
 * refinement's). Cost: O(sum over S of profile lengths + F) per call, O(F) memory. */
#ifndef PROBEXPAN_SEED_FEATURES_H
#define PROBEXPAN_SEED_FEATURES_H

#include <stdint.h>

#include "model/pattern_model.h"

typedef struct {
    int top;          /* features selected, >= 1 */
    int min_share;    /* members of the set that must hold a selected feature, >= 1 */
    double boost;     /* log-weight of a selected feature (of the best one when proportional) */
    int proportional; /* 1: u_f = boost * score_f / best score; 0: u_f = boost */
    double others;    /* lambda >= 0: weight of the other entities' mean */
    double rejected;  /* mu >= 0: weight of the rejected entities' mean */
    double share_fraction; /* in [0, 1]: share of the set that must hold a selected feature */
} seedfeat_opts;

/* The measured defaults (docs/results.md, "One seed set at a time"). */
seedfeat_opts seedfeat_defaults(void);

/* An entity set: its rows (duplicates count once per occurrence). */
typedef struct {
    const int64_t *rows;
    int n;
} seedfeat_set;

/* Selects the features of model m (fitted, similarity estimator) for the set s against the
 * others and the rejected (either may be empty): their ids into feat[0..] and scores into score[0..] (both of room
 * o->top), best first; returns how many (<= top; fewer when fewer features are shared by
 * min_share members, and only features of positive score). */
int seedfeat_select(const pattern_model *m, const seedfeat_set *s, const seedfeat_set *others,
                    const seedfeat_set *rejected, const seedfeat_opts *o, int32_t *feat, double *score);

/* The refinement of m by that selection: weights exp(u_f) as above. */
pattern_refinement *seedfeat_refinement(const pattern_model *m, const seedfeat_set *s, const seedfeat_set *others,
                                        const seedfeat_set *rejected, const seedfeat_opts *o);

#endif
