/* queries: seed sets from datasets, query files and name lists, as dists rows. */
#include "dataset/queries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/log.h"

static query_rows *append(query_list *ql, const char *class_name) {
    ql->q = xrealloc(ql->q, sizeof *ql->q * (size_t)(ql->n + 1));
    query_rows *q = &ql->q[ql->n++];
    memset(q, 0, sizeof *q);
    q->class_name = xstrdup(class_name);
    for (int i = 0; i < ql->n - 1; i++)
        if (!strcmp(ql->q[i].class_name, class_name)) q->index++;
    return q;
}

int64_t *resolve_list(const char *list, const name_index *names, const char *source, const char *where, int *n) {
    int64_t *rows = NULL;
    *n = 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        tok += strspn(tok, " \t");
        for (size_t len = strlen(tok); len && (tok[len - 1] == ' ' || tok[len - 1] == '\t');) tok[--len] = 0;
        if (!*tok) continue;
        char item[64];
        snprintf(item, sizeof item, "%s%sitem %d", where ? where : "", where ? " " : "", *n + 1);
        rows = xrealloc(rows, sizeof *rows * (size_t)(*n + 1));
        rows[(*n)++] = name_resolve(names, tok, source, item);
    }
    free(copy);
    return rows;
}

/* A seed given twice would count twice in the anchor distribution: keep the first. */
static void drop_repeated_seeds(query_list *ql, const entity_table *t) {
    for (int i = 0; i < ql->n; i++) {
        query_rows *q = &ql->q[i];
        int k = 0;
        for (int a = 0; a < q->nseeds; a++) {
            int seen = 0;
            for (int b = 0; b < k && !seen; b++) seen = q->rows[b] == q->rows[a];
            if (seen) log_warn("%s query %d: seed \"%s\" given twice, counted once", q->class_name, q->index + 1,
                               t->name[q->rows[a]]);
            else q->rows[k++] = q->rows[a];
        }
        q->nseeds = k;
    }
}

void queries_add_list(query_list *ql, const char *class_name, const char *list, const name_index *names,
                      const char *source) {
    int n;
    int64_t *rows = resolve_list(list, names, source, NULL, &n);
    if (n == 0) die_input(source, NULL, "no seed entities in \"%s\"", list);
    query_rows *q = append(ql, class_name);
    q->nseeds = n;
    q->rows = rows;
    drop_repeated_seeds(ql, names->t);
}

static void load_dataset(query_list *ql, const char *path, const dists *d) {
    query_set qs;
    dataset_read_queries(path, &qs);
    /* entity2id.txt tells an unknown eid from one without a row in the dists */
    intmap known;
    intmap_init(&known);
    entity_table ent;
    dataset_read_entities(path, &ent);
    for (int64_t i = 0; i < ent.n; i++) intmap_put(&known, ent.eid[i], i);
    for (int i = 0; i < qs.n; i++) {
        const dataset_query *dq = &qs.q[i];
        query_rows *q = append(ql, dq->class_name);
        q->nseeds = dq->nseeds;
        q->rows = xmalloc(sizeof(int64_t) * (size_t)(dq->nseeds + 1));
        for (int k = 0; k < dq->nseeds; k++) {
            int64_t eid = dq->seeds[k], row = dists_row_of(d, eid);
            if (row >= 0) {
                q->rows[k] = row;
                continue;
            }
            char where[300];
            snprintf(where, sizeof where, "query/%s.txt query %d", dq->class_name, q->index + 1);
            int64_t e = intmap_get(&known, eid);
            if (e < 0) die_input(path, where, "seed eid %lld is not an entity of entity2id.txt", (long long)eid);
            die_input(path, where, "seed eid %lld (\"%s\") has no row in %s (dropped with fewer than 2 samples?)",
                      (long long)eid, ent.name[e], d->path);
        }
    }
    intmap_free(&known);
    entity_table_free(&ent);
    query_set_free(&qs);
}

static void load_file(query_list *ql, const char *path, const dists *d, const name_index *names) {
    FILE *f = fopen(path, "r");
    if (!f) die_input(path, NULL, "cannot open query file");
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
        if (strchr(line, ',')) {
            query_rows *q = append(ql, cls);
            q->rows = resolve_list(line, names, path, where, &q->nseeds);
            continue;
        }
        query_rows *q = append(ql, cls);
        for (char *save = NULL, *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
            char *end;
            long long eid = strtoll(tok, &end, 10);
            if (*end || end == tok || eid < 0)
                die_input(path, where, "expected seed eids separated by spaces (or names separated by commas), found \"%s\"", tok);
            int64_t row = dists_row_of(d, eid);
            if (row < 0) die_input(path, where, "seed eid %lld has no row in %s", eid, d->path);
            q->rows = xrealloc(q->rows, sizeof(int64_t) * (size_t)(q->nseeds + 1));
            q->rows[q->nseeds++] = row;
        }
    }
    free(line);
    fclose(f);
    free(cls);
    if (ql->n == before) die_input(path, NULL, "no queries in the file");
}

void queries_load(query_list *ql, const char *path, const dists *d, const name_index *names) {
    struct stat st;
    if (stat(path, &st) != 0) die_input(path, NULL, "cannot open: no such file or folder");
    size_t n = strlen(path);
    if (S_ISREG(st.st_mode) && n > 4 && !strcmp(path + n - 4, ".txt")) load_file(ql, path, d, names);
    else load_dataset(ql, path, d);
    drop_repeated_seeds(ql, &d->ent);
}

void query_list_free(query_list *ql) {
    for (int i = 0; i < ql->n; i++) {
        free(ql->q[i].class_name);
        free(ql->q[i].rows);
    }
    free(ql->q);
    memset(ql, 0, sizeof *ql);
}

int query_classes(const query_list *ql, const char ***classes) {
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
