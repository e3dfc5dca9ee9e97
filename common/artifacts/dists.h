/* dists: the `dists` artifact (schemas/dists.md) — per entity row i, the mean
 * predicted distribution over the V_e entities (`mean_prob`), plus the entity table
 * (row i <-> eid, name). A reader that wants log-probabilities takes the log of
 * these rows (common/method/candidates.h does for the logz order).
 *
 * Payload: {entities: V_e, eid: [..], name: [..]}, then the row matrix `mean_prob`
 * (V_e x V_e float32, common/artifact.h layout). Schema 1 files, which also hold a
 * `mean_log_prob` matrix after it, are still read: that matrix is checked and
 * ignored.
 *
 * Writing streams: rows are given in row order, one entity at a time; memory stays
 * O(V_e) and the file is written once (no scratch copy), so dists_create() checks up
 * front that the output's file system has the matrix's size free. Reading maps the
 * matrix; nothing is copied.
 *
 * Values: a mean_prob row holds finite probabilities >= 0 summing to 1 within
 * DISTS_SUM_TOLERANCE. The writer refuses any other row (exit 1, naming row and
 * entity); the reader checks each row the first time row_matrix_row() touches it
 * (exit 3 naming the file, byte offset, row and column), so a lazily mapped matrix
 * is never scanned as a whole.
 *
 * `dists-rows` (schemas/dists-rows.md) is the same with the rows of some entities only (e.g.
 * a dataset's query seeds, all that model selection reads): the entity table gains `rows`,
 * the entity row of each matrix row. */
#ifndef PROBEXPAN_DISTS_H
#define PROBEXPAN_DISTS_H

#include <stdint.h>

#include "format/artifact.h"
#include "dataset/dataset.h"
#include "base/hashmap.h"

#define DISTS_KIND "dists"
#define DISTS_SCHEMA 2
#define DISTS_SUM_TOLERANCE 0.01
#define DISTS_ROWS_KIND "dists-rows"
#define DISTS_ROWS_SCHEMA 1

/* ---------------- writing ---------------- */

typedef struct dists_writer dists_writer;

/* Starts a dists artifact for the entities of `t` (copied). Params and inputs may
 * be added through dists_artifact() until the first row. */
dists_writer *dists_create(const char *path, const entity_table *t);
artifact_writer *dists_artifact(dists_writer *w);
/* Row i (called for i = 0 .. V_e-1 in order): V_e floats. */
void dists_write_row(dists_writer *w, const float *mean_prob);
/* A `dists-rows` artifact (schemas/dists-rows.md): the rows of the nrows entity rows `rows`
 * only (ascending, distinct, each in 0..t->n-1: checked, exit 1 otherwise), each a full row of
 * V_e columns; dists_write_row then takes those rows in that order. */
dists_writer *dists_create_rows(const char *path, const entity_table *t, const int64_t *rows, int64_t nrows);
/* Commits (dies unless all rows were written). */
void dists_commit(dists_writer *w);
/* The same without the commit: returns the complete artifact for artifact_commit_all
 * (outputs committed together); frees w. */
artifact_writer *dists_finish(dists_writer *w);

/* ---------------- reading ---------------- */

typedef struct {
    artifact_reader *r;
    const char *path;
    entity_table ent;          /* row i <-> ent.eid[i], ent.name[i] */
    row_matrix prob;           /* mmap'd, V_e x V_e */
    intmap row_of_eid;         /* eid -> row */
} dists;

/* Opens and validates (kind, schema 1 or 2, table/matrix shapes, duplicate eids):
 * exit 3 naming the file and byte offset on any defect. */
void dists_open(dists *d, const char *path);
void dists_close(dists *d);
static inline int64_t dists_n(const dists *d) { return d->ent.n; }
/* Row of an eid, or -1 when the dists have no row for it. */
int64_t dists_row_of(const dists *d, int64_t eid);
/* Dies with exit 3 unless both artifacts have the same entity table (same eids
 * and names in the same row order), naming the first differing row. */
void dists_check_same_entities(const dists *a, const dists *b);
/* The same for the tables of any two artifacts (paths for the message). */
void dists_check_same_table(const char *path_a, const entity_table *a, const char *path_b, const entity_table *b);

/* A dists-rows artifact: the same entity table, the rows of some entities only. */
typedef struct {
    artifact_reader *r;
    const char *path;
    entity_table ent;          /* all V_e entities: the columns */
    intmap row_of_eid;         /* eid -> entity row */
    int64_t nrows, *rows;      /* the entity rows held, ascending */
    row_matrix prob;           /* mmap'd, nrows x V_e: prob row i is entity row rows[i] */
} dists_rows;

/* Opens and validates like dists_open (kind dists-rows), and that `rows` are distinct entity
 * rows in ascending order, one per matrix row: exit 3 naming the file and byte offset. */
void dists_rows_open(dists_rows *d, const char *path);
void dists_rows_close(dists_rows *d);
/* 1 when the artifact at path is a dists-rows, 0 for any other kind (reads the header only;
 * exit 3 when the file is no artifact). */
int dists_is_rows(const char *path);

#endif
