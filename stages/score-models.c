/* score-models: ProbExpan's model selection and ensemble (docs/design.md §3 Model
 * selection). For each of K models and each class of the queries, the mean
 * swapped-peak KL between the class's seed distributions; the model score is the
 * geometric mean over classes (lower = more consistent). Keeps the --top k models,
 * writes their ensemble and every score in a `scores` artifact, and prints the score
 * table. The models are `dists` artifacts (the ensemble: their element-wise mean, a
 * dists written row by row), `dists-rows` artifacts of the query seeds' rows only (infer
 * --rows-of: all the scores read; no ensemble here: `infer --model A --model B` writes the
 * kept models' one from their weights, so no model's full dists is ever written) or, with
 * --index, `patmodel` artifacts over that corpus index (the ensemble: a patmodel listing the
 * kept members, whose rows are that same mean computed on demand; no E x E matrix).
 * Cost for E entities and s seeds per class (at most CLASS_MAX_SEEDS): O(K x classes x
 * s^2 x E) for the scores, plus for dists O(top x E^2) to write the ensemble (E^2 floats
 * on disk), for patmodels O(K x feature-entity pairs) to derive each model from the
 * index, one at a time, and O(top x features) to write the ensemble. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "base/cli.h"
#include "artifacts/dists.h"
#include "artifacts/scores.h"
#include "artifacts/patmodel.h"
#include "base/error.h"
#include "base/log.h"
#include "method/modelscore.h"
#include "dataset/queries.h"
#include "model/entity_rows.h"

/* Consistency costs O(seeds^2 * V_e): a class is scored on its first CLASS_MAX_SEEDS. */
#define CLASS_MAX_SEEDS 100

/* Distinct seed rows of class `cls` over all its queries, in query order (at most
 * CLASS_MAX_SEEDS, with a warning when there are more). */
static int class_seeds(const query_list *ql, const char *cls, int64_t **out) {
    int n = 0;
    int64_t *rows = NULL;
    for (int i = 0; i < ql->n; i++) {
        if (strcmp(ql->q[i].class_name, cls)) continue;
        for (int k = 0; k < ql->q[i].nseeds; k++) {
            if (n == CLASS_MAX_SEEDS) {
                log_warn("class %s: scored on its first %d distinct seeds only", cls, CLASS_MAX_SEEDS);
                *out = rows;
                return n;
            }
            int64_t r = ql->q[i].rows[k];
            int seen = 0;
            for (int j = 0; j < n && !seen; j++) seen = rows[j] == r;
            if (seen) continue;
            rows = xrealloc(rows, sizeof(int64_t) * (size_t)(n + 1));
            rows[n++] = r;
        }
    }
    *out = rows;
    return n;
}

static int by_score(const void *a, const void *b) {
    const scores_model *x = *(scores_model *const *)a, *y = *(scores_model *const *)b;
    if (x->score != y->score) return x->score < y->score ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Dies with exit 3 unless dists-rows d holds the row of every seed to score. */
static void check_seed_rows(const dists_rows *d, const row_subset *sub, int64_t *const *seeds, const int *nseeds,
                            const char **classes, int nc) {
    for (int c = 0; c < nc; c++)
        for (int k = 0; nseeds[c] >= 2 && k < nseeds[c]; k++)
            if (row_subset_slot(sub, seeds[c][k]) < 0)
                die_input(d->path, "rows", "no row for seed \"%s\" (eid %lld) of class %s: the rows of other queries "
                          "(write them with infer --rows-of QUERIES)", d->ent.name[seeds[c][k]],
                          (long long)d->ent.eid[seeds[c][k]], classes[c]);
}

/* The ensemble artifact, complete but not committed. */
static artifact_writer *ensemble_artifact(const char *path, dists *d, scores_model *m, int k, int top) {
    dists_writer *w = dists_create(path, &d[0].ent);
    artifact_param_options(dists_artifact(w));
    for (int i = 0; i < k; i++)
        if (m[i].selected) artifact_add_input(dists_artifact(w), m[i].path);
    int64_t n = dists_n(&d[0]);
    float *p = xmalloc(sizeof(float) * (size_t)n);
    double *sp = xmalloc(sizeof(double) * (size_t)n);
    progress pr;
    progress_start(&pr, "ensemble", "rows", n);
    for (int64_t r = 0; r < n; r++) {
        memset(sp, 0, sizeof(double) * (size_t)n);
        for (int i = 0; i < k; i++) {
            if (!m[i].selected) continue;
            const float *a = row_matrix_row(&d[i].prob, r);
            for (int64_t j = 0; j < n; j++) sp[j] += a[j];
        }
        for (int64_t j = 0; j < n; j++) p[j] = (float)(sp[j] / top);
        dists_write_row(w, p);
        progress_update(&pr, r + 1);
    }
    progress_end(&pr);
    free(p);
    free(sp);
    return dists_finish(w);
}

/* The ensemble of patmodels over index x: the members of the kept models, in input order
 * (each kept model has one member: checked when it was scored). Complete, not committed. */
static artifact_writer *ensemble_patmodel(const char *path, const corpus_index *x, scores_model *m, int k) {
    artifact_writer *w = artifact_create(path, PATMODEL_KIND, PATMODEL_SCHEMA);
    artifact_param_options(w);
    artifact_add_input(w, x->path);
    patmodel *spec = xcalloc((size_t)k, sizeof *spec);
    patmodel_member members[PATMODEL_MAX_MEMBERS];
    int n = 0;
    for (int i = 0; i < k; i++)
        if (m[i].selected) {
            artifact_add_input(w, m[i].path);
            patmodel_read(&spec[i], m[i].path);
            members[n++] = spec[i].m[0];
        }
    patmodel_pack(w, x, members, n);
    for (int i = 0; i < k; i++) patmodel_free(&spec[i]);
    free(spec);
    return w;
}

int main(int argc, char **argv) {
    const char *queries = NULL, *ensemble = NULL, *out = NULL, *index_path = NULL;
    int top = 2;
    const cli_option opts[] = {
        {"queries", OPT_INPUT, &queries, "PATH", "dataset folder/archive (its query/*.txt) or a query file CLASS.txt", 0, 0},
        {"top", OPT_INT, &top, "K", "models to keep (the official code keeps 2 of 5)", 1, 100000},
        {"index", OPT_INPUT, &index_path, "FILE", "the models are patmodel artifacts over this corpus index (pattern-model): rows computed on demand", 0, 0},
        {"ensemble", OPT_OUTPUT, &ensemble, "FILE", "write the element-wise mean of the kept models (a dists artifact; with --index a patmodel of their members; not from dists-rows)", 0, 0},
        {"out", OPT_OUTPUT, &out, "FILE", "output scores artifact", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"score-models", "rank models by seed consistency and average the best ones",
                           "--queries PATH --out FILE [--ensemble FILE] [options] (DISTS... | DISTS-ROWS... | --index FILE PATMODEL...)",
                           "score-models --queries data.tar.gz --top 2 --ensemble run/ensemble.mp --out run/scores.mp "
                           "run/dists-1.mp run/dists-2.mp run/dists-3.mp",
                           "infer, pattern-model, expand", opts, CLI_ANY_ARGS};
    int first = cli_parse(&spec, argc, argv);
    int k = argc - first;
    if (k < 1) die_usage("expected one or more DISTS (or, with --index, PATMODEL) artifacts (try --help)");
    if (ensemble && index_path && top > PATMODEL_MAX_MEMBERS) die_usage("--top %d: an ensemble patmodel holds at most %d models", top, PATMODEL_MAX_MEMBERS);
    if (!queries) die_usage("--queries is required");
    if (!out) die_usage("--out is required");
    if (top > k) die_usage("--top %d: only %d models given", top, k);
    catalog_begin_beside(out);

    /* dists (or dists-rows): all mapped (the ensemble reads them together); patmodels: one at
     * a time below */
    int seed_rows = !index_path && dists_is_rows(argv[first]);
    if (seed_rows && ensemble)
        die_usage("--ensemble needs the models' full dists: %s holds seed rows only (infer --model A --model B "
                  "writes the ensemble of the kept models)", argv[first]);
    dists *d = xcalloc((size_t)k, sizeof *d);
    dists_rows *dr = xcalloc((size_t)k, sizeof *dr);
    row_subset *sub = xcalloc((size_t)k, sizeof *sub);
    corpus_index idx;
    if (index_path) index_read(&idx, index_path);
    else
        for (int i = 0; i < k; i++) {
            if (seed_rows) {
                dists_rows_open(&dr[i], argv[first + i]);
                sub[i] = (row_subset){&dr[i].prob, dr[i].rows};
                if (i) dists_check_same_table(dr[0].path, &dr[0].ent, dr[i].path, &dr[i].ent);
                continue;
            }
            dists_open(&d[i], argv[first + i]);
            if (i) dists_check_same_entities(&d[0], &d[i]);
        }
    const entity_table *ent = index_path ? &idx.ent : seed_rows ? &dr[0].ent : &d[0].ent;
    name_index ni;
    name_index_init(&ni, ent, index_path ? &idx.row_of_eid : seed_rows ? &dr[0].row_of_eid : &d[0].row_of_eid);
    query_list ql = {0, NULL};
    queries_load(&ql, queries, index_path ? index_path : seed_rows ? dr[0].path : d[0].path, &ni);
    const char **classes;
    int nc = queries_classes(&ql, &classes), scored = 0;
    int64_t **seeds = xmalloc(sizeof(int64_t *) * (size_t)nc);
    int *nseeds = xmalloc(sizeof(int) * (size_t)nc);
    for (int c = 0; c < nc; c++) {
        nseeds[c] = class_seeds(&ql, classes[c], &seeds[c]);
        if (nseeds[c] < 2) log_warn("class %s has fewer than 2 distinct seeds: not scored", classes[c]);
        else scored++;
    }
    if (!scored) die_input(queries, NULL, "no class has 2 distinct seed entities: nothing to score models on");

    scores_model *m = xcalloc((size_t)k, sizeof *m);
    scores_model **sorted = xmalloc(sizeof(scores_model *) * (size_t)k);
    double *v = xmalloc(sizeof(double) * (size_t)nc);
    for (int i = 0; i < k; i++) {
        m[i].path = argv[first + i];
        m[i].class_score = xmalloc(sizeof(double) * (size_t)nc);
        entity_rows er;
        row_source prob;
        if (index_path) {
            entity_rows_open_model(&er, &idx, m[i].path);
            if (ensemble && entity_rows_model(&er)->n > 1)
                die_input(m[i].path, "members", "an ensemble of %d models: --ensemble averages single models (give "
                          "the members' own patmodels)", entity_rows_model(&er)->n);
            prob = er.src;
        } else if (seed_rows) {
            check_seed_rows(&dr[i], &sub[i], seeds, nseeds, classes, nc);
            prob = row_source_subset(&sub[i]);
        } else {
            prob = row_source_dense(&d[i].prob);
        }
        int nv = 0;
        for (int c = 0; c < nc; c++) {
            m[i].class_score[c] = nseeds[c] < 2 ? NAN : modelscore_class(&prob, seeds[c], nseeds[c]);
            if (nseeds[c] >= 2) v[nv++] = m[i].class_score[c];
        }
        if (index_path) entity_rows_close(&er);
        m[i].score = modelscore_geomean(v, nv);
        sorted[i] = &m[i];
    }
    qsort(sorted, (size_t)k, sizeof *sorted, by_score);
    for (int i = 0; i < k; i++) {
        sorted[i]->rank = i + 1;
        sorted[i]->selected = i < top;
    }

    printf("%-28s", "model");
    for (int c = 0; c < nc; c++) printf(" %12.12s", classes[c]);
    printf(" %12s  kept\n", "geo-mean");
    for (int i = 0; i < k; i++) {
        size_t len = strlen(m[i].path); /* the end of a long path tells models apart */
        printf(len > 28 ? "...%-25s" : "%-28s", m[i].path + (len > 28 ? len - 25 : 0));
        for (int c = 0; c < nc; c++)
            if (isnan(m[i].class_score[c])) printf(" %12s", "-"); /* not scored: fewer than 2 seeds */
            else printf(" %12.6g", m[i].class_score[c]);
        printf(" %12.6g  %s\n", m[i].score, m[i].selected ? "*" : "");
    }
    fflush(stdout);

    artifact_writer *sw = scores_create(out);
    artifact_param_options(sw);
    for (int i = 0; i < k; i++) artifact_add_input(sw, m[i].path);
    artifact_add_input(sw, queries);
    scores_pack(sw, classes, nc, m, k, top);
    artifact_writer *outputs[2] = {sw, !ensemble ? NULL
                                        : index_path ? ensemble_patmodel(ensemble, &idx, m, k)
                                        : ensemble_artifact(ensemble, d, m, k, top)};
    artifact_commit_all(outputs, ensemble ? 2 : 1); /* both or neither */
    catalog_metric("models", k);
    catalog_metric("best_score", sorted[0]->score);
    char b1[32];
    log_done("%d models scored on %d classes, %d kept, ensemble of %s entities%s", k, scored, top,
             fmt_count(b1, ent->n), ensemble ? "" : " not written");
    for (int i = 0; i < k; i++) free(m[i].class_score);
    for (int c = 0; c < nc; c++) free(seeds[c]);
    free(seeds);
    free(nseeds);
    free(m);
    free(sorted);
    free(v);
    free(classes);
    query_list_free(&ql);
    name_index_free(&ni);
    if (index_path) index_free(&idx);
    else
        for (int i = 0; i < k; i++)
            if (seed_rows) dists_rows_close(&dr[i]);
            else dists_close(&d[i]);
    free(d);
    free(dr);
    free(sub);
    return 0;
}
