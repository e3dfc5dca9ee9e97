/* train-mlm: train one entity-prediction model (ProbExpan phase 1, docs/design.md §3).
 *
 * Reads a samples artifact and an encoder (--model HF dir, or --config for a random init),
 * adds the entity head, and trains masked-entity prediction with label smoothing: every
 * epoch draws --samples-per-entity samples per entity, shuffles them and takes AdamW steps
 * on batches of --batch. The bottom --frozen-layers are frozen and their output comes from
 * a shared float16 cache. After every epoch OUT/epoch-N/ is written (HF layout + head +
 * optimizer and rng state) and OUT/final points to it; --resume continues from the last
 * complete epoch with the same result as an uninterrupted run.
 *
 * Under mpirun (`mpirun -np R train-mlm …`) the ranks are data-parallel replicas: each takes
 * a contiguous share of every global batch, the gradients are summed over the ranks before
 * the AdamW step, and rank 0 writes the checkpoints and the catalog record; the frozen-prefix
 * cache is built by all ranks (common/artifacts/prefix_cache). Same global batch, same
 * result within float rounding; checkpoints resume under any rank count. */
#include <stdio.h>

#include "base/blas_core.h"
#include "catalog/catalog.h"
#include "base/cli.h"
#include "base/cluster.h"
#include "base/error.h"
#include "base/log.h"
#include "model/trainer.h"

int main(int argc, char **argv) {
    trainer_opts o;
    trainer_opts_init(&o);
    const cli_option opts[] = {TRAINER_OPTIONS(o), {0}};
    const cli_spec spec = {
        "train-mlm", "train an entity-prediction model (masked entity prediction, label smoothing)",
        "[options] --samples FILE (--model DIR | --config FILE) --out DIR",
        "train-mlm --samples run/samples.mp --config small.json --random-seed 3 --out run/phase1/model-3",
        "build-samples, infer, train-cl", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!o.out) die_usage("--out is required");
    cluster_init(&argc, &argv);
    if (cluster_rank() == 0) catalog_begin(o.out); /* one catalog record for the whole job */
    if (cluster_rank() == 0) log_info("BLAS: OpenBLAS core %s", blas_core_summary());
    trainer t;
    trainer_open(&t, &o);
    trainer_start(&t);
    double t0 = now_seconds();
    for (int e = t.first_epoch; e <= t.o.epochs; e++) {
        trainer_mep_epoch(&t, e);
        trainer_save_epoch(&t, e, NULL, 0);
    }
    catalog_metric("train_seconds", now_seconds() - t0);
    int ran = t.o.epochs - t.first_epoch + 1;
    if (ran > 0)
        log_done("%d epoch(s) trained (%d..%d), loss %.4f -> %.4f, accuracy %.3f, model %s/final", ran, t.first_epoch,
                 t.o.epochs, t.loss[t.first_epoch], t.loss[t.o.epochs], t.accuracy[t.o.epochs], t.o.out);
    else
        log_done("nothing to do: %s already has %d complete epochs", t.o.out, t.first_epoch - 1);
    trainer_close(&t);
    return 0;
}
