/* dists: streaming writer and mmap reader of the `dists` artifact. */
#include "artifacts/dists.h"

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
    int64_t rows_done;  /* -1 until the table and matrix descriptor are written */
};

dists_writer *dists_create(const char *path, const entity_table *t) {
    dists_writer *w = xcalloc(1, sizeof *w);
    w->a = artifact_create(path, DISTS_KIND, DISTS_SCHEMA);
    /* the one matrix is written once, straight into the output */
    artifact_require_space(w->a, artifact_matrix_size(t->n, t->n));
    w->ent.n = t->n;
    w->ent.eid = xmalloc(sizeof(int64_t) * (size_t)(t->n + 1));
    w->ent.name = xmalloc(sizeof(char *) * (size_t)(t->n + 1));
    for (int64_t i = 0; i < t->n; i++) {
        w->ent.eid[i] = t->eid[i];
        w->ent.name[i] = xstrdup(t->name[i]);
    }
    w->rows_done = -1;
    return w;
}

artifact_writer *dists_artifact(dists_writer *w) { return w->a; }

static void start_rows(dists_writer *w) {
    entities_pack(artifact_payload(w->a), &w->ent, NULL, 0);
    artifact_matrix_begin(w->a, "mean_prob", w->ent.n, w->ent.n);
    w->rows_done = 0;
}

void dists_write_row(dists_writer *w, const float *mean_prob) {
    if (w->rows_done < 0) start_rows(w);
    if (w->rows_done >= w->ent.n) die("internal: dists: more than %lld rows", (long long)w->ent.n);
    char msg[160];
    if (row_defect(mean_prob, w->ent.n, msg, sizeof msg))
        die("refusing to write %s: mean_prob row %lld (entity \"%s\") %s — the model's output is not a distribution",
            artifact_writer_path(w->a), (long long)w->rows_done, w->ent.name[w->rows_done], msg);
    artifact_matrix_row(w->a, mean_prob);
    w->rows_done++;
}

artifact_writer *dists_finish(dists_writer *w) {
    if (w->rows_done < 0) start_rows(w);
    if (w->rows_done != w->ent.n)
        die("internal: dists: %lld of %lld rows written", (long long)w->rows_done, (long long)w->ent.n);
    artifact_writer *a = w->a;
    entity_table_free(&w->ent);
    free(w);
    return a;
}

void dists_commit(dists_writer *w) { artifact_commit(dists_finish(w)); }

/* ---------------- reading ---------------- */

static void check_shape(const dists *d, const row_matrix *m, const char *name) {
    if (m->rows != d->ent.n || m->cols != d->ent.n)
        artifact_bad(d->r, "%s must be %lld x %lld (the entity table), found %lld x %lld", name,
                     (long long)d->ent.n, (long long)d->ent.n, (long long)m->rows, (long long)m->cols);
}

static void check_prob_row(const row_matrix *m, int64_t i) {
    char msg[160], where[48];
    if (row_defect(m->data + (size_t)i * m->stride, m->cols, msg, sizeof msg)) {
        snprintf(where, sizeof where, "byte %llu", (unsigned long long)row_matrix_offset(m, i));
        die_input(m->path, where, "mean_prob row %lld: %s", (long long)i, msg);
    }
    row_matrix_mark_checked(m, i);
}

void dists_open(dists *d, const char *path) {
    memset(d, 0, sizeof *d);
    d->r = artifact_open(path, DISTS_KIND, DISTS_SCHEMA);
    d->path = artifact_path(d->r);
    msgpack_object t;
    artifact_expect(d->r, &t, "the entity table {entities, eid, name}");
    entities_unpack(d->r, &t, 1, &d->ent, &d->row_of_eid);
    artifact_read_matrix(d->r, "mean_prob", &d->prob);
    check_shape(d, &d->prob, "mean_prob");
    if (artifact_hdr(d->r)->schema == 1) { /* the former second matrix: checked, not used */
        row_matrix log_prob;
        artifact_read_matrix(d->r, "mean_log_prob", &log_prob);
        check_shape(d, &log_prob, "mean_log_prob");
    }
    artifact_expect_end(d->r);
    d->prob.check = check_prob_row;
    d->prob.checked = xcalloc((size_t)d->ent.n, 1);
}

void dists_close(dists *d) {
    free(d->prob.checked);
    entity_table_free(&d->ent);
    intmap_free(&d->row_of_eid);
    artifact_close(d->r);
    memset(d, 0, sizeof *d);
}

int64_t dists_row_of(const dists *d, int64_t eid) { return intmap_get(&d->row_of_eid, eid); }

void dists_check_same_entities(const dists *a, const dists *b) {
    if (a->ent.n != b->ent.n)
        die_input(b->path, "entity table", "%lld entities, but %s has %lld: the artifacts come from different samples",
                  (long long)b->ent.n, a->path, (long long)a->ent.n);
    for (int64_t i = 0; i < a->ent.n; i++)
        if (a->ent.eid[i] != b->ent.eid[i] || strcmp(a->ent.name[i], b->ent.name[i]) != 0) {
            char where[48];
            snprintf(where, sizeof where, "entity table row %lld", (long long)i);
            die_input(b->path, where, "eid %lld \"%s\", but %s has eid %lld \"%s\" there", (long long)b->ent.eid[i],
                      b->ent.name[i], a->path, (long long)a->ent.eid[i], a->ent.name[i]);
        }
}
