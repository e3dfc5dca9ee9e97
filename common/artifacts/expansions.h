/* expansions: the per-query entity lists that expand writes (`expansions`,
 * schemas/expansions.md) and rerank writes (`ranked`, schemas/ranked.md).
 *
 * Payload: {queries: N, entities: V_e} then N query records
 *   {class, query, seeds: [eid], seed_names: [str], negatives: [eid],
 *    entities: [eid], names: [str], scores: [float64]}
 * and for `ranked` also order: [int] (1-based expansion order of each entity),
 * kl_rank: [int], kl_score: [float64]; `scores` are then the aggregate scores.
 * Entities are identified by eid (not dists row) so evaluate needs no dists. */
#ifndef PROBEXPAN_EXPANSIONS_H
#define PROBEXPAN_EXPANSIONS_H

#include <stdint.h>
#include <stdio.h>

#include "format/artifact.h"

#define EXPANSIONS_KIND "expansions"
#define RANKED_KIND "ranked"
#define EXPANSIONS_SCHEMA 1

typedef struct {
    char *class_name;
    int query;                 /* index within the class, 0-based */
    int nseeds, nneg, n;
    int64_t *seeds, *negatives, *eids;
    char **seed_names, **names;
    double *scores;
    int *order, *kl_rank;      /* ranked only (NULL otherwise) */
    double *kl_score;
} expansion_record;

typedef struct {
    char *kind;
    char *queries;             /* header param "queries": the dataset or query file; NULL if none */
    int64_t entities;
    int n;
    expansion_record *r;
} expansion_set;

/* Writes the summary object; then call expansion_record_pack N times. */
void expansions_pack_begin(msgpack_packer *pk, int nqueries, int64_t entities);
void expansion_record_pack(msgpack_packer *pk, const expansion_record *r);
/* Reads an `expansions` or `ranked` artifact (exit 3 on any defect). */
void expansion_set_read(expansion_set *s, const char *path);
void expansion_set_free(expansion_set *s);
void expansion_record_free(expansion_record *r);
/* "class #q: seeds -> names..." lines for a person (--names). */
void expansion_record_print(FILE *f, const expansion_record *r);

#endif
