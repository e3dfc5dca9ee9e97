/* bert: the BERT encoder (HuggingFace layout and math, golden README) — config, parameters,
 * forward and backward over a packed batch, with a frozen prefix and a [MASK]-only top layer.
 *
 * Batches are PACKED, not padded: sequence b occupies rows off[b] .. off[b+1]-1 of every
 * [T, H] activation (T = Σ lengths), its tokens at positions 0..len-1. Attention runs
 * within each sequence only, which is exactly HF's result with padding masked out (padded
 * keys get weight 0; padded rows never reach the loss), with no work spent on padding.
 *
 * Freezing (docs/design.md §3): model->frozen = F. The embeddings are frozen iff F >= 1, encoder
 * layer i iff i < F. The output of the frozen part never changes, so a trainer computes it
 * once with bert_forward_prefix(m, b, bert_prefix_layers(m), out) and caches it (e.g. as
 * float16/bfloat16 via tensor_ops), then passes it to bert_forward_train.
 *
 * Training pass: bert_forward_train runs layers P = bert_prefix_layers(m) .. N-2 in full
 * (storing activations in a bert_acts) and the top layer N-1 only at the [MASK] rows: query,
 * attention output and FFN at [MASK] only; the keys/values of all positions enter only
 * through (W_kᵀq)·x_j and W_v·Σ_j P_j x_j, so they are never formed (same result, O(B·H²)
 * instead of O(T·H²); the top layer's key bias gets its exact gradient 0). Its output is
 * hidden_mask [B, H]. bert_backward then takes d hidden_mask [B, H] and ACCUMULATES
 * gradients into every trainable tensor (layers >= F; embeddings too when F == 0), setting
 * has_grad on them. A bert_acts holds one batch: for two views (contrastive step) use two.
 *
 * Threads: every product and loop is split over parallel_threads() (parallel.h; --threads),
 * deterministic for a given thread count. A model keeps a forward scratch (m->work), so one
 * model must not run forwards from two threads at once. */
#ifndef PROBEXPAN_BERT_H
#define PROBEXPAN_BERT_H

#include "nn/param.h"
#include "base/rng.h"

typedef struct {
    int vocab_size, hidden, layers, heads, ffn, max_pos, type_vocab;
    float ln_eps;
    /* the optional "probexpan" block of config.json; 0 when absent
     * (mask_token_id defaults to 103, the bert-base-uncased [MASK]) */
    int num_entities, mask_token_id, proj_hidden, proj_out;
} bert_config;

/* Reads config.json (jansson). Missing required keys, hidden_act other than "gelu",
 * hidden % heads != 0: exit 3 naming the file and key. */
void bert_config_load(bert_config *c, const char *path);
/* Writes config.json (HF BertModel fields + the probexpan block), atomically. */
void bert_config_save(const bert_config *c, const char *path);

typedef struct {
    float *q_w, *q_b, *k_w, *k_b, *v_w, *v_b;     /* attention.self.{query,key,value} */
    float *ao_w, *ao_b, *ln1_w, *ln1_b;           /* attention.output.{dense,LayerNorm} */
    float *i_w, *i_b;                             /* intermediate.dense [ffn, H] */
    float *o_w, *o_b, *ln2_w, *ln2_b;             /* output.{dense [H, ffn], LayerNorm} */
} bert_layer_w;

typedef struct {
    float *word, *pos, *type, *ln_w, *ln_b;       /* embeddings.* */
    bert_layer_w *layer;                          /* [layers] */
} bert_weights;

typedef struct {
    bert_config cfg;
    int frozen;             /* F */
    float *param_mem;       /* every parameter, contiguous */
    float *grad_mem;        /* gradients of the trainable tensors only (NULL if none) */
    bert_weights w;         /* pointers into param_mem */
    bert_weights g;         /* pointers into grad_mem; NULL for frozen tensors */
    param_list params;      /* HF names without "bert." prefix, in HF order */
    struct bert_work *work; /* forward scratch reused across calls: a model must not be
                               used by two threads at once (use one model per thread) */
} bert_model;

/* Allocates a model with F frozen layers (0 <= F <= layers); weights zero. */
void bert_create(bert_model *m, const bert_config *c, int frozen);
void bert_free(bert_model *m);
/* HF-style init: Linear/Embedding weights N(0, 0.02), biases 0, LayerNorm 1/0. */
void bert_init_random(bert_model *m, rng_t *rng);
/* Loads every encoder tensor from a safetensors file: names with or without "bert.",
 * legacy "LayerNorm.gamma/beta" accepted, other tensors (cls.*, pooler.*, head.*, ...)
 * ignored. Missing or mis-shaped tensor: exit 3 naming the file and tensor. */
void bert_load_safetensors(bert_model *m, const char *path);
/* config.json + model.safetensors of an HF directory. */
void bert_load_dir(bert_model *m, const char *dir, int frozen);

/* ---- batches ---- */
typedef struct {
    int B, T;          /* sequences, total tokens */
    int *ids;          /* [T] token ids, packed */
    int *off;          /* [B+1] row offsets */
    int *mask_pos;     /* [B] position of [MASK] in its sequence (0-based) */
    int cap_B, cap_T;
} bert_batch;

void bert_batch_clear(bert_batch *b);
/* Appends one sequence; its [MASK] is the first id == mask_id. Returns 0, or -1 when it
 * has no [MASK], -2 when len < 1 or len > max_pos (nothing appended then). */
int bert_batch_add(bert_batch *b, const int *ids, int len, int mask_id, int max_pos);
void bert_batch_free(bert_batch *b);

/* ---- forward / backward ---- */
typedef struct bert_acts bert_acts;     /* opaque: activations of one training batch */
bert_acts *bert_acts_new(void);
void bert_acts_free(bert_acts *a);

/* The work of one sequence of len tokens in a forward pass, in units of one token through a
 * layer's dense products (24·H² multiply-adds with FFN = 4H; attention adds 4·len·H), for
 * sharing batches of different lengths out by work rather than by count. */
double bert_sequence_cost(int len, int hidden);
/* min(F, layers-1): how many encoder layers the cacheable prefix covers. */
int bert_prefix_layers(const bert_model *m);
/* Embeddings + the first nl layers, forward only: out [T, H] (packed like the batch).
 * nl = 0 gives the embedding LayerNorm output. */
void bert_forward_prefix(const bert_model *m, const bert_batch *b, int nl, float *out);
/* Full forward of every layer, for inspection and tests: outs[0] = embeddings, outs[l+1] =
 * output of layer l, each [T, H] (caller-allocated; entries may be NULL to skip). */
void bert_forward_all(const bert_model *m, const bert_batch *b, float **outs);
/* Inference: hidden state at [MASK], hidden_mask [B, H] (prefix + [MASK]-only top). */
void bert_forward_infer(const bert_model *m, const bert_batch *b, float *hidden_mask);
/* The same from a cached prefix: prefix [T, H] = bert_forward_prefix(m, b, nl, ·) output
 * (0 <= nl <= layers-1); runs layers nl .. N-2 and the top layer. With the train-mlm cache
 * (nl = bert_prefix_layers) BERT-base F=11 inference skips 11 of its 12 layers. */
void bert_forward_infer_from(const bert_model *m, const bert_batch *b, const float *prefix,
                             int nl, float *hidden_mask);

/* Training forward. prefix = the [T, H] output of bert_forward_prefix(.., P, ..) with
 * P = bert_prefix_layers(m), or NULL to compute it here; ignored when F == 0 (the
 * embeddings are then computed with their activations kept). Writes hidden_mask [B, H]. */
void bert_forward_train(bert_model *m, bert_acts *a, const bert_batch *b,
                        const float *prefix, float *hidden_mask);
/* Backward of the last bert_forward_train on `a` (same batch b) from d hidden_mask [B, H];
 * accumulates into m->g and sets has_grad. Does nothing useful when everything is frozen. */
void bert_backward(bert_model *m, bert_acts *a, const bert_batch *b, const float *d_hidden);

#endif
