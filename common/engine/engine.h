/* engine: ProbExpan for one seed set at a time over a corpus index (common/artifacts/index.h)
 * — the library behind `probexpan query` and `probexpan serve`.
 *
 * engine_open loads the index once and derives the K phase-1 pattern models (model 1 with
 * every feature, model k > 1 a seeded feature subset, as pipelines/probexpan.mk does); after
 * that the engine is read-only. engine_query runs the whole method for one request and keeps
 * all its state in the call (rows, refinements, caches), so any number of threads may query
 * one engine at once. Nothing is written to disk.
 *
 * The method, per variant (paper Table 4; `full` is the default):
 *   noclen  model 1: window search (seeds + size), re-ranking
 *   nocl    the K models scored by seed consistency on the query's seeds (modelscore.h), the
 *           `top` best averaged (the ensemble), window search, re-ranking
 *   noen    model 1: phase-2 search (seeds + phase2_size) and re-ranking; the contrastive sets
 *           of this query (E_pos = seeds + ranks < thr_pos, E_neg = ranks in (l_neg, u_neg),
 *           contrastive_pairs.h) refine model 1 (pattern_model_refine, regularised towards
 *           the unrefined model: ENGINE_CL_WEIGHT_DECAY); final search, re-ranking
 *   full    as nocl for phase 2; the sets refine each of the K models; the refined models are
 *           scored and ensembled again; final search and re-ranking
 * With `select` (the default) every variant first reweights the models it uses by the query's
 * own context features (common/model/seed_features.h: the features the seeds share, scored
 * against a fixed sample of other entities, get the log-weight boost), so phase 2 (noen,
 * full) or the only search (noclen, nocl) runs on the reweighted models, with the model
 * selection redone on them; a contrastive refinement is then learned as above and its weights
 * are multiplied by the selection's. The refinement check (refine_check, default; full and noen
 * with pseudo-positives, thr_pos > 2, and nothing accepted): the seeds are held out of E_pos,
 * so the refinement learns on the pseudo-positives alone, and the seeds then judge it: a
 * seed a's row score is the mean over the other seeds s of s's reciprocal rank in r(a) among
 * the non-seeds; model 1 (selection-reweighted, noclen's) answers unless the seeds prefer the
 * unrefined ensemble (nocl's), which the refined ensemble replaces if they prefer it in turn:
 * a higher mean row score and more seeds' rows higher than lower (refine_check.h).
 * On news prose the refinement drifts to what the seeds' stories share and the check falls
 * back (docs/refinement.md). select_rounds > 0 re-selects on the seeds plus the top
 * select_grow of a select_size search before that (SetExpan's iteration; measured worse on dev).
 * The search reads the ensemble's rows only where it needs them: each row r(e) is computed on
 * demand from the sparse profiles as a background plus its nonzeros (common/method/sparse_row.h)
 * and cached for the call; with row_cache_bytes > 0 the unrefined rows of the K models (the
 * same for every query) are also kept in the engine across queries, up to that many bytes
 * (filled on first use, never evicted, shared by the threads), so a server answering related
 * seed sets computes each row once. Accepted entities are known class members: they join the
 * seeds everywhere (the search's and the re-ranking's set, model selection, E_pos) and, like
 * the seeds, are not returned; when there are any, E_pos is the seeds and the accepted
 * entities only (they replace the pseudo-positives, ranks < thr_pos) and the refinement takes
 * accepted_steps AdamW steps instead of contrast.steps. Negative seeds are kept
 * out of every search and, in the contrastive variants, join E_neg of the refinement (a
 * rejected entity is a hard negative). The re-ranking is the official code's
 * (sum aggregate, mu 9, its anchor bands), the pipeline's default for pattern models.
 * With genus_agreement > 0 (the default, ENGINE_GENUS_AGREEMENT) and a glossary index, the final list is re-ranked by
 * what its entities' own definitions call them against the set's shared genus heads, the
 * entities whose definitions name those heads joining it (common/model/genus_agreement.h) —
 * when the gate opens: the context ranking is searched first, and only when few of its
 * defined entities are called by the set's heads (genus_gate) is the final search redone with
 * those candidates and re-ranked.
 *
 * Cost of one query: O(rows touched x their nonzeros + steps x (F + the sets' profile
 * sizes)) per model; memory O(E + rows touched x nonzeros), plus the kept rows. The rankings
 * equal those of the batch stages on the same models (tests/stage/query.sh). */
#ifndef PROBEXPAN_ENGINE_H
#define PROBEXPAN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "artifacts/index.h"
#include "model/contrastive_pairs.h"
#include "model/genus_heads.h"
#include "model/pattern_model.h"
#include "model/seed_features.h"

#define ENGINE_MAX_MODELS 16
/* The refinement's weight decay for one query. One query's sets (3 seeds, ~11 pseudo-positives,
 * ~29 negatives) are few: with the transductive value (0.01) the 50 AdamW steps of size lr
 * move every log-weight the sets touch by up to 50 x lr = 2.5 and the refined model falls
 * below the unrefined one; with 1 the decay (lr x wd x u per step) meets the steps at |u| ~ 1,
 * which keeps the refinement near the unrefined model (docs/results.md, "One seed set at a time"). */
#define ENGINE_CL_WEIGHT_DECAY 1.0
/* The refinement's steps once a person has accepted entities. E_pos is then the seeds and the
 * accepted entities only (~8 against ~14 with pseudo-positives), and 50 steps overfit them: in
 * some queries the refined models collapse onto another class (docs/feedback.md; 25 steps
 * raise the simulated user's round 1 on every random seed: dev/research/feedback-trials.md). */
#define ENGINE_CL_ACCEPTED_STEPS 25

/* The weight of the genus agreement re-ranking (genus_agreement.h) and the length of the list
 * it re-ranks before the cut to the request's size. */
#define ENGINE_GENUS_AGREEMENT 8.0
#define ENGINE_GENUS_POOL 200
/* The gate of the genus re-ranking: it applies only when, of the first ENGINE_GENUS_GATE_LIST
 * entities of the context ranking that are some definition's subject, fewer than this share
 * are called by the set's heads (genus_agreement_list_share); 1 = always. */
#define ENGINE_GENUS_GATE 0.25
#define ENGINE_GENUS_GATE_LIST 30
/* The place-in-place rule (common/model/located_pairs.h): an entity of the final list whose
 * appositions "E , Y" with a seed or an entity above it make up at least this share of its
 * mentions goes to the list's end. Only an index of running text has the pairs. */
#define ENGINE_LOCATED_SHARE 0.05
/* The modifier rule (common/model/noun_slots.h): an entity of the final list with at least
 * NOUN_SLOTS_MIN_MENTIONS mentions whose share in a noun's slot is below this ratio of the
 * seeds' median share goes to the list's end (leave-one-corpus-out over the quality suite:
 * docs/signals.md, "Modifiers"). An index without the counts has no such rule. */
#define ENGINE_MODIFIER_RATIO 0.25

typedef struct {
    int models;              /* K phase-1 models, 1..ENGINE_MAX_MODELS (3) */
    double feature_fraction; /* models 2..K keep a seeded subset of about this fraction (0.95: docs/inductive.md) */
    uint64_t seed;           /* model k > 1 uses the subset seed seed * 1000 + k (1) */
    size_t row_cache_bytes;  /* unrefined rows kept across queries, at most this many bytes (0) */
} engine_config;

engine_config engine_config_defaults(void);

typedef struct engine engine;

/* Loads the index at path (exit 3 naming file and byte on a bad or foreign file; exit 2 on a
 * bad config) and builds the models. */
engine *engine_open(const char *index_path, const engine_config *c);
void engine_free(engine *g);
const corpus_index *engine_index(const engine *g);
/* More names the seeds may be typed as: a names file (name<TAB>alias...) or a dataset (its
 * aliases.txt), entitynames.h; the number of aliases added. Exit 3 on a bad file. */
int64_t engine_add_aliases(engine *g, const char *path);
/* What each entity's own definitions call it (genus_heads.h), built once at engine_open. */
const genus_heads *engine_genus_heads(const engine *g);
/* Model 1 (every feature of the index, numbered as its counts; unrefined). */
const pattern_model *engine_model(const engine *g);

typedef enum { ENGINE_FULL, ENGINE_NOEN, ENGINE_NOCL, ENGINE_NOCLEN } engine_variant;
/* "full", "noen", "nocl", "noclen" -> the variant, else -1. */
int engine_variant_parse(const char *s);

typedef struct {
    /* as a person typed them: names (case and '_' insensitive, common/dataset/entitynames.h)
     * or eids */
    const char *const *seeds;
    int nseeds;
    int by_eid;        /* 1: every token is an eid (a dataset's query/), never a name */
    const char *const *negatives; /* rejected entities: never returned; hard negatives; held
                                   * against a feature by the feature selection when
                                   * features.rejected > 0 (default 0) */
    int nnegatives;
    const char *const *accepted;  /* accepted entities: seeds too (see above), never returned */
    int naccepted;
    engine_variant variant;
    int size;          /* entities returned beyond the seeds (100), >= 1 */
    int phase2_size;   /* phase-2 search size (200); must reach u_neg - 1 to have negatives */
    int top;           /* models kept by selection (2), 1..models */
    cl_bounds bounds;  /* contrastive sets (12, 170, 200: the wiki preset) */
    int background;    /* plus this many background negatives: entities in a fixed
                        * pseudo-random order, not positive (the rest of the corpus, which
                        * the other classes' sets stand for in the transductive protocol) */
    pattern_contrast_opts contrast; /* the refinement (pattern_contrast_defaults, with
                                     * weight decay ENGINE_CL_WEIGHT_DECAY) */
    int accepted_steps; /* the refinement's AdamW steps, instead of contrast.steps, once
                         * entities are accepted (ENGINE_CL_ACCEPTED_STEPS) */
    int select;        /* 1 (default): the query's own context features reweight the models */
    seedfeat_opts features; /* their selection (seedfeat_defaults) */
    int select_rounds; /* re-selections on the seeds + the top of the last expansion (0) */
    int select_grow;   /* that top: entities of the expansion joining the set (10) */
    int select_size;   /* search size of a re-selection round's expansion (50) */
    int select_others; /* the other entities of the selection: the first N of the background order (500) */
    int refine_check;  /* 1 (default): the refinement check (above); 0: the paper's E_pos, the
                        * refined models always answer */
    const char *explain; /* NULL, or one more entity (a name or eid, as the seeds): where the
                          * answer places it (engine_place) */
    double genus_agreement; /* > 0: where the gate opens, the final list (searched again to
                             * ENGINE_GENUS_POOL, then cut to size) re-ranked by what its
                             * entities' own definitions call them against the set's shared
                             * genus heads, with this weight (common/model/genus_agreement.h);
                             * 0: not (ENGINE_GENUS_AGREEMENT) */
    double genus_gate;      /* in [0, 1]: the re-ranking applies only when the context ranking's
                             * share named by the set's heads is below this (ENGINE_GENUS_GATE) */
    double located_share;   /* > 0: the place-in-place rule on the final list with this share
                             * (ENGINE_LOCATED_SHARE); 0: not */
    double modifier_ratio;  /* > 0: the modifier rule on the final list with this ratio
                             * (ENGINE_MODIFIER_RATIO); 0: not */
} engine_request;

engine_request engine_request_defaults(void);
/* The options of a request and of the engine's config, declared once for the programs that
 * take them (`query`; the table needs base/cli.h): q an engine_request, c an engine_config,
 * variant a const char * (engine_variant_parse) and seed a long (c.seed once parsed), each
 * holding its default. */
#define ENGINE_CLI_OPTIONS(q, c, variant, seed) \
    {"size", OPT_INT, &(q).size, "N", "entities to return beyond the seeds and accepted entities", 1, 1000000}, \
    {"variant", OPT_STRING, &(variant), "full|noen|nocl|noclen", "the method's ablation variant (paper Table 4)", 0, 0}, \
    {"phase2-size", OPT_INT, &(q).phase2_size, "N", "phase-2 search size: the contrastive sets come from its ranking", 1, 1000000}, \
    {"models", OPT_INT, &(c).models, "K", "phase-1 pattern models (1 all features, 2..K feature subsets)", 1, ENGINE_MAX_MODELS}, \
    {"top", OPT_INT, &(q).top, "K", "models kept by selection for the ensemble", 1, ENGINE_MAX_MODELS}, \
    {"feature-fraction", OPT_DOUBLE, &(c).feature_fraction, "F", "feature subset of models 2..K", 1e-3, 1}, \
    {"random-seed", OPT_LONG, &(seed), "N", "random seed of the feature subsets: model k > 1 draws with N*1000+k (the pipeline's RANDOM_SEED)", 0, 9e15}, \
    {"thr-pos", OPT_INT, &(q).bounds.thr_pos, "N", "E_pos = seeds + phase-2 ranks 1..N-1 (with accepted entities: seeds + accepted only)", 1, 1000000}, \
    {"l-neg", OPT_INT, &(q).bounds.l_neg, "N", "E_neg = phase-2 ranks in (L_neg, U_neg)", 0, 1000000}, \
    {"u-neg", OPT_INT, &(q).bounds.u_neg, "N", "upper bound U_neg, exclusive", 1, 1000000}, \
    {"background", OPT_INT, &(q).background, "N", "refinement: also N background negatives (entities in a fixed pseudo-random order)", 0, 1000000}, \
    PATTERN_CONTRAST_CLI_OPTIONS((q).contrast, "refinement"), \
    {"cl-steps-accepted", OPT_INT, &(q).accepted_steps, "N", "refinement: AdamW steps instead of --cl-steps once entities are accepted (E_pos is then the seeds + accepted only)", 0, 1000000}, \
    {"refine-check", OPT_INT, &(q).refine_check, "0|1", "full, noen, with pseudo-positives (--thr-pos > 2, nothing accepted): 1 = the refinement learns with the seeds held out of E_pos, and the seeds vote: model 1 answers unless the unrefined ensemble ranks the seeds higher among each other's neighbours, on the mean and for more seeds than not, and the refined ensemble replaces that choice by the same test; 0 = the paper's E_pos, the refined ensemble always", 0, 1}, \
    {"genus-agreement", OPT_DOUBLE, &(q).genus_agreement, "W", "re-rank the final list (where --genus-gate opens: searched again to 200, with the entities whose definitions name the set's heads) by what its entities' own definitions call them against the genus heads the most seeds share (at least half): position x exp(-W (a - 1/2)), a the share of an entity's definition heads among the set's (1/2 without a definition); glossaries only; 0 = off", 0, 100}, \
    {"genus-gate", OPT_DOUBLE, &(q).genus_gate, "S", "--genus-agreement applies only when, of the first 30 entities of the context ranking that some definition has as its subject, fewer than this share are called by the set's heads (the contexts have drifted from what the seeds are); 1 = always", 0, 1}, \
    {"located-share", OPT_DOUBLE, &(q).located_share, "S", "move to the end of the list the entities named inside a seed or an entity ranked above them (\"Calgary , Alberta\": appositions \"E , Y\" with such a Y, more often than \"Y , E\", in at least this share of E's mentions); running text only (a glossary's index has no appositions); 0 = off", 0, 1}, \
    {"modifier-ratio", OPT_DOUBLE, &(q).modifier_ratio, "R", "move to the end of the list the entities used as modifiers (\"Japanese exporters\" for a set of countries): at least 10 mentions, of which a share below R x the seeds' median share stands where a noun does (after \"in\", \"to\", \"from\"; before \"'s\", a full stop, a preposition, \"said\", \"has\"...); 0 = off", 0, 1}, \
    {"select", OPT_INT, &(q).select, "0|1", "1 = reweight the models by the query's own context features (the features the seeds share, SetExpan's selection); 0 = the paper's method as the batch stages run it", 0, 1}, \
    {"select-features", OPT_INT, &(q).features.top, "N", "--select: features selected", 1, 1000000}, \
    {"select-min-share", OPT_INT, &(q).features.min_share, "N", "--select: set members that must hold a selected feature", 1, 1000}, \
    {"select-min-fraction", OPT_DOUBLE, &(q).features.share_fraction, "P", "--select, once entities are accepted: share of the seeds + accepted that must hold a selected feature, if more than --select-min-share", 0, 1}, \
    {"select-boost", OPT_DOUBLE, &(q).features.boost, "B", "--select: log-weight of a selected feature", 0, 20}, \
    {"select-proportional", OPT_INT, &(q).features.proportional, "0|1", "--select: 1 = log-weight boost x score / best score, 0 = boost", 0, 1}, \
    {"select-rounds", OPT_INT, &(q).select_rounds, "N", "--select: re-selections on the seeds + the top of the reweighted expansion", 0, 100}, \
    {"select-grow", OPT_INT, &(q).select_grow, "N", "--select: entities of that expansion joining the seeds", 0, 10000}, \
    {"select-others", OPT_DOUBLE, &(q).features.others, "L", "--select: weight of the other entities' mean in a feature's score (0 = not used)", 0, 100}, \
    {"select-rejected", OPT_DOUBLE, &(q).features.rejected, "MU", "--select: weight of the rejected entities' (--negative-seeds) mean in a feature's score (0 = not used)", 0, 100}, \
    {"select-others-n", OPT_INT, &(q).select_others, "N", "--select: other entities: the first N of a fixed pseudo-random order", 1, 100000000}, \
    {"select-size", OPT_INT, &(q).select_size, "N", "--select: search size of a re-selection round", 1, 1000000}

/* The "other entities" a request's feature selection scores against (its select_others first
 * entities of the fixed background order), for explaining that selection. */
seedfeat_set engine_select_others(const engine *g, const engine_request *q);
/* The options that selection runs with: q->features, the set's share counting only once
 * entities beyond the seeds are accepted (`accepted` of them). */
seedfeat_opts engine_select_opts(const engine_request *q, int accepted);

typedef struct {
    int64_t row, eid;
    const char *name;     /* points into the engine's index */
    double score;         /* the re-ranking's aggregate (sort key, descending) */
    int order;            /* 1-based position in the window search */
    int kl_rank;          /* rank by -KL against the final set */
    double kl_score;      /* that -KL */
    double search_score;  /* the window search's anchor score when the entity was added */
    int64_t mentions;     /* the entity's mentions in the corpus */
} engine_item;

/* Where an answer places the entity of engine_request.explain ("why not X?"):
 *   LISTED    in the ranking, at `rank`, with its figures (score, order, kl_rank, kl_score);
 *   OUTSIDE   not in it: search_rank is its place in the final search's candidate order
 *             after the list (the sum of the final set's rows, seeds + accepted + the list,
 *             descending; 1 = the entity the search would take next), rank = n + search_rank;
 *             kl_score is the re-ranking's -KL with it as the final set's last member, and
 *             kl_rank its place among the listed entities by that score (1 + those above it);
 *   REJECTED  a negative seed, never listed: the figures of OUTSIDE, rank 0;
 *   SEED, ACCEPTED  a known member: no figures (rank 0). */
typedef enum { ENGINE_PLACE_NONE, ENGINE_PLACE_LISTED, ENGINE_PLACE_OUTSIDE, ENGINE_PLACE_REJECTED, ENGINE_PLACE_SEED,
               ENGINE_PLACE_ACCEPTED } engine_place_kind;
typedef struct {
    engine_place_kind kind;
    int64_t row;
    int rank, search_rank, kl_rank, order;
    double kl_score, score;
    int listed;                           /* entities in the ranking */
    double list_kl_best, list_kl_worst;   /* the highest and lowest kl_score among them */
} engine_place;

typedef struct {
    int nseeds, nnegatives, naccepted;
    int64_t *seeds, *negatives, *accepted; /* resolved rows, duplicates dropped */
    int n;
    engine_item *items;   /* the ranking, best first (seeds and accepted not included) */
    int models_kept;      /* models in the final ensemble */
    int kept[ENGINE_MAX_MODELS];            /* their 0-based indices, best first */
    double model_score[ENGINE_MAX_MODELS];  /* final selection's consistency (lower = better) */
    int n_pos, n_neg;     /* contrastive sets (0 without a refinement) */
    double loss_before, loss_after;
    int refinement_used;  /* 1: the final ranking used the contrastive refinement */
    /* the check's held-out row score (refine_check.h) of each member (the seeds in request
     * order, then the accepted ones) for model 1, the unrefined ensemble and the refined one:
     * REFINE_CHECK_CANDIDATES x (nseeds + naccepted), candidate-major; NULL without the check */
    double *holdout_seeds;
    double genus_share;   /* the gate's share (genus_agreement_list_share; -1: none, or no gate run) */
    int genus_reranked;   /* 1: the gate opened and the genus re-ranking ordered the list */
    double seconds;       /* wall time of the call */
    double cpu_seconds;   /* CPU time of the calling thread */
    engine_place place;   /* of the request's `explain` entity (kind NONE without one) */
} engine_result;

#define ENGINE_STOPPED (-2)
/* The method for one request into *out (engine_result_free). Returns 0, or -1 for bad user
 * input with a one-line message in err (errlen >= 1024 holds every suggestion): an unknown
 * name (with the five closest), an ambiguous name (with the entities it names), an entity
 * both seed and negative (or accepted and negative, or seed and accepted), fewer than two
 * distinct entities among the seeds and the accepted ones, a bad size/top/bounds; or
 * ENGINE_STOPPED when the calling thread's budget (common/base/budget.h) was spent before the
 * end (its reason in err; the search, re-ranking and refinement stop at their next step and
 * the later phases are skipped). Never exits on user input. Thread-safe. */
int engine_query(const engine *g, const engine_request *q, engine_result *out, char *err, size_t errlen);
void engine_result_free(engine_result *r);

#endif
