/* context_encoder (research code, not part of the library): a shallow,
 * fastText-style encoder of a masked sample, measured as a from-scratch alternative to
 * BERT and superseded by the pattern model (common/model/pattern_model.h; docs/results.md,
 * dev/research/pattern-model-trials.md). It produces the same [B, H] "hidden at [MASK]" that
 * bert_forward_train does, so the entity head, the loss, AdamW and checkpoints work unchanged.
 *
 * A sample is its wordpiece ids with one [MASK] at mask_pos. Its features are rows
 * of one embedding table E [rows, H]:
 *   - bag of words: every context id t at distance 1 <= |d| <= window from the mask
 *     (window 0 = the whole sentence): row t, or with `sides` row t for left words
 *     and row vocab + t for right words;
 *   - positional words (pos_window > 0): (t, d) for |d| <= pos_window, hashed into
 *     `buckets` rows (after the word rows) — "of [MASK]" differs from "[MASK] of";
 *   - bigrams (bigrams = 1): every pair of adjacent ids inside the window, the
 *     [MASK] included as a token, hashed into the same buckets.
 * Ids listed in skip[] ([CLS], [SEP], [PAD]) and out-of-range ids are ignored.
 * The representation is the mean of the feature rows:
 *   h = (1/n) Σ_f E[f]        (h = 0 for a sample without features).
 * Context dropout (training only): each feature is dropped with probability `drop`
 * (the mean is over the kept ones; at least one is kept).
 *
 * Parameters: one tensor "ctx.embeddings" [rows, H], rows = vocab·(1+sides) +
 * buckets (param_list `params`), initialised N(0, init_std²). The gradient is
 * dense in memory but only the rows of the batch's features are written.
 * The config round-trips through a JSON object (the "context_encoder" block of a
 * model's config.json). */
#ifndef PROBEXPAN_CONTEXT_ENCODER_H
#define PROBEXPAN_CONTEXT_ENCODER_H

#include <stdint.h>

#include "nn/param.h"
#include "base/rng.h"

#define CTX_MAX_SKIP 8

typedef struct {
    int vocab;        /* token ids 0..vocab-1 */
    int dim;          /* H */
    int window;       /* max |distance| of bag-of-words features, 0 = whole sample */
    int sides;        /* 1: separate rows for left and right words */
    int pos_window;   /* positional features for |d| <= pos_window, 0 = none */
    int bigrams;      /* 1: hashed bigram features */
    int buckets;      /* hashed rows (needed > 0 when pos_window or bigrams) */
    int mask_id;      /* the [MASK] id (bigrams use it as a token) */
    int nskip;
    int skip[CTX_MAX_SKIP];
    float init_std;
} ctx_config;

/* Defaults: dim 128, window 0 (whole sentence), sides 1, pos_window 2, bigrams 1,
 * buckets 65536, init_std 0.1; vocab, mask_id and skip[] must be set by the caller. */
ctx_config ctx_config_defaults(void);
/* Dies with exit 2 naming the field when a value is out of range. */
void ctx_config_check(const ctx_config *c);
/* JSON text of the config (malloc'd) / parse one ("file" names it in errors; a
 * missing or mistyped field exits 3). */
char *ctx_config_to_json(const ctx_config *c);
void ctx_config_from_json(ctx_config *c, const char *json, const char *file);

typedef struct {
    ctx_config cfg;
    int64_t rows;
    float *emb, *gemb;
    param_list params;
    unsigned char *is_skip; /* [vocab] */
} context_encoder;

void ctx_create(context_encoder *m, const ctx_config *c);     /* zero weights */
void ctx_init_random(context_encoder *m, rng_t *rng);
void ctx_free(context_encoder *m);

/* Model directory (the checkpoint layout of common/nn/checkpoint.h with this config):
 * DIR/config.json = {"model_type": "probexpan-context", "context_encoder": {..},
 * "probexpan": {"num_entities": V_e, "mask_token_id": ..}}, written to a temporary
 * name and renamed; DIR/model.safetensors holds "ctx.embeddings" and the head. */
void ctx_config_save(const ctx_config *c, int num_entities, const char *path);
/* True when DIR/config.json has a "context_encoder" block (a BERT dir has none). */
int ctx_is_model_dir(const char *dir);
/* Creates m from DIR/config.json and loads ctx.embeddings from DIR/model.safetensors;
 * *num_entities from the probexpan block (0 when absent). A missing file, block,
 * tensor or a wrong shape exits 3 naming it. */
void ctx_load_dir(context_encoder *m, const char *dir, int *num_entities);

/* A packed batch of feature lists: sample b owns feat[off[b] .. off[b+1]-1]. */
typedef struct {
    int B, cap_b;
    int64_t n, cap_n;
    int64_t *off;
    int32_t *feat;
} ctx_batch;

void ctx_batch_clear(ctx_batch *b);
/* Adds one sample (ids[0..len-1], [MASK] at mask_pos). drop > 0 needs rng. */
void ctx_batch_add(const context_encoder *m, ctx_batch *b, const int32_t *ids, int len,
                   int mask_pos, double drop, rng_t *rng);
void ctx_batch_free(ctx_batch *b);

/* hid [B, H] = mean feature rows of each sample. */
void ctx_forward(const context_encoder *m, const ctx_batch *b, float *hid);
/* ACCUMULATES d E from d hid [B, H] and sets has_grad. */
void ctx_backward(context_encoder *m, const ctx_batch *b, const float *dhid);

#endif
