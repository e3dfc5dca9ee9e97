/* entity_dists: infer's samples mode (docs/design.md §3 "Inference") — for every entity row i of
 * a samples artifact, r(i) = mean over its samples of softmax(head(encoder(x))),
 * streamed into a dists artifact (common/dists.h) as entities finish.
 *
 * Samples are read in row order and packed into forward batches of many samples (up to
 * ~4096 tokens, and at most ENTITY_DISTS_BATCH_FLOATS floats of head output), so a batch
 * spans several entities; one double accumulator of V_e values carries the entity in
 * progress. Memory is O(batch·V_e + V_e), whatever V_e (no V_e × V_e matrix in memory).
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

/* Writes the dists artifact at out_path. The head's V must equal samples_entities(s);
 * model_dir is recorded as an input with the samples. Dies with exit 3 on a mismatch. */
entity_dists_stats entity_dists_write(const bert_model *m, const entity_head *h, const samples *s,
                                      const char *model_dir, const char *out_path,
                                      int64_t max_per_entity, uint64_t seed);

#endif
