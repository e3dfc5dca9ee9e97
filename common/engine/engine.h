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
 * candidate's held-out score is the mean over ordered seed pairs (a, s) of s's reciprocal rank
 * in r(a) among the non-seeds; of model 1 (selection-reweighted, noclen's), the unrefined
 * ensemble (nocl's) and the refined ensemble the highest answers, ties going to the simpler.
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
 * With genus_agreement > 0 (off by default) and a glossary index, the final list is re-ranked by
 * what its entities' own definitions call them against the set's shared genus heads, the
 * entities whose definitions name those heads joining it (common/model/genus_agreement.h).
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
#define ENGINE_GENUS_AGREEMENT 0.0
#define ENGINE_GENUS_POOL 200

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
    double genus_agreement; /* > 0: the final list (searched to ENGINE_GENUS_POOL, then cut to
                             * size) re-ranked by what its entities' own definitions call them
                             * against the set's shared genus heads, with this weight
                             * (common/model/genus_agreement.h); 0: not (ENGINE_GENUS_AGREEMENT) */
} engine_request;

engine_request engine_request_defaults(void);

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
    /* the check's held-out seed scores of model 1, the unrefined ensemble and the refined one
     * (0 without the check) */
    double holdout_single, holdout_unrefined, holdout_refined;
    double seconds;       /* wall time of the call */
    double cpu_seconds;   /* CPU time of the calling thread */
} engine_result;

/* The method for one request into *out (engine_result_free). Returns 0, or -1 for bad user
 * input with a one-line message in err (errlen >= 1024 holds every suggestion): an unknown
 * name (with the five closest), an ambiguous name (with the entities it names), an entity
 * both seed and negative (or accepted and negative), fewer than two distinct entities among
 * the seeds and the accepted ones, a bad
 * size/top/bounds. Never exits on user input. Thread-safe. */
int engine_query(const engine *g, const engine_request *q, engine_result *out, char *err, size_t errlen);
void engine_result_free(engine_result *r);

#endif
