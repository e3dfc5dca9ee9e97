/* cl_train: the contrastive passes of train-cl (docs/design.md §3 "Contrastive learning", official
 * Expan.pretrain / run_epoch_cl), on top of the shared trainer (trainer.h).
 *
 * One contrastive STEP (cl_step) on B pairs, given the two views as packed batches:
 *   view 1 = first samples of the pairs, view 2 = second samples, two separate encoder
 *   forward calls and two projection-head calls (BatchNorm statistics per view, running
 *   statistics updated twice), z1, z2 → HCL loss (τ⁺, β, t) with gradient weight `weight`
 *   (official 7) → projection-head backward per view (accumulating) → encoder backward per
 *   view (accumulating). The caller zeroes the gradients before and runs AdamW after. The
 *   returned loss is the unweighted HCL loss (what the official code logs).
 *
 * Data parallelism (an MPI job, common/base/cluster): each rank passes its contiguous part
 * of the step's pairs as b1/b2; the encoder runs on the part, the [MASK] rows of all ranks
 * are gathered so that every rank runs the projection head (BatchNorm over the whole batch)
 * and the loss on the whole batch, and each rank back-propagates its part into the encoder.
 * The caller then sums the encoder's gradients over the ranks (trainer_sum_grads) and leaves
 * the head's, which every rank computed whole.
 *
 * One contrastive PASS (cl_trainer_pass): the pairs of the pass — a fresh draw from the
 * pairs artifact's per-class sets with cl_make_pairs (official: get_cl_dataset is called
 * for each of the two passes of an epoch), or with fixed_pairs the artifact's stored draw —
 * shuffled and cut into batches of batch_pairs with drop_last; every batch is one step with
 * AdamW at cl_lr. All randomness comes from the trainer's rng, which trainer_save_epoch
 * saves and --resume restores. A non-finite loss exits 3 (the last complete epoch stays).
 *
 * The projection head (trainer_add_params'd, so it is optimised, checkpointed and resumed by
 * the trainer) is loaded from --model DIR when the directory has projection_head.*, else
 * initialised like nn.Linear from the seed. Its I64 num_batches_tracked goes into each
 * checkpoint through cl_trainer_extra(); cl_trainer_restore() reloads it after a resume. */
#ifndef PROBEXPAN_CL_TRAIN_H
#define PROBEXPAN_CL_TRAIN_H

#define CL_SETTINGS_FILE "cl_settings.json"

#include <stdint.h>

#include "nn/bert.h"
#include "nn/hcl_loss.h"
#include "artifacts/pairs.h"
#include "nn/projection_head.h"
#include "model/trainer.h"

/* Buffers of one contrastive step for up to `cap` pairs. */
typedef struct {
    int cap, H, P2;
    bert_acts *a1, *a2;
    proj_acts v1, v2;
    float *hid1, *hid2, *dhid1, *dhid2;   /* [cap, H] */
    float *dz1, *dz2;                     /* [cap, P2] */
} cl_step_bufs;

void cl_step_bufs_init(cl_step_bufs *c, const projection_head *ph, int H, int cap);
void cl_step_bufs_free(cl_step_bufs *c);
/* Forward, loss and backward of one step (see above); b1->B == b2->B == B, 2 <= B <= cap.
 * prefix1/prefix2: cached prefix rows of each view or NULL (see bert_forward_train).
 * Gradients accumulate into m and ph. Returns the unweighted loss. */
double cl_step(cl_step_bufs *c, bert_model *m, projection_head *ph, const bert_batch *b1,
               const float *prefix1, const bert_batch *b2, const float *prefix2,
               const hcl_params *hp, double weight);

typedef struct {
    hcl_params hp;       /* τ⁺, β, t */
    double weight;       /* gradient weight of the loss (official 7) */
    double cl_lr;        /* AdamW lr of the contrastive steps */
    int batch_pairs;     /* 256, drop_last */
    int fixed_pairs;     /* 1: every pass uses the artifact's stored draw */
} cl_train_opts;

typedef struct {
    trainer *t;
    const pairs_set *pairs;
    const char *pairs_path;
    cl_train_opts o;
    projection_head ph;
    cl_step_bufs bufs;
    bert_batch b[2];               /* the two views of a step */
    float *prefix[2];              /* their cached prefix rows (F >= 1) */
    size_t prefix_cap[2];
    int64_t *ids1, *ids2;          /* [batch_pairs] sample indices of a step */
    safetensors_entry extra;                /* num_batches_tracked for trainer_save_epoch */
} cl_trainer;

/* After trainer_open, before trainer_start: creates/loads the projection head and
 * registers it with the trainer. pairs was read from pairs_path (kept, borrowed). Exit 3 when
 * the pairs do not fill one batch. */
void cl_trainer_init(cl_trainer *c, trainer *t, const pairs_set *pairs, const char *pairs_path,
                     const cl_train_opts *o);
/* After trainer_start. Fresh run: writes OUT/cl_settings.json (sha256 of the pairs file, τ⁺,
 * β, t, weight, batch_pairs, fixed_pairs, cl_lr). Resumed run: exit 3 unless those equal the
 * recorded ones (cl_lr only warns, like the trainer's lr); then reloads the projection head with num_batches_tracked from the resumed
 * checkpoint. */
void cl_trainer_restore(cl_trainer *c);
/* One contrastive pass (pass = 1 or 2 within the epoch). Returns the mean unweighted loss
 * over its steps. Restores the trainer's lr afterwards. */
double cl_trainer_pass(cl_trainer *c, int epoch, int pass);
/* The extra checkpoint entries (num_batches_tracked) for trainer_save_epoch. */
const safetensors_entry *cl_trainer_extra(cl_trainer *c, int *n);
void cl_trainer_free(cl_trainer *c);

#endif
