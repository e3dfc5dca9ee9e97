/* pattern_model: the from-scratch entity model — entity distributions r(e)
 * estimated from counts of context features instead of a trained encoder.
 *
 * Features of a sample (one mention, replaced by [MASK]):
 *  - n-gram patterns touching the mask (SetExpan's "skip-gram" context features, Shen et
 *    al. 2017): short: "l1 _", "_ r1", "l1 _ r1", "l2 l1 _", "_ r1 r2"; long (also):
 *    "l2 l1 _ r1", "l1 _ r1 r2", "l3 l2 l1 _", "_ r1 r2 r3";
 *  - with bag = W > 0, every id within W positions of the mask, unordered (a bag of words:
 *    the class words of a definition, "... : United States chemist who ...");
 *  - with genus_weight > 0, the head words of the definition the mention is the subject of
 *    (definition_genus.h: "Strauss : German composer of ..." -> composer), so entities
 *    defined as one kind of thing share a feature however their definitions are worded;
 *  - with differentia_weight > 0, the differentia words of that definition (the heads of the
 *    prepositional phrases after its genus and of its usage label: "a republic in
 *    northwestern Africa" -> africa), so sub-classes of a shared genus share a feature;
 *  - with list_weight > 0, the coordination list the mention is in (coordination.h: "Japan ,
 *    West Germany and Britain"): one feature per member of the list, itself included ("listed
 *    with Britain"), so members of one list share features and so do entities listed with the
 *    same ones; and, with the same weight, one feature "followed by ', NAME'" when a comma and
 *    another name follow the mention outside a list ("Houston , Texas", "Trenton , Nova
 *    Scotia": a place named with where it is), and one "after 'NAME ,'" when such a name and a
 *    comma precede it and the phrase ends after it ("Trenton , Nova Scotia .": what a place is
 *    named with); and, with the same weight, the titles of the entity's name: the words before
 *    it in the longer names of the corpus that end with it ("Finance Minister Kiichi Miyazawa"
 *    gives Miyazawa kiichi, minister, finance), in every sample of the entity;
 *  - with head_weight > 0, the class nouns of Hearst's patterns and of a title around the
 *    mention or its list (hearst_heads.h: "countries such as X", "X and other countries",
 *    "Finance Minister X");
 *  - with name_weight > 0, the head word of the entity's own name, in every sample of the
 *    entity (name_head.h: "New York Stock Exchange" -> exchange).
 * Features seen with fewer than min_entities distinct entities are dropped. A feature's
 * weight is w_f = log(E / n_f)^idf_power (n_f: its entities), times the weight option of its
 * kind (bag_weight, genus_weight, differentia_weight, list_weight, head_weight, name_weight; 1 for
 * the n-grams).
 * c(f, e) counts the samples of entity e with feature f.
 *
 * Two estimators of r(e):
 *  similarity (default): the distributional answer — x_e[f] = w_f * max(0, PMI(e, f)) with
 *    PMI(e, f) = log(c(f,e) N / (c(e) c(f))) (N: all counts), and
 *      r(e)[v] = softmax over v of s(e, v) / temperature   (v = e included),
 *    s(e, v) = cos(x_e, x_v) (1 for v = e) times, with evidence k > 0, the shrinkage
 *    n_v / (n_v + k) of v's mention count n_v: an entity seen a few times, whose profile is a
 *    handful of counts, is not as close to e as one with the same cosine over a hundred
 *    mentions (k = 0: no shrinkage). Only the column is shrunk: e's own row keeps its
 *    sharpness however thin e is (shrinking both sides flattened the rows of thin seeds).
 *  prediction: the maximum-likelihood answer of ProbExpan's entity-prediction objective for
 *    one feature, P(v | f) = c(f, v) / c(f), mixed over a sample's features by weight, with
 *    the sample itself left out of the counts (so no distribution is computed on its own
 *    training data — the memorisation that sinks small encoders trained from scratch):
 *      q(e) = mean over e's samples j of sum_f w_f (c(f,v) - [v = e]) / (c(f) - 1) / sum_f w_f
 *      m    = mean of q over entities weighted by their sample counts (the model's prior)
 *      r(e) = q(e)[v] / m[v]^prior_power, renormalised (q smoothed by 1e-7).
 * Entities without a usable feature get a uniform row.
 *
 * feature_fraction < 1 keeps a seeded pseudo-random subset of the features, so K models with
 * K seeds differ (the ensemble of ProbExpan's phase 1; SetExpan ensembles feature subsets the
 * same way). Rows are computed in parallel (common/base/parallel.h) and are identical for every
 * thread count. Memory: O(samples + feature-entity pairs + threads x E); no E x E matrix. */
#ifndef PROBEXPAN_PATTERN_MODEL_H
#define PROBEXPAN_PATTERN_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "artifacts/pattern_settings.h"
#include "method/sparse_row.h"
#include "model/definition_genus.h"
#include "model/hearst_heads.h"

#define LIST_MEMBERS 8       /* list members kept per mention (the nearest, itself included) */
#define NAME_TITLES 6        /* words before the name in its longer forms kept per entity (name_title) */
#define PATTERN_NGRAMS 9     /* n-gram patterns of the long set */
/* PATTERN_MAX (artifacts/pattern_settings.h) is the sum of what a sample can show of each kind. */
_Static_assert(PATTERN_MAX == PATTERN_NGRAMS + 2 * PATTERN_SIDE + GENUS_WORDS + DIFFERENTIA_WORDS + LIST_MEMBERS + 2 + HEAD_WORDS + 1 + NAME_TITLES,
               "PATTERN_MAX: the features of one sample");
#define PATTERN_OUTSIDE (-1) /* context id beyond the sequence */

/* One sample: its entity row and the ids around the mask (left[0] is the id just before the
 * mask, right[0] the id just after; PATTERN_OUTSIDE past either end of the sequence). */
typedef struct {
    int64_t entity;
    int32_t left[PATTERN_SIDE], right[PATTERN_SIDE];
    int32_t genus[GENUS_WORDS][GENUS_PIECES]; /* head words of its definition (definition_genus.h) */
    int ngenus;                               /* how many: 0..GENUS_WORDS */
    int32_t differentia[DIFFERENTIA_WORDS][GENUS_PIECES]; /* its definition's differentia words */
    int ndifferentia;                         /* how many: 0..DIFFERENTIA_WORDS */
    int32_t listed[LIST_MEMBERS];             /* entity rows of its coordination list, itself included */
    int nlisted;                              /* how many: 0 (in no list), 2..LIST_MEMBERS */
    int32_t heads[HEAD_WORDS][GENUS_PIECES];  /* class nouns of the patterns around it (hearst_heads.h) */
    int nheads;                               /* how many: 0..HEAD_WORDS */
    int32_t name[GENUS_PIECES];               /* head word of its entity's name (name_head.h) */
    int nname;                                /* 1 when it has one, else 0 */
    const int32_t (*titles)[GENUS_PIECES];    /* words before its entity's name in longer names (the nearest
                                               * first): its entity's, shared by the entity's samples */
    int ntitles;                              /* how many: 0..NAME_TITLES (0: titles may be NULL) */
    int located;                              /* LOCATED_BEFORE | LOCATED_AFTER of its apposition (coordination.h) */
    int32_t located_in;                       /* the entity row after its comma when it is such an A of a
                                               * pair, not of a run "A , B , C"; else -1 */
} pattern_sample;

/* A corpus is a glossary when at least this share of its samples is a definition's subject
 * (definition_genus.h): news prose (reuters-ese) has 1.2%, the WordNet-gloss corpora 7.5% to
 * 25.5% (docs/signals.md). */
#define PATTERN_GLOSSARY_SHARE 0.04
/* The differentia weight of a glossary (leave-one-corpus-out over the quality suite,
 * docs/signals.md "Differentia"). */
#define PATTERN_GLOSSARY_DIFFERENTIA 3.0
/* Sets list_weight, evidence and differentia_weight of c where they are PATTERN_AUTO, from
 * the S samples: a glossary 0, 0 and PATTERN_GLOSSARY_DIFFERENTIA (its definitions carry the
 * class; lists and the shrinkage cost it, see docs/signals.md), running text 2, 0.5 and 0.
 * Returns the share of samples that are a definition's subject. */
double pattern_config_resolve(pattern_config *c, int64_t S, const pattern_sample *samples);


/* What each feature of a sample is made of, in the order the model counts them (n-gram
 * patterns first, then the bag words, the genus words, the list members, the head words, the
 * name's head and the location features): its key as counted (pattern_counts.key), its kind and its ids. */
typedef struct {
    uint64_t key;
    pattern_kind kind;        /* PATTERN_BAG: word; GENUS, HEAD, NAME: genus_word; LIST: entity */
    int nl, nr;               /* a pattern: nl ids before the mask, nr after it */
    int32_t left[3], right[3]; /* left[0] just before the mask, right[0] just after */
    int32_t word;
    int32_t genus_word[GENUS_PIECES]; /* its wordpieces, -1 padded */
    int32_t entity;                   /* a list member's row; -1, -2: the location features (", NAME" follows, "NAME ,"
                                       * precedes); -3: a title of the name (genus_word) */
} pattern_feature;
/* The features of sample s under config c into out[PATTERN_MAX]; returns how many. */
int pattern_sample_features(const pattern_sample *s, const pattern_config *c, pattern_feature *out);
/* The keys of the features a sample read alone does not show (pattern_sample_read leaves out
 * its sentence's lists and locations and its entity's name): listed with entity row `row`;
 * the location feature (after 0: ", NAME" follows the mention; 1: "NAME ," precedes it); the
 * head of the entity's name and a title of it (word pieces w, -1 padded). */
uint64_t pattern_list_key(int32_t row);
uint64_t pattern_located_key(int after);
uint64_t pattern_name_key(const int32_t w[GENUS_PIECES]);
uint64_t pattern_title_key(const int32_t w[GENUS_PIECES]);


/* The counts (artifacts/pattern_settings.h) of S samples of E entities (any order). Cost O(S * PATTERN_MAX log(S * PATTERN_MAX)). */
void pattern_counts_build(pattern_counts *k, const pattern_config *c, int64_t E, int64_t S, const pattern_sample *samples);

typedef struct pattern_model pattern_model;

/* Counts the features of S samples of E entities (samples in any order). */
pattern_model *pattern_model_build(const pattern_config *c, int64_t E, int64_t S, const pattern_sample *samples);
/* The similarity estimator's model of config c (its feature subset) from counts built with
 * the same long_patterns, bag, kinds and min_entities; fitted (ready for rows). O(pairs). The
 * stats' samples_unusable is -1 (unknown without the samples). */
pattern_model *pattern_model_from_counts(const pattern_config *c, const pattern_counts *k);
void pattern_model_free(pattern_model *m);
int64_t pattern_model_entities(const pattern_model *m);

typedef struct {
    int64_t features;         /* kept (>= min_entities entities, in the subset) */
    int64_t pairs;            /* distinct (feature, entity) pairs kept */
    int64_t samples_unusable; /* samples without a kept feature */
    int64_t entities_uniform; /* entities without a usable feature (uniform rows); after fit */
} pattern_stats;
pattern_stats pattern_model_stats(const pattern_model *m);

/* Second pass over the counts: the entity profiles (similarity) or the prior m (prediction,
 * a pass over all rows). Must precede pattern_model_rows. */
void pattern_model_fit(pattern_model *m);
/* ---- contrastive refinement (similarity estimator; ProbExpan's phase 3 for pattern models) ----
 * Per class, positive and negative entity rows (E_pos, E_neg of a `pairs` artifact, taken from
 * the previous expansion). Each feature gets a weight exp(u_f) on its profile entries; u is
 * learned with AdamW (weight decay pulls u back to 0, i.e. to the unrefined profiles) on the
 * InfoNCE loss with hard negatives, averaged over every class's ordered positive pairs (a, p):
 *   -log( e^{s(a,p)/tau} / (e^{s(a,p)/tau} + sum_{n in E_neg} e^{s(a,n)/tau}) ),
 * s = cosine of the reweighted profiles. Afterwards the weights are folded into the profiles,
 * so pattern_model_rows gives the refined r(e). */
typedef struct {
    const int64_t *pos, *neg;
    int64_t n_pos, n_neg;
} pattern_class_sets;

typedef struct {
    int steps;           /* AdamW steps (full batch) */
    double lr, weight_decay, tau;
} pattern_contrast_opts;

pattern_contrast_opts pattern_contrast_defaults(void);
/* The --cl-* options of a stage that refines the feature weights (cli_option entries; the
 * table needs base/cli.h); `when` starts each help line: "--pairs", "refinement". */
#define PATTERN_CONTRAST_CLI_OPTIONS(o, when)                                                                   \
    {"cl-steps", OPT_INT, &(o).steps, "N", when ": AdamW steps", 0, 1e6},                                        \
    {"cl-lr", OPT_DOUBLE, &(o).lr, "LR", when ": AdamW learning rate", 0, 100},                                  \
    {"cl-weight-decay", OPT_DOUBLE, &(o).weight_decay, "WD",                                                     \
     when ": AdamW weight decay, pulling the feature weights back to 1 (the unrefined model)", 0, 100},          \
    {"cl-temperature", OPT_DOUBLE, &(o).tau, "T", when ": temperature of the contrastive (InfoNCE) loss", 1e-6, 100}
/* The loss at log-weights u [features] (NULL = all 0), and its gradient into grad (NULL =
 * not wanted). Sets with fewer than 2 positives or no negative add nothing. */
double pattern_model_contrast_loss(const pattern_model *m, const pattern_class_sets *sets, int nsets, double tau,
                                   const float *u, float *grad);
/* The learned weights exp(u_f) and the norms of the reweighted profiles: what a refinement
 * adds to a model, kept apart so that one read-only model serves many refinements (one per
 * query, in any thread). O(F + E) memory. */
typedef struct pattern_refinement pattern_refinement;
/* Learns u on the sets (the model is only read); the loss before and after the steps into
 * *loss_before / *loss_after when not NULL. Requires the similarity estimator, fitted. Cost:
 * steps x (F + sum over classes of |pos| x (|pos| + |neg|) x profile length). The steps end
 * early once the calling thread's budget is spent (common/base/budget.h). */
pattern_refinement *pattern_model_refine(const pattern_model *m, const pattern_class_sets *sets, int nsets,
                                         const pattern_contrast_opts *o, double *loss_before, double *loss_after);
void pattern_refinement_free(pattern_refinement *r);
/* The refinement of model m with the weights w[0 .. features of m) (exp(u_f), finite > 0, as
 * pattern_refinement_weights gives them; copied): a refinement stored in a file (a `patmodel`
 * artifact) brought back, identical to the one learned. O(F + profile entries). */
pattern_refinement *pattern_refinement_from_weights(const pattern_model *m, const float *w);
/* The refinement of m whose weights are a's times b's, feature by feature (both refinements
 * of m): two reweightings applied together. O(F + profile entries). */
pattern_refinement *pattern_refinement_product(const pattern_model *m, const pattern_refinement *a,
                                               const pattern_refinement *b);
/* The weights exp(u_f), one per feature of the model refined. */
const float *pattern_refinement_weights(const pattern_refinement *r);
/* pattern_model_refine, then the model's own rows (pattern_model_rows) use the refinement;
 * returns the loss after the last step (before: *loss_before when not NULL). */
double pattern_model_contrast(pattern_model *m, const pattern_class_sets *sets, int nsets,
                              const pattern_contrast_opts *o, double *loss_before);

/* r(e) for e = first .. first+n-1 into out [n, E] (rows sum to 1). */
void pattern_model_rows(pattern_model *m, int64_t first, int64_t n, float *out);

/* ---- explaining a similarity (similarity estimator, fitted) ----
 * Entity e's profile x_e: its features (model feature ids, ascending) into *feat and their
 * values x_e[f] = w_f max(0, PMI(e, f)) into *val (both point into the model, zeros
 * included), |x_e| into *norm; returns how many. cos(x_e, x_v), the similarity r(e) is a
 * softmax of, is the sum over the features both profiles hold of x_e[f] x_v[f] / (|x_e| |x_v|). */
int64_t pattern_model_profile(const pattern_model *m, int64_t e, const int32_t **feat, const float **val, double *norm);
/* w_f of model feature f. */
double pattern_model_feature_weight(const pattern_model *m, int64_t f);

/* ---- one row at a time, sparse (similarity estimator) ----
 * r(e)[v] = exp(c_v - max) / Z with c_v = cos(x_e, x_v) / T is the same background value
 * wherever v shares no weighted feature with e, so the row is that background plus the
 * entities reached through e's features: cost O(sum over e's features of their entities),
 * never O(E^2). The dense rows above are these rows expanded (identical floats). The
 * scratch space (O(E)) belongs to one thread; the model and the refinement are only read,
 * so threads may share them. */
typedef struct pattern_scratch pattern_scratch;
pattern_scratch *pattern_scratch_new(const pattern_model *m);
void pattern_scratch_free(pattern_scratch *s);
/* r(e) of model m, refined by r (NULL: unrefined), into out (malloc'd; sparse_row_free). */
void pattern_model_sparse_row(const pattern_model *m, const pattern_refinement *r, int64_t e, pattern_scratch *s,
                              sparse_row *out);

#endif
