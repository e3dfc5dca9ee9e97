/* entity_rows: the entity distributions r(e) a stage reads (expand, rerank, score-models),
 * from either of two sources that give the same rows:
 *  - a dense `dists` artifact (--dists FILE): E x E floats, mapped — what an encoder's infer
 *    writes, and the pattern model's pattern-dists;
 *  - a corpus index and a `patmodel` artifact (--index FILE --model FILE): the pattern
 *    model's rows computed on demand from the index's feature counts (model/pattern_rows.h),
 *    a background plus the entities sharing a feature with e; memory O(index + rows in use),
 *    no E x E matrix anywhere.
 * The rows of a pattern model are the same floats either way (pattern_model_rows expands
 * the sparse rows; an ensemble's mean is taken in double in member order as score-models
 * does), so rankings agree; sums over a row may differ in the last bits (sparse_row.h).
 *
 * Opening a patmodel derives its members' models from the index (O(feature-entity pairs)
 * each) and checks that it was made over that index (exit 3 otherwise). */
#ifndef PROBEXPAN_ENTITY_ROWS_H
#define PROBEXPAN_ENTITY_ROWS_H

#include <stdint.h>

#include "artifacts/dists.h"
#include "artifacts/index.h"
#include "artifacts/patmodel.h"
#include "model/pattern_rows.h"

typedef struct {
    const char *dists, *index, *model;
} entity_rows_paths;

/* The --dists / --index / --model options of a stage's cli_option table (needs base/cli.h). */
#define ENTITY_ROWS_CLI_OPTIONS(p)                                                                              \
    {"dists", OPT_INPUT, &(p).dists, "FILE", "entity distributions: a dense dists artifact (E x E floats)", 0, 0}, \
    {"index", OPT_INPUT, &(p).index, "FILE", "or a corpus index (index) with --model: rows computed on demand", 0, 0}, \
    {"model", OPT_INPUT, &(p).model, "FILE", "with --index: a patmodel artifact (pattern-model, score-models --ensemble)", 0, 0}

typedef struct {
    const char *path;          /* the dists or patmodel file */
    const entity_table *ent;   /* row i <-> eid, name */
    const intmap *row_of_eid;
    int64_t n;                 /* entities */
    row_source src;            /* the rows (the struct must not move once open) */
    /* private */
    int dense;
    dists d;
    const corpus_index *idx;
    corpus_index *own_idx;
    patmodel spec;
    pattern_model *m[PATMODEL_MAX_MEMBERS];
    pattern_refinement *ref[PATMODEL_MAX_MEMBERS];
    pattern_rows rows;
} entity_rows;

/* Opens what p names: --dists alone, or --index with --model (exit 2 otherwise; `stage`
 * names the program in the message). */
void entity_rows_open(entity_rows *r, const entity_rows_paths *p, const char *stage);
void entity_rows_open_dists(entity_rows *r, const char *dists_path);
/* The patmodel at model_path over index x (kept by pointer). */
void entity_rows_open_model(entity_rows *r, const corpus_index *x, const char *model_path);
/* 1 when the rows are computed from an index. */
int entity_rows_computed(const entity_rows *r);
/* The patmodel read (entity_rows_computed only). */
const patmodel *entity_rows_model(const entity_rows *r);
/* Records the files the rows come from as inputs of w. */
void entity_rows_add_inputs(const entity_rows *r, artifact_writer *w);
/* Drops the computed rows kept so far (call between queries: memory back to O(index)). */
void entity_rows_forget(entity_rows *r);
void entity_rows_close(entity_rows *r);

#endif
