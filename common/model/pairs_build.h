/* pairs_build: the contrastive sets and the stored draw of a `pairs` artifact
 * (artifacts/pairs.h), from the previous phase's ranking, the dataset's queries and the
 * samples artifact — `build-pairs`.
 *
 * For every query of the dataset (query/<class>.txt, classes sorted by name, queries in file
 * order) the `ranked` artifact must hold the list of the same class and query index with the
 * same seeds (exit 3 otherwise: the ranking came from other queries); seeds and ranked
 * entities are mapped from eid to samples-artifact entity rows (an eid without samples exits
 * 3: ranking and samples come from different entity tables). Per class, cl_sets_add_query
 * over its queries gives E_pos = seeds ∪ {rank < thr_pos} and E_neg = {L_neg < rank < U_neg}
 * \ E_pos (1-based ranks among non-seeds, contrastive_pairs.h). Then one cl_make_pairs draw
 * (seeded) turns the sets into sample pairs. */
#ifndef PROBEXPAN_PAIRS_BUILD_H
#define PROBEXPAN_PAIRS_BUILD_H

#include <stdint.h>
#include <stdio.h>

#include "artifacts/pairs.h"
#include "model/contrastive_pairs.h"

typedef struct {
    const char *ranked, *queries, *samples;         /* paths */
    artifact_writer *out;         /* from pairs_create, its params recorded by the caller */
    cl_bounds bounds;
    cl_pair_opts opts;
    uint64_t seed;
    int show;                     /* names printed per set in the report (first `show`) */
} pairs_build_opts;

/* Builds the sets and the draw from the three inputs, writes them to o->out and commits it and prints per class |E_pos|, |E_neg| and the first o->show names of each on
 * `report` (NULL: nothing). Returns the number of pairs drawn. Bad input exits 3. */
int64_t pairs_build(const pairs_build_opts *o, FILE *report);

#endif
