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
    artifact_writer *w = patmodel_create(path);
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

/* The K models given: dists (all mapped: the ensemble reads them together), dists-rows, or
 * patmodels over a corpus index (read one at a time by score_model). */
typedef struct {
    int k, seed_rows;
    const char *index_path;
    corpus_index idx;
    dists *d;
    dists_rows *dr;
    row_subset *sub;
    const entity_table *ent;  /* the entity table they share */
    const intmap *row_of_eid;
    const char *rows_path;    /* the file that table is read from, for messages */
} model_set;

static void models_open(model_set *s, char **paths, int k, const char *index_path) {
    s->k = k;
    s->index_path = index_path;
    s->seed_rows = !index_path && dists_is_rows(paths[0]);
    s->d = xcalloc((size_t)k, sizeof *s->d);
    s->dr = xcalloc((size_t)k, sizeof *s->dr);
    s->sub = xcalloc((size_t)k, sizeof *s->sub);
    if (index_path) {
        index_read(&s->idx, index_path);
        s->ent = &s->idx.ent;
        s->row_of_eid = &s->idx.row_of_eid;
        s->rows_path = index_path;
        return;
    }
    for (int i = 0; i < k; i++) {
        if (s->seed_rows) {
            dists_rows_open(&s->dr[i], paths[i]);
            s->sub[i] = (row_subset){&s->dr[i].prob, s->dr[i].rows};
            if (i) dists_check_same_table(s->dr[0].path, &s->dr[0].ent, s->dr[i].path, &s->dr[i].ent);
            continue;
        }
        dists_open(&s->d[i], paths[i]);
        if (i) dists_check_same_entities(&s->d[0], &s->d[i]);
    }
    s->ent = s->seed_rows ? &s->dr[0].ent : &s->d[0].ent;
    s->row_of_eid = s->seed_rows ? &s->dr[0].row_of_eid : &s->d[0].row_of_eid;
    s->rows_path = s->seed_rows ? s->dr[0].path : s->d[0].path;
}

static void models_close(model_set *s) {
    if (s->index_path) index_free(&s->idx);
    else
        for (int i = 0; i < s->k; i++)
            if (s->seed_rows) dists_rows_close(&s->dr[i]);
            else dists_close(&s->d[i]);
    free(s->d);
    free(s->dr);
    free(s->sub);
}

/* The seed sets of the queries' classes (class_seeds); returns how many have 2 or more seeds. */
static int class_seed_sets(const query_list *ql, const char *queries, const char ***classes, int *nc, int64_t ***seeds,
                           int **nseeds) {
    *nc = queries_classes(ql, classes);
    *seeds = xmalloc(sizeof(int64_t *) * (size_t)(*nc + 1));
    *nseeds = xmalloc(sizeof(int) * (size_t)(*nc + 1));
    int scored = 0;
    for (int c = 0; c < *nc; c++) {
        (*nseeds)[c] = class_seeds(ql, (*classes)[c], &(*seeds)[c]);
        if ((*nseeds)[c] < 2) log_warn("class %s has fewer than 2 distinct seeds: not scored", (*classes)[c]);
        else scored++;
    }
    if (!scored) die_input(queries, NULL, "no class has 2 distinct seed entities: nothing to score models on");
    return scored;
}

/* Model i's score per class (NaN: fewer than 2 seeds) and their geometric mean into m. */
static void score_model(const model_set *s, int i, int ensemble, int64_t *const *seeds, const int *nseeds,
                        const char **classes, int nc, scores_model *m) {
    m->class_score = xmalloc(sizeof(double) * (size_t)(nc + 1));
    double *v = xmalloc(sizeof(double) * (size_t)(nc + 1));
    entity_rows er;
    row_source prob;
    if (s->index_path) {
        entity_rows_open_model(&er, &s->idx, m->path);
        if (ensemble && entity_rows_model(&er)->n > 1)
            die_input(m->path, "members", "an ensemble of %d models: --ensemble averages single models (give "
                      "the members' own patmodels)", entity_rows_model(&er)->n);
        prob = er.src;
    } else if (s->seed_rows) {
        check_seed_rows(&s->dr[i], &s->sub[i], seeds, nseeds, classes, nc);
        prob = row_source_subset(&s->sub[i]);
    } else {
        prob = row_source_dense(&s->d[i].prob);
    }
    int nv = 0;
    for (int c = 0; c < nc; c++) {
        m->class_score[c] = nseeds[c] < 2 ? NAN : modelscore_class(&prob, seeds[c], nseeds[c]);
        if (nseeds[c] >= 2) v[nv++] = m->class_score[c];
    }
    if (s->index_path) entity_rows_close(&er);
    m->score = modelscore_geomean(v, nv);
    free(v);
}

/* The score table on stdout: a row per model, a column per class, the kept ones starred. */
static void print_scores(const scores_model *m, int k, const char **classes, int nc) {
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

    if (!index_path && dists_is_rows(argv[first]) && ensemble)
        die_usage("--ensemble needs the models' full dists: %s holds seed rows only (infer --model A --model B "
                  "writes the ensemble of the kept models)", argv[first]);
    model_set ms;
    models_open(&ms, argv + first, k, index_path);
    name_index ni;
    name_index_init(&ni, ms.ent, ms.row_of_eid);
    query_list ql = {0, NULL};
    queries_load(&ql, queries, ms.rows_path, &ni);
    const char **classes;
    int64_t **seeds;
    int nc, *nseeds, scored = class_seed_sets(&ql, queries, &classes, &nc, &seeds, &nseeds);

    scores_model *m = xcalloc((size_t)k, sizeof *m);
    scores_model **sorted = xmalloc(sizeof(scores_model *) * (size_t)k);
    for (int i = 0; i < k; i++) {
        m[i].path = argv[first + i];
        score_model(&ms, i, ensemble != NULL, seeds, nseeds, classes, nc, &m[i]);
        sorted[i] = &m[i];
    }
    qsort(sorted, (size_t)k, sizeof *sorted, by_score);
    for (int i = 0; i < k; i++) {
        sorted[i]->rank = i + 1;
        sorted[i]->selected = i < top;
    }

    print_scores(m, k, classes, nc);

    artifact_writer *sw = scores_create(out);
    artifact_param_options(sw);
    for (int i = 0; i < k; i++) artifact_add_input(sw, m[i].path);
    artifact_add_input(sw, queries);
    scores_pack(sw, classes, nc, m, k, top);
    artifact_writer *outputs[2] = {sw, !ensemble ? NULL
                                        : index_path ? ensemble_patmodel(ensemble, &ms.idx, m, k)
                                        : ensemble_artifact(ensemble, ms.d, m, k, top)};
    artifact_commit_all(outputs, ensemble ? 2 : 1); /* both or neither */
    catalog_metric("models", k);
    catalog_metric("best_score", sorted[0]->score);
    char b1[32];
    log_done("%d models scored on %d classes, %d kept, ensemble of %s entities%s", k, scored, top,
             fmt_count(b1, ms.ent->n), ensemble ? "" : " not written");
    for (int i = 0; i < k; i++) free(m[i].class_score);
    for (int c = 0; c < nc; c++) free(seeds[c]);
    free(seeds);
    free(nseeds);
    free(m);
    free(sorted);
    free(classes);
    query_list_free(&ql);
    name_index_free(&ni);
    models_close(&ms);
    return 0;
}
