/* entity_rows: a stage's entity distributions from a dists artifact or an index + patmodel. */
#include "model/entity_rows.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

_Static_assert(PATMODEL_MAX_MEMBERS <= PATTERN_ROWS_MAX, "every member of a patmodel must fit pattern_rows");

void entity_rows_open_dists(entity_rows *r, const char *dists_path) {
    memset(r, 0, sizeof *r);
    r->dense = 1;
    dists_open(&r->d, dists_path);
    r->path = r->d.path;
    r->ent = &r->d.ent;
    r->row_of_eid = &r->d.row_of_eid;
    r->n = dists_n(&r->d);
    r->src = row_source_dense(&r->d.prob);
}

void entity_rows_open_model(entity_rows *r, const corpus_index *x, const char *model_path) {
    memset(r, 0, sizeof *r);
    r->idx = x;
    patmodel_read(&r->spec, model_path);
    patmodel_check_index(&r->spec, x);
    r->path = r->spec.path;
    r->ent = &x->ent;
    r->row_of_eid = &x->row_of_eid;
    r->n = x->ent.n;
    for (int i = 0; i < r->spec.n; i++) {
        const patmodel_member *mb = &r->spec.m[i];
        pattern_config c = x->cfg;
        c.feature_fraction = mb->feature_fraction;
        c.seed = mb->seed;
        r->m[i] = pattern_model_from_counts(&c, &x->counts);
        if (!mb->nweights) continue;
        int64_t F = pattern_model_stats(r->m[i]).features;
        if (mb->nweights != F)
            die_input(r->path, "members", "member %d has %lld weights, but its feature subset (fraction %g, seed %llu) "
                      "of %s has %lld features", i + 1, (long long)mb->nweights, mb->feature_fraction,
                      (unsigned long long)mb->seed, x->path, (long long)F);
        r->ref[i] = pattern_refinement_from_weights(r->m[i], mb->weights);
    }
    pattern_rows_init(&r->rows, r->spec.n, (const pattern_model *const *)r->m, (const pattern_refinement *const *)r->ref);
    r->src = r->rows.src;
}

void entity_rows_open(entity_rows *r, const entity_rows_paths *p, const char *stage) {
    if (!p->dists == !(p->index || p->model) || !p->index != !p->model)
        die_usage("%s: give --dists FILE, or --index FILE with --model FILE", stage);
    if (p->dists) {
        entity_rows_open_dists(r, p->dists);
        return;
    }
    corpus_index *x = xmalloc(sizeof *x);
    index_read(x, p->index);
    entity_rows_open_model(r, x, p->model);
    r->own_idx = x;
}

int entity_rows_computed(const entity_rows *r) { return !r->dense; }

const patmodel *entity_rows_model(const entity_rows *r) { return r->dense ? NULL : &r->spec; }

void entity_rows_add_inputs(const entity_rows *r, artifact_writer *w) {
    if (!r->dense) artifact_add_input(w, r->idx->path);
    artifact_add_input(w, r->path);
}

void entity_rows_forget(entity_rows *r) {
    if (!r->dense) pattern_rows_forget(&r->rows);
}

void entity_rows_close(entity_rows *r) {
    if (r->dense) {
        dists_close(&r->d);
    } else {
        pattern_rows_free(&r->rows);
        for (int i = 0; i < r->spec.n; i++) {
            pattern_refinement_free(r->ref[i]);
            pattern_model_free(r->m[i]);
        }
        patmodel_free(&r->spec);
        if (r->own_idx) {
            index_free(r->own_idx);
            free(r->own_idx);
        }
    }
    memset(r, 0, sizeof *r);
}
