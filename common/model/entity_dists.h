/* entity_dists: infer's samples mode (docs/design.md §3 "Inference") — for every entity row i of
 * a samples artifact, r(i) = mean over its samples of softmax(head(encoder(x))),
 * streamed into a dists artifact (common/dists.h) as entities finish.
 *
 * With several models the row written is the ensemble's: the element-wise mean of the
 * models' rows, each rounded to float first — the same values score-models --ensemble writes
 * from the models' own dists files, without those files. With a row list only those
 * entities' samples are run and a dists-rows artifact is written (e.g. the query seeds' rows,
 * all that model selection reads); their values equal the full run's up to the float
 * rounding of other batch shapes.
 *
 * Samples are read in row order and packed into forward batches of many samples (up to
 * ~4096 tokens, and at most ENTITY_DISTS_BATCH_FLOATS floats of head output), so a batch
 * spans several entities; one double accumulator of V_e values carries the entity in
 * progress. Memory is O(models·batch·V_e), whatever V_e (no V_e × V_e matrix in memory).
 * Probabilities are exp(log-softmax) renormalised in double per sample, so every row sums
 * to 1 within float rounding (~1e-7).
 *
 * max_per_entity > 0 caps the samples of an entity: a seeded draw without replacement
 * (one rng stream over the rows in order, so the draw depends only on seed).
 *
 * In an MPI job (common/base/cluster) every rank calls entity_dists_write: all ranks form the
 * same batches (from the samples' lengths), each is run by one rank, shared out by work
 * (cluster_assign of bert_sequence_cost), and rank 0 receives the log-softmax rows,
 * accumulates them in batch order and writes the artifact — byte-identical to one process
 * with the same threads per rank. Other ranks write nothing. */
#ifndef PROBEXPAN_ENTITY_DISTS_H
#define PROBEXPAN_ENTITY_DISTS_H

#include <stdint.h>

#include "nn/bert.h"
#include "nn/entity_head.h"
#include "artifacts/samples.h"

#define ENTITY_DISTS_BATCH_TOKENS 4096
#define ENTITY_DISTS_BATCH_FLOATS (8 << 20)

typedef struct {
    int64_t entities, samples;
} entity_dists_stats;

/* One model: its encoder, entity head and folder (recorded as an input; its vocab.txt is
 * checked against the samples'). */
typedef struct {
    const bert_model *enc;
    const entity_head *head;
    const char *dir;
} entity_dists_model;

/* Writes at out_path the dists artifact of the mean of the nmodels >= 1 models (rows = NULL),
 * or the dists-rows artifact of entity rows rows[0..nrows-1] (ascending, distinct). Every
 * head's V must equal samples_entities(s); the model folders and the samples are recorded as
 * inputs. Dies with exit 3 on a mismatch. */
entity_dists_stats entity_dists_write(const entity_dists_model *models, int nmodels, const samples *s,
                                      const int64_t *rows, int64_t nrows, const char *out_path,
                                      int64_t max_per_entity, uint64_t seed);

#endif
