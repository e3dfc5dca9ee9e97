/* ties: why the pattern model finds an entity like a seed set — the context features the
 * entity shares with the seeds, best first, with what each contributes to the similarity.
 *
 * The model is the engine's model 1 (every feature of the index, before any refinement).
 * Its similarity of entity e to seed s is cos(x_e, x_s) over the PMI profiles
 * x_e[f] = w_f max(0, PMI(e, f)) (common/model/pattern_model.h), and the rows r(e) the
 * method ranks with are a softmax of those cosines. The similarity to a seed set is their
 * mean, which splits exactly over the features:
 *   sim(e, S) = sum_f contribution_f,
 *   contribution_f = x_e[f] / |x_e| * mean over s in S of x_s[f] / |x_s|,
 * so a feature contributes only when e and at least one seed both hold it with PMI > 0.
 *
 * The features' text comes from the samples artifact the index was built from, through the
 * entity's own samples (common/model/feature_text.h).
 * Read-only after ties_open: any number of threads may call ties_explain at once. */
#ifndef PROBEXPAN_SERVE_TIES_H
#define PROBEXPAN_SERVE_TIES_H

#include <stdint.h>

#include "engine/engine.h"
#include "model/feature_text.h"


typedef struct ties ties;

/* Explains with engine g's model and the features' text from `text` (opened over g's index);
 * both must outlive the result. */
ties *ties_open(const engine *g, const feature_text *text);
void ties_free(ties *t);
/* The engine it explains with. */
const engine *ties_engine(const ties *t);

typedef struct {
    int64_t feature;      /* the feature's position in the index's counts */
    pattern_kind kind;    /* an n-gram pattern around the mention, a word near it (bag), a
                           * head word of its definition (genus), a list member, a class noun
                           * or its name's head (pattern_model.h) */
    char text[FEATURE_TEXT];
    double weight;        /* w_f */
    int64_t count;        /* samples of the entity showing it */
    int seeds_sharing;    /* seeds whose profile holds it (PMI > 0) */
    double contribution;  /* its part of sim(e, S) */
} tie;

typedef struct {
    double similarity;    /* sim(e, S): mean cosine to the seeds, the sum of every contribution */
    int64_t shared;       /* features with a contribution > 0 */
    int n;                /* listed: the best min(limit, shared), contribution descending */
    tie *items;
    int nseeds;
    int64_t *seed_count;  /* [n x nseeds]: samples of seed k showing item i at i * nseeds + k */
} ties_result;

/* Explains row e against the seed rows seeds[0..nseeds-1] (index rows; e may be one of them)
 * into *out (ties_result_free); limit >= 0. */
void ties_explain(const ties *t, int64_t e, const int64_t *seeds, int nseeds, int limit, ties_result *out);
void ties_result_free(ties_result *r);

/* ties_explain without the text (items' text empty): the fitted similarity model m built
 * from counts k with every feature (feature_fraction 1), so that its feature ids are k's. */
void ties_rank(const pattern_model *m, const pattern_counts *k, int64_t e, const int64_t *seeds, int nseeds, int limit,
               ties_result *out);

/* What a seed set shares that entity e lacks: the query's own context features (the features
 * the set's members share most, seed_features.h's selection with options o against `others` and `rejected`,
 * on model 1 as ties_explain reads it) that e's profile does not hold (PMI <= 0 or never
 * seen), in the selection's order, the best `limit` into *out: items[i].contribution is the
 * selection's score of the feature, count 0, seeds_sharing the members holding it, seed_count
 * per member; the text from the samples of a member that holds it. out->shared is the size of
 * the selection and out->similarity is unused (0); *held counts the selected features e holds. */
void ties_missing(const ties *t, int64_t e, const int64_t *members, int nmembers, const seedfeat_opts *o,
                  const seedfeat_set *others, const seedfeat_set *rejected, int limit, ties_result *out, int *held);

/* For rows[0..nrows): the features of its profile under model m (PMI > 0) that every one of
 * members[0..nmembers) holds too, into all[i], and that at least one holds, into any[i] (a
 * member's own row counts its features the other members hold). O(the members' profiles +
 * the rows' profiles). */
void ties_shared_counts(const pattern_model *m, const int64_t *members, int nmembers, const int64_t *rows, int nrows,
                        int64_t *all, int64_t *any);

#endif
