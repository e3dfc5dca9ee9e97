/* queries: seed sets from datasets, query files and name lists, as entity rows. */
#include "dataset/queries.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/paths.h"
#include "base/log.h"
#include "dataset/names_file.h"

static query_rows *append(query_list *ql, const char *class_name) {
    ql->q = xgrow(ql->q, ql->n, sizeof *ql->q);
    query_rows *q = &ql->q[ql->n++];
    memset(q, 0, sizeof *q);
    q->class_name = xstrdup(class_name);
    for (int i = 0; i < ql->n - 1; i++)
        if (!strcmp(ql->q[i].class_name, class_name)) q->index++;
    return q;
}

/* A seed given twice would count twice in the anchor distribution: keep the first
 * (linear: one mark per entity row). More than QUERIES_MAX_SEEDS distinct seeds is bad
 * input: model selection costs O(seeds^2 * V_e). */
static void drop_repeated_seeds(query_list *ql, const entity_table *t, const char *source) {
    unsigned char *seen = xcalloc((size_t)t->n + 1, 1);
    for (int i = 0; i < ql->n; i++) {
        query_rows *q = &ql->q[i];
        int k = 0, repeated = 0;
        int64_t first_repeated = -1;
        for (int a = 0; a < q->nseeds; a++) {
            if (!seen[q->rows[a]]) {
                seen[q->rows[a]] = 1;
                q->rows[k++] = q->rows[a];
            } else if (!repeated++) {
                first_repeated = q->rows[a];
            }
        }
        for (int a = 0; a < k; a++) seen[q->rows[a]] = 0;
        q->nseeds = k;
        if (repeated)
            log_warn("%s query %d: %d seed(s) given more than once (the first: \"%s\"), each counted once",
                     q->class_name, q->index + 1, repeated, t->name[first_repeated]);
        if (k > QUERIES_MAX_SEEDS) {
            char where[300];
            snprintf(where, sizeof where, "%s query %d", q->class_name, q->index + 1);
            die_input(source, where, "%d distinct seeds, at most %d are accepted", k, QUERIES_MAX_SEEDS);
        }
    }
    free(seen);
}

int seed_input_given(const seed_input *si) { return si->list || si->names.n || si->file; }

typedef struct {
    const name_index *names;
    int64_t *rows;
    int n;
} seed_rows;

static void add_row(seed_rows *s, int64_t row) {
    s->rows = xgrow(s->rows, s->n, sizeof *s->rows);
    s->rows[s->n++] = row;
}

static void seed_file_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)n;
    seed_rows *s = ctx;
    char where[32];
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    add_row(s, name_resolve(s->names, fields[0], file, where));
}

static void add_token(seed_tokens *t, const char *s) {
    t->v = xgrow(t->v, t->n, sizeof *t->v);
    t->v[t->n++] = xstrdup(s);
}

static void token_file_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)file, (void)lineno, (void)n;
    add_token(ctx, fields[0]);
}

void seed_input_tokens(const seed_input *si, seed_tokens *t) {
    t->n = 0;
    t->v = NULL;
    char *copy = si->list ? xstrdup(si->list) : NULL, *save = NULL;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save))
        if (tok[strspn(tok, " \t")]) add_token(t, tok);
    free(copy);
    for (int i = 0; i < si->names.n; i++) add_token(t, si->names.v[i]);
    if (si->file) names_file_read(si->file, token_file_entry, t);
}

void seed_tokens_free(seed_tokens *t) {
    for (int i = 0; i < t->n; i++) free(t->v[i]);
    free(t->v);
    t->n = 0;
    t->v = NULL;
}

/* Resolves the entities of si to rows (*n of them; malloc'd); list_opt and name_opt name
 * its options in messages. */
static int64_t *resolve_input(const seed_input *si, const name_index *names, const char *list_opt,
                              const char *name_opt, int *n) {
    seed_rows s = {names, NULL, 0};
    if (si->list) {
        int k;
        int64_t *rows = name_resolve_list(names, si->list, list_opt, NULL, &k);
        for (int i = 0; i < k; i++) add_row(&s, rows[i]);
        free(rows);
    }
    for (int i = 0; i < si->names.n; i++) {
        char where[32];
        snprintf(where, sizeof where, "occurrence %d", i + 1);
        add_row(&s, name_resolve(names, si->names.v[i], name_opt, where));
    }
    if (si->file) names_file_read(si->file, seed_file_entry, &s);
    *n = s.n;
    return s.rows;
}

/* Resolves every seed given to rows (*n of them; malloc'd); exit 3 when none. */
static int64_t *seed_input_resolve(const seed_input *si, const name_index *names, int *n) {
    int64_t *rows = resolve_input(si, names, "--seeds", "--seed", n);
    if (*n == 0) {
        if (si->file && !si->list && !si->names.n) die_input(si->file, NULL, "no seed entities in the file");
        die_input(si->list ? "--seeds" : "--seed", NULL, "no seed entities in \"%s\"", si->list ? si->list : "");
    }
    return rows;
}

void queries_add_seeds(query_list *ql, const char *class_name, const seed_input *si, const name_index *names) {
    int n;
    int64_t *rows = seed_input_resolve(si, names, &n);
    query_rows *q = append(ql, class_name);
    q->nseeds = n;
    q->rows = rows;
    drop_repeated_seeds(ql, names->t, si->list ? "--seeds" : si->file ? si->file : "--seed");
}

/* The rows of si (list_opt, name_opt: its options), each once (a warning when repeated), none
 * a seed of a query of ql (exit 2); *n of them, malloc'd. */
static int64_t *resolve_distinct(const query_list *ql, const seed_input *si, const name_index *names,
                                 const char *list_opt, const char *name_opt, int *n) {
    int nrows = 0;
    int64_t *rows = resolve_input(si, names, list_opt, name_opt, &nrows);
    unsigned char *is_in = xcalloc((size_t)names->t->n + 1, 1);
    int kept = 0;
    for (int j = 0; j < nrows; j++)
        if (!is_in[rows[j]]) {
            is_in[rows[j]] = 1;
            rows[kept++] = rows[j];
        }
    if (kept < nrows) log_warn("%s: %d repeated entries counted once", list_opt, nrows - kept);
    for (int i = 0; i < ql->n; i++)
        for (int k = 0; k < ql->q[i].nseeds; k++)
            if (is_in[ql->q[i].rows[k]])
                die_usage("%s: \"%s\" is also a seed of %s query %d: an entity cannot be both", list_opt,
                          names->t->name[ql->q[i].rows[k]], ql->q[i].class_name, ql->q[i].index + 1);
    free(is_in);
    *n = kept;
    return rows;
}

int64_t *queries_resolve_negatives(const query_list *ql, const seed_input *si, const name_index *names, int *n) {
    return resolve_distinct(ql, si, names, "--negative-seeds", "--negative", n);
}

int queries_add_accepted(query_list *ql, const seed_input *si, const name_index *names, const int64_t *neg, int nneg) {
    int n;
    int64_t *rows = resolve_distinct(ql, si, names, "--accepted", "--accept", &n);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < nneg; k++)
            if (rows[j] == neg[k])
                die_usage("--accepted: \"%s\" is also a negative seed: an entity cannot be both", names->t->name[rows[j]]);
    for (int i = 0; i < ql->n && n; i++) {
        query_rows *q = &ql->q[i];
        if (q->nseeds + n > QUERIES_MAX_SEEDS)
            die_usage("--accepted: %s query %d would have %d seeds, at most %d are accepted", q->class_name,
                      q->index + 1, q->nseeds + n, QUERIES_MAX_SEEDS);
        q->rows = xrealloc(q->rows, sizeof *q->rows * (size_t)(q->nseeds + n));
        memcpy(q->rows + q->nseeds, rows, sizeof *rows * (size_t)n);
        q->nseeds += n;
    }
    free(rows);
    return n;
}

static void load_dataset(query_list *ql, const char *path, const char *rows_path, const name_index *names) {
    query_set qs;
    name_read_queries(path, &qs);
    /* entity2id.txt tells an unknown eid from one without a row */
    entity_table ent;
    dataset_read_entities(path, &ent);
    intmap known;
    entity_table_row_map(&ent, &known);
    for (int i = 0; i < qs.n; i++) {
        const dataset_query *dq = &qs.q[i];
        query_rows *q = append(ql, dq->class_name);
        q->nseeds = dq->nseeds;
        q->rows = xmalloc(sizeof(int64_t) * (size_t)(dq->nseeds + 1));
        for (int k = 0; k < dq->nseeds; k++) {
            int64_t eid = dq->seeds[k], row = intmap_get(names->row_of_eid, eid);
            if (row >= 0) {
                q->rows[k] = row;
                continue;
            }
            char where[300];
            snprintf(where, sizeof where, "query/%s.txt query %d", dq->class_name, q->index + 1);
            int64_t e = intmap_get(&known, eid);
            if (e < 0) die_input(path, where, "seed eid %lld is not an entity of entity2id.txt", (long long)eid);
            die_input(path, where, "seed eid %lld (\"%s\") has no row in %s (dropped with fewer than 2 samples?)",
                      (long long)eid, ent.name[e], rows_path);
        }
    }
    intmap_free(&known);
    entity_table_free(&ent);
    query_set_free(&qs);
}

static void load_file(query_list *ql, const char *path, const char *rows_path, const name_index *names) {
    FILE *f = paths_fopen_input(path);
    if (!f) die_input(path, NULL, "cannot open query file: %s", strerror(errno));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *cls = xstrdup(base);
    cls[strlen(cls) - 4] = 0; /* ".txt" */
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, before = ql->n;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!line[strspn(line, " \t")]) continue;
        if (!strcmp(line, "EXIT")) break;
        char where[32];
        snprintf(where, sizeof where, "line %d", lineno);
        query_rows *q = append(ql, cls);
        if (line[strspn(line, "0123456789 ")]) { /* not a line of eids: names */
            q->rows = name_resolve_list(names, line, path, where, &q->nseeds);
            if (q->nseeds == 0) die_input(path, where, "no seed entities, only separators: expected names or eids");
            continue;
        }
        for (char *save = NULL, *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            long long eid = strtoll(tok, NULL, 10);
            int64_t row = intmap_get(names->row_of_eid, eid);
            if (row < 0) die_input(path, where, "seed eid %lld has no row in %s", eid, rows_path);
            q->rows = xgrow(q->rows, q->nseeds, sizeof(int64_t));
            q->rows[q->nseeds++] = row;
        }
    }
    free(line);
    fclose(f);
    free(cls);
    if (ql->n == before) die_input(path, NULL, "no queries in the file");
}

void queries_load(query_list *ql, const char *path, const char *rows_path, const name_index *names) {
    struct stat st;
    if (stat(path, &st) != 0) die_input(path, NULL, "cannot open: no such file or folder");
    size_t n = strlen(path);
    if (S_ISREG(st.st_mode) && n > 4 && !strcmp(path + n - 4, ".txt")) load_file(ql, path, rows_path, names);
    else load_dataset(ql, path, rows_path, names);
    for (int i = 0; i < ql->n; i++)
        if (ql->q[i].nseeds == 0) die("internal: %s: %s query %d has no seeds", path, ql->q[i].class_name, ql->q[i].index + 1);
    drop_repeated_seeds(ql, names->t, path);
}

void query_list_free(query_list *ql) {
    for (int i = 0; i < ql->n; i++) {
        free(ql->q[i].class_name);
        free(ql->q[i].rows);
    }
    free(ql->q);
    memset(ql, 0, sizeof *ql);
}

int queries_classes(const query_list *ql, const char ***classes) {
    const char **c = xmalloc(sizeof(char *) * (size_t)(ql->n + 1));
    int k = 0;
    for (int i = 0; i < ql->n; i++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++) seen = !strcmp(c[j], ql->q[i].class_name);
        if (!seen) c[k++] = ql->q[i].class_name;
    }
    *classes = c;
    return k;
}
