/* trainer: what train-mlm and train-cl share (docs/design.md §3 "Training"): loading the encoder
 * (--model HF dir or --config random init) and the entity head for a samples artifact,
 * the input checks, the frozen-prefix cache, batches, the masked-entity-prediction step
 * and epoch, per-epoch checkpoints and --resume.
 *
 * Use:
 *   trainer_opts o; trainer_opts_init(&o);        cli table: TRAINER_OPTIONS(o), ...
 *   trainer t; trainer_open(&t, &o);              samples, model, head, checks, cache
 *   [trainer_add_params(&t, &proj.params);]       extra trainable modules (train-cl)
 *   trainer_start(&t);                            optimizer; restores state on --resume
 *   for (int e = t.first_epoch; e <= o.epochs; e++) {
 *       trainer_mep_epoch(&t, e);                 (train-cl: its passes around this)
 *       trainer_save_epoch(&t, e, NULL, 0);
 *   }
 *   trainer_close(&t);
 *
 * Defaults that depend on the encoder source: with --model, F = layers-1 (F=11 of 12 as in
 * the paper) and lr 1e-5 (official); with --config (from scratch), F = 0 and lr
 * TRAINER_SCRATCH_LR. Explicit flags always win.
 *
 * Output folder: OUT/epoch-N/ = HF layout (config.json, vocab.txt, model.safetensors with
 * the head) + optimizer.safetensors (AdamW m, v, step) + trainer_state.json (epoch, rng
 * state, the settings resume must match, loss and accuracy per epoch). An epoch folder is
 * written as OUT/epoch-N.tmp and renamed, so epoch-N exists only when complete.
 * OUT/final is a relative symlink to the last complete epoch-N (replaced atomically).
 * Each epoch folder is recorded in the catalog as an artifact of kind "model" (sha256 over
 * its files) whose inputs are the samples and the encoder source.
 * A fresh (non --resume) run removes old epoch-* folders first.
 *
 * Determinism: weights depend only on the samples, the encoder, the options and the seed
 * (and the BLAS thread count); --resume restores weights, optimizer and rng exactly, so
 * an interrupted run resumed gives bit-identical final weights.
 *
 * Bad input -> exit 3: wrong artifact kind, samples ids outside the model vocabulary
 * (or a vocab.txt that differs from the samples' vocabulary), samples longer than
 * max_position_embeddings, a different [MASK] id, F >= layers, a cache built for other
 * samples/encoder/F, a non-finite loss (the last complete epoch stays as it is). */
#ifndef PROBEXPAN_TRAINER_H
#define PROBEXPAN_TRAINER_H

#include <stdint.h>

#include "nn/adamw.h"
#include "nn/bert.h"
#include "base/cli.h"
#include "nn/entity_head.h"
#include "model/prefix_cache.h"
#include "base/rng.h"
#include "format/safetensors.h"
#include "artifacts/samples.h"

#define TRAINER_MODEL_LR 1e-5
#define TRAINER_SCRATCH_LR 1e-3

typedef struct {
    const char *samples, *model, *config, *out, *cache, *cache_dtype, *per_entity;
    int frozen;         /* -1 = by encoder source (see above) */
    int epochs, batch, resume;
    double lr;          /* 0 = by encoder source */
    double smoothing;
    long seed;
} trainer_opts;

void trainer_opts_init(trainer_opts *o);

/* The shared command-line options, for a stage's cli_option table. */
#define TRAINER_OPTIONS(o)                                                                              \
    {"samples", OPT_INPUT, &(o).samples, "FILE", "samples artifact (build-samples)", 0, 0},            \
    {"model", OPT_INPUT, &(o).model, "DIR", "pretrained encoder, HF directory (config.json, model.safetensors, vocab.txt)", 0, 0}, \
    {"config", OPT_INPUT, &(o).config, "FILE", "config.json: train from scratch, random init (std 0.02)", 0, 0}, \
    {"out", OPT_OUTPUT_DIR, &(o).out, "DIR", "output folder: epoch-N/ checkpoints and final -> last epoch", 0, 0}, \
    {"frozen-layers", OPT_INT, &(o).frozen, "F", "frozen bottom layers (-1: layers-1 with --model, 0 with --config)", -1, 4096}, \
    {"epochs", OPT_INT, &(o).epochs, "N", "training epochs", 1, 1000000},                               \
    {"batch", OPT_INT, &(o).batch, "N", "samples per optimizer step", 1, 1000000},                      \
    {"lr", OPT_DOUBLE, &(o).lr, "X", "AdamW learning rate (0: 1e-5 with --model, 1e-3 with --config)", 0, 10}, \
    {"smoothing", OPT_DOUBLE, &(o).smoothing, "ETA", "label smoothing eta", 0, 0.999999},               \
    {"samples-per-entity", OPT_STRING, &(o).per_entity, "N|avg|all", "samples drawn per entity and epoch (all: each of its samples once)", 0, 0}, \
    {"random-seed", OPT_LONG, &(o).seed, "N", "random seed (init, sampling, shuffling)", 0, 9.2e18},           \
    {"cache", OPT_OUTPUT, &(o).cache, "PATH", "frozen-prefix cache, shared by models on the same samples+encoder+F (default: OUT/prefix-cache.mp)", 0, 0}, \
    {"cache-dtype", OPT_STRING, &(o).cache_dtype, "f16|bf16", "storage of a newly built cache", 0, 0}, \
    {"resume", OPT_FLAG, &(o).resume, NULL, "continue from the last complete epoch in OUT", 0, 0}

typedef struct {
    trainer_opts o;
    samples *s;
    char samples_sha[65];
    const char *encoder_src;    /* o.model or o.config */
    char encoder_sha[65];       /* its sha256 (computed at the first checkpoint) */
    char *extra_input[4], extra_sha[4][65];   /* trainer_add_input() */
    int nextra_inputs;
    bert_model m;
    entity_head head;
    param_list *lists[8];       /* m.params, head.params, then trainer_add_params() */
    int nlists;
    adamw opt;
    rng_t rng;                  /* training stream: epoch draws (saved with each epoch) */
    prefix_cache *cache;        /* NULL when F == 0 */
    char *cache_path;
    int64_t per_entity;         /* k of the epoch sampler (EPOCH_ALL: every sample once) */
    int first_epoch;            /* 1, or the last complete epoch + 1 after --resume */
    double *loss, *accuracy;    /* [epochs + 1], per epoch (index 1..) */
    /* batch state (trainer_load_batch / trainer_mep_step) */
    bert_batch b;
    bert_acts *acts;
    float *prefix;              /* [b.T, H] cached prefix rows of the batch (F >= 1) */
    size_t prefix_cap;
    float *hid, *dense, *gelu, *dhid, *logp, *dlogp, *scratch;
    int *labels, cap_B;
    int32_t *ids;
    int64_t *first, *count;     /* per-entity sample ranges */
    int64_t correct;            /* argmax hits since the last reset (MEP steps) */
} trainer;

void trainer_open(trainer *t, const trainer_opts *o);
/* Registers another trainable module (optimizer, checkpoints, resume); before start. */
void trainer_add_params(trainer *t, param_list *l);
void trainer_start(trainer *t);
/* Packs samples ids[0..n) into a caller-owned batch and, with a cache, their prefix rows into
 * a caller-owned buffer (*prefix grown as needed, *cap its size in floats; both start
 * zeroed), e.g. the two views of a contrastive step. *prefix is
 * left untouched when there is no cache (pass NULL to bert_forward_train then). */
void trainer_load_batch_to(trainer *t, const int64_t *ids, int n, bert_batch *b, float **prefix,
                           size_t *cap);
/* Records another input of the checkpoints (e.g. train-cl's pairs artifact): each epoch
 * folder's catalog entry lists it, with its sha256, after the samples and the encoder. */
void trainer_add_input(trainer *t, const char *path);
/* Data parallelism (common/base/cluster): sums the gradients of every trainable tensor over
 * the ranks, in every rank and in place (no copy), so that the replicas take the same AdamW
 * step; `replicated` (or NULL) is a list whose gradient every rank computed whole, left as it
 * is. One rank: no-op. */
void trainer_sum_grads(trainer *t, const param_list *replicated);
/* This rank's contiguous share [*lo, *hi) of a global batch of n samples ids[0..n) (with ids2:
 * n pairs ids[i], ids2[i]): cluster_share by bert_sequence_cost, so that ranks given samples of
 * different lengths do the same work. One rank: [0, n). */
void trainer_share(const trainer *t, const int64_t *ids, const int64_t *ids2, int n, int *lo, int *hi);
/* One MEP epoch (draw, shuffle, batches, progress). Returns the mean loss; also stores
 * it and the training accuracy in t->loss[epoch], t->accuracy[epoch]. */
double trainer_mep_epoch(trainer *t, int epoch);
/* Writes OUT/epoch-N (with extra raw tensors, e.g. BatchNorm counters) and moves
 * OUT/final to it; records the epoch's metrics in the catalog. Collective in an MPI job
 * (the ranks' parameters are first checked identical; rank 0 writes). */
void trainer_save_epoch(trainer *t, int epoch, const safetensors_entry *extra, int nextra);
/* Folder of the checkpoint restored by --resume (NULL when starting fresh). */
const char *trainer_resumed_dir(const trainer *t);
void trainer_close(trainer *t);

#endif
