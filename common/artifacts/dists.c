/* dists: streaming writer and mmap reader of the `dists` artifact. */
#include "artifacts/dists.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/entities.h"
#include "base/error.h"

/* What is wrong with a mean_prob row of n values, written into msg; NULL when nothing is. */
static const char *row_defect(const float *x, int64_t n, char *msg, size_t cap) {
    double sum = 0;
    for (int64_t j = 0; j < n; j++) {
        if (!isfinite(x[j]) || x[j] < 0) {
            snprintf(msg, cap, "column %lld is %g, expected a finite probability >= 0", (long long)j, (double)x[j]);
            return msg;
        }
        sum += x[j];
    }
    if (fabs(sum - 1) > DISTS_SUM_TOLERANCE) {
        snprintf(msg, cap, "sums to %g, expected 1 (within %g)", sum, DISTS_SUM_TOLERANCE);
        return msg;
    }
    return NULL;
}

struct dists_writer {
    artifact_writer *a;
    entity_table ent;   /* private copy, packed before the first row */
    int64_t *rows;      /* dists-rows: the entity row of each matrix row; NULL: every row */
    int64_t nrows;      /* matrix rows */
    int64_t rows_done;  /* -1 until the table and matrix descriptor are written */
};

static dists_writer *writer_create(const char *path, const char *kind, int schema, const entity_table *t, int64_t nrows) {
    dists_writer *w = xcalloc(1, sizeof *w);
    w->a = artifact_create(path, kind, schema);
    /* the one matrix is written once, straight into the output */
    artifact_require_space(w->a, artifact_matrix_size(nrows, t->n));
    w->nrows = nrows;
    entity_table_copy(&w->ent, t);
    w->rows_done = -1;
    return w;
}

dists_writer *dists_create(const char *path, const entity_table *t) {
    return writer_create(path, DISTS_KIND, DISTS_SCHEMA, t, t->n);
}

dists_writer *dists_create_rows(const char *path, const entity_table *t, const int64_t *rows, int64_t nrows) {
    for (int64_t i = 0; i < nrows; i++)
        if (rows[i] < 0 || rows[i] >= t->n || (i && rows[i] <= rows[i - 1]))
            die("internal: dists-rows: row %lld of %lld entities out of order", (long long)rows[i], (long long)t->n);
    dists_writer *w = writer_create(path, DISTS_ROWS_KIND, DISTS_ROWS_SCHEMA, t, nrows);
    w->rows = xmalloc(sizeof(int64_t) * (size_t)(nrows + 1));
    memcpy(w->rows, rows, sizeof(int64_t) * (size_t)nrows);
    return w;
}

artifact_writer *dists_artifact(dists_writer *w) { return w->a; }

static void start_rows(dists_writer *w) {
    msgpack_packer *pk = artifact_payload(w->a);
    entities_pack(pk, &w->ent, NULL, w->rows != NULL);
    if (w->rows) mp_kv_i64_array(pk, "rows", w->rows, w->nrows);
    artifact_matrix_begin(w->a, "mean_prob", w->nrows, w->ent.n);
    w->rows_done = 0;
}

void dists_write_row(dists_writer *w, const float *mean_prob) {
    if (w->rows_done < 0) start_rows(w);
    if (w->rows_done >= w->nrows) die("internal: dists: more than %lld rows", (long long)w->nrows);
    int64_t e = w->rows ? w->rows[w->rows_done] : w->rows_done;
    char msg[160];
    if (row_defect(mean_prob, w->ent.n, msg, sizeof msg))
        die("refusing to write %s: mean_prob row %lld (entity \"%s\") %s — the model's output is not a distribution",
            artifact_writer_path(w->a), (long long)e, w->ent.name[e], msg);
    artifact_matrix_row(w->a, mean_prob);
    w->rows_done++;
}

artifact_writer *dists_finish(dists_writer *w) {
    if (w->rows_done < 0) start_rows(w);
    if (w->rows_done != w->nrows)
        die("internal: dists: %lld of %lld rows written", (long long)w->rows_done, (long long)w->nrows);
    artifact_writer *a = w->a;
    entity_table_free(&w->ent);
    free(w->rows);
    free(w);
    return a;
}

void dists_commit(dists_writer *w) { artifact_commit(dists_finish(w)); }

/* ---------------- reading ---------------- */

static void check_shape(artifact_reader *r, const row_matrix *m, const char *name, int64_t rows, int64_t cols) {
    if (m->rows != rows || m->cols != cols)
        artifact_bad(r, "%s must be %lld x %lld (the entity table), found %lld x %lld", name, (long long)rows,
                     (long long)cols, (long long)m->rows, (long long)m->cols);
}

static void check_prob_row(const row_matrix *m, int64_t i) {
    char msg[160], where[48];
    if (row_defect(m->data + (size_t)i * m->stride, m->cols, msg, sizeof msg)) {
        snprintf(where, sizeof where, "byte %llu", (unsigned long long)row_matrix_offset(m, i));
        die_input(m->path, where, "mean_prob row %lld: %s", (long long)i, msg);
    }
    row_matrix_mark_checked(m, i);
}

/* Opens path as an artifact of `kind` and reads its entity table (the object, for more fields,
 * into t). */
static artifact_reader *open_table(const char *path, const char *kind, int schema, const char *what, msgpack_object *t,
                                   entity_table *ent, intmap *row_of) {
    artifact_reader *r = artifact_open(path, kind, schema);
    artifact_expect(r, t, what);
    entities_unpack(r, t, 1, ent, row_of);
    return r;
}

void dists_open(dists *d, const char *path) {
    memset(d, 0, sizeof *d);
    msgpack_object t;
    d->r = open_table(path, DISTS_KIND, DISTS_SCHEMA, "the entity table {entities, eid, name}", &t, &d->ent, &d->row_of_eid);
    d->path = artifact_path(d->r);
    artifact_read_matrix(d->r, "mean_prob", &d->prob);
    check_shape(d->r, &d->prob, "mean_prob", d->ent.n, d->ent.n);
    if (artifact_hdr(d->r)->schema == 1) { /* the former second matrix: checked, not used */
        row_matrix log_prob;
        artifact_read_matrix(d->r, "mean_log_prob", &log_prob);
        check_shape(d->r, &log_prob, "mean_log_prob", d->ent.n, d->ent.n);
    }
    artifact_expect_end(d->r);
    d->prob.check = check_prob_row;
    d->prob.checked = xcalloc((size_t)d->ent.n, 1);
}

void dists_rows_open(dists_rows *d, const char *path) {
    memset(d, 0, sizeof *d);
    msgpack_object t;
    d->r = open_table(path, DISTS_ROWS_KIND, DISTS_ROWS_SCHEMA, "the entity table {entities, eid, name, rows}", &t, &d->ent,
                      &d->row_of_eid);
    d->path = artifact_path(d->r);
    d->rows = mp_get_i64_array(d->r, &t, "rows", -1, &d->nrows);
    for (int64_t i = 0; i < d->nrows; i++)
        if (d->rows[i] < 0 || d->rows[i] >= d->ent.n || (i && d->rows[i] <= d->rows[i - 1]))
            artifact_bad(d->r, "rows: item %lld is %lld, expected ascending distinct entity rows in 0..%lld", (long long)i,
                         (long long)d->rows[i], (long long)d->ent.n - 1);
    artifact_read_matrix(d->r, "mean_prob", &d->prob);
    check_shape(d->r, &d->prob, "mean_prob", d->nrows, d->ent.n);
    artifact_expect_end(d->r);
    d->prob.check = check_prob_row;
    d->prob.checked = xcalloc((size_t)d->nrows + 1, 1);
}

void dists_rows_close(dists_rows *d) {
    free(d->prob.checked);
    free(d->rows);
    entity_table_free(&d->ent);
    intmap_free(&d->row_of_eid);
    artifact_close(d->r);
    memset(d, 0, sizeof *d);
}

void dists_close(dists *d) {
    free(d->prob.checked);
    entity_table_free(&d->ent);
    intmap_free(&d->row_of_eid);
    artifact_close(d->r);
    memset(d, 0, sizeof *d);
}

int64_t dists_row_of(const dists *d, int64_t eid) { return intmap_get(&d->row_of_eid, eid); }

void dists_check_same_table(const char *path_a, const entity_table *a, const char *path_b, const entity_table *b) {
    if (a->n != b->n)
        die_input(path_b, "entity table", "%lld entities, but %s has %lld: the artifacts come from different samples",
                  (long long)b->n, path_a, (long long)a->n);
    for (int64_t i = 0; i < a->n; i++)
        if (a->eid[i] != b->eid[i] || strcmp(a->name[i], b->name[i]) != 0) {
            char where[48];
            snprintf(where, sizeof where, "entity table row %lld", (long long)i);
            die_input(path_b, where, "eid %lld \"%s\", but %s has eid %lld \"%s\" there", (long long)b->eid[i],
                      b->name[i], path_a, (long long)a->eid[i], a->name[i]);
        }
}

void dists_check_same_entities(const dists *a, const dists *b) { dists_check_same_table(a->path, &a->ent, b->path, &b->ent); }

int dists_is_rows(const char *path) {
    artifact_reader *r = artifact_open(path, NULL, INT_MAX);
    int rows = strcmp(artifact_hdr(r)->kind, DISTS_ROWS_KIND) == 0;
    artifact_close(r);
    return rows;
}
