/* train-cl: train one entity-representation model with contrastive learning (docs/design.md §3
 * "Contrastive learning", paper §3.3). Starts from the base encoder like train-mlm (--model
 * DIR or --config FILE), adds the projection head, and per epoch runs two contrastive
 * passes over pairs drawn from the `pairs` artifact (batches of 256 pairs, the two views as
 * two forward calls, hard-negative loss with t, τ⁺, β, gradient weight 7, cl_lr), then one
 * masked-entity prediction pass (train-mlm's epoch, lr). Checkpoints (OUT/epoch-N, HF layout
 * with the entity and projection heads), --resume, progress, the frozen-prefix cache and the
 * catalog metrics are train-mlm's (common/model/trainer.h); the contrastive passes are
 * common/model/cl_train.h. The checkpoints feed `infer` unchanged.
 *
 * Under mpirun the ranks are data-parallel replicas (each encodes its share of every batch;
 * the projection head and the loss see the whole batch; rank 0 writes), as in train-mlm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blas_core.h"
#include "catalog/catalog.h"
#include "model/cl_train.h"
#include "base/cli.h"
#include "base/cluster.h"
#include "model/contrastive_pairs.h"
#include "base/error.h"
#include "base/log.h"
#include "artifacts/pairs.h"
#include "model/trainer.h"

int main(int argc, char **argv) {
    trainer_opts o;
    trainer_opts_init(&o);
    const char *pairs_path = NULL, *preset_name = "wiki";
    double tau_plus = -1, beta = -1, temperature = 0.5, weight = 7, cl_lr = 0;
    int batch_pairs = 256, fixed_pairs = 0;
    const cli_option opts[] = {
        TRAINER_OPTIONS(o),
        {"pairs", OPT_INPUT, &pairs_path, "FILE", "pairs artifact (build-pairs) built from --samples", 0, 0},
        {"preset", OPT_STRING, &preset_name, "wiki|apr|se2", "paper Table 6 column giving the defaults of tau+, beta and cl-lr", 0, 0},
        {"tau-plus", OPT_DOUBLE, &tau_plus, "X", "class prior tau+ of the HCL loss (-1: preset, wiki 0.05)", -1, 0.999999},
        {"beta", OPT_DOUBLE, &beta, "X", "hardness concentration beta (-1: preset, wiki 1)", -1, 1000},
        {"cl-temperature", OPT_DOUBLE, &temperature, "T", "temperature t of the contrastive (HCL) loss (below 0.01 the scaled similarities, up to 2/t apart, leave the range of exp() in double precision)", 0.01, 1000},
        {"cl-weight", OPT_DOUBLE, &weight, "W", "gradient weight of the contrastive loss (official 7)", 0, 1e6},
        {"cl-lr", OPT_DOUBLE, &cl_lr, "X", "AdamW lr of the contrastive steps (0: the preset's 1.5e-5 with --model, 1.5 x lr with --config)", 0, 10},
        {"batch-pairs", OPT_INT, &batch_pairs, "N", "pairs per contrastive step (the remainder of a pass is dropped)", 2, 1000000},
        {"fixed-pairs", OPT_FLAG, &fixed_pairs, NULL, "use the pairs artifact's stored draw in every pass (default: a fresh draw per pass, official)", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"train-cl", "train an entity model with contrastive learning and masked-entity prediction",
                           "--samples FILE --pairs FILE (--model DIR | --config FILE) --out DIR [options]",
                           "train-cl --samples run/samples.mp --pairs run/pairs.mp --model bert-base-uncased --out run/phase3/model-1 --random-seed 1",
                           "build-pairs, train-mlm, infer", opts, 0};
    cli_parse(&spec, argc, argv);
    cluster_init(&argc, &argv);
    if (batch_pairs < 2 * cluster_size())
        die_usage("--batch-pairs %d: at least 2 pairs per rank (%d ranks)", batch_pairs, cluster_size());
    if (!pairs_path) die_usage("--pairs is required");
    if (!o.out) die_usage("--out is required");
    const cl_preset *preset = cl_preset_find(preset_name);
    if (!preset) die_usage("--preset: expected wiki, apr or se2, found '%s'", preset_name);
    if (cluster_rank() == 0) catalog_begin(o.out); /* one catalog record for the whole job */
    if (cluster_rank() == 0) log_info("BLAS: OpenBLAS core %s", blas_core_summary());

    pairs_set pairs;
    pairs_read(&pairs, pairs_path);
    trainer t;
    trainer_open(&t, &o);
    trainer_add_input(&t, pairs_path);
    pairs_check_samples(&pairs, pairs_path, t.s, t.samples_sha);
    cl_train_opts co = {
        .hp = {tau_plus >= 0 ? tau_plus : preset->tau_plus, beta >= 0 ? beta : preset->beta, temperature},
        .weight = weight,
        .cl_lr = cl_lr > 0 ? cl_lr : (o.model ? preset->cl_lr : 1.5 * t.o.lr),
        .batch_pairs = batch_pairs,
        .fixed_pairs = fixed_pairs,
    };
    log_info("contrastive: tau+ %g, beta %g, t %g, weight %g, cl-lr %g, %d pairs per step, %s pairs per pass",
             co.hp.tau_plus, co.hp.beta, co.hp.temperature, co.weight, co.cl_lr, co.batch_pairs,
             fixed_pairs ? "fixed" : "fresh");
    cl_trainer c;
    cl_trainer_init(&c, &t, &pairs, pairs_path, &co);
    trainer_start(&t);
    cl_trainer_restore(&c);

    double t0 = now_seconds();
    for (int e = t.first_epoch; e <= o.epochs; e++) {
        double l1 = cl_trainer_pass(&c, e, 1);
        double l2 = cl_trainer_pass(&c, e, 2);
        trainer_mep_epoch(&t, e);
        char key[48];
        snprintf(key, sizeof key, "cl_loss_epoch_%d", e);
        catalog_metric(key, (l1 + l2) / 2);
        int nextra;
        const safetensors_entry *extra = cl_trainer_extra(&c, &nextra);
        trainer_save_epoch(&t, e, extra, nextra);
    }
    catalog_metric("train_seconds", now_seconds() - t0);
    int ran = o.epochs - t.first_epoch + 1;
    if (ran > 0)
        log_done("%d epoch(s) trained (%d..%d), MEP loss %.4f -> %.4f, model %s/final", ran, t.first_epoch, o.epochs,
                 t.loss[t.first_epoch], t.loss[o.epochs], o.out);
    else
        log_done("nothing to do: %s already has %d complete epochs", o.out, t.first_epoch - 1);
    cl_trainer_free(&c);
    trainer_close(&t);
    pairs_free(&pairs);
    return 0;
}
