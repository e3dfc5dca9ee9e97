/* patmodel: the `patmodel` artifact (schemas/patmodel.md) — a pattern model over a corpus
 * index (common/artifacts/index.h) without its rows: for each member model its feature
 * subset (fraction and seed) and, when refined on contrastive pairs, one weight per feature.
 * With more than one member it stands for the ensemble, the element-wise mean of the
 * members' rows. Rows are computed from the index on demand (common/model/entity_rows.h),
 * so the file stays O(members x features) bytes, never E x E.
 *
 * Written by `pattern-model` (one member) and `score-models --index --ensemble` (the kept
 * members); read whole by patmodel_read, which checks every field (exit 3 naming the file
 * and byte), and tied to its index by patmodel_check_index. */
#ifndef PROBEXPAN_PATMODEL_H
#define PROBEXPAN_PATMODEL_H

#include <stdint.h>

#include "artifacts/index.h"
#include "format/artifact.h"

#define PATMODEL_KIND "patmodel"
#define PATMODEL_SCHEMA 1
#define PATMODEL_MAX_MEMBERS 16

typedef struct {
    double feature_fraction; /* (0, 1]: 1 = every feature of the index */
    uint64_t seed;           /* of the subset (recorded, unused at fraction 1) */
    int64_t nweights;        /* 0: unrefined; else the member's feature count */
    float *weights;          /* [nweights] exp(u_f), finite and > 0 */
} patmodel_member;

typedef struct {
    char *path;
    char samples_sha256[65]; /* the index's samples artifact */
    int64_t entities, features; /* the index's */
    int n;                   /* members, 1..PATMODEL_MAX_MEMBERS */
    patmodel_member m[PATMODEL_MAX_MEMBERS];
} patmodel;

/* A writer of a patmodel artifact at path (the caller adds params and inputs, then patmodel_pack). */
artifact_writer *patmodel_create(const char *path);
/* Packs the payload of a patmodel with members m[0..n-1] over index x into w (from
 * patmodel_create, its params and inputs added); the caller commits. */
void patmodel_pack(artifact_writer *w, const corpus_index *x, const patmodel_member *m, int n);
void patmodel_read(patmodel *p, const char *path);
/* Exit 3 unless p was made over index x: the same samples sha256, entity and feature counts. */
void patmodel_check_index(const patmodel *p, const corpus_index *x);
void patmodel_free(patmodel *p);

#endif
