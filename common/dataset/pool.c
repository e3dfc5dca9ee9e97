/* pool: read a folder of pooled judgements (<class>.tsv: name, 0|1, reason). */
#include "dataset/pool.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"
#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "dataset/names_file.h"

typedef struct {
    const name_index *names;
    const entity_table *t;
    pool_class *c;
    intmap at;          /* eid -> its entry in c */
    int64_t *line;      /* entry -> the line that judged it first */
} class_reader;

static void pool_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    class_reader *r = ctx;
    char where[32], msg[1200];
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    if (n < 2) die_input(file, where, "expected name<TAB>1|0<TAB>reason, found %d field%s", n, n == 1 ? "" : "s");
    if (strcmp(fields[1], "0") && strcmp(fields[1], "1"))
        die_input(file, where, "expected the label 1 (a member) or 0 (not a member) after the name, found \"%.40s\"", fields[1]);
    int64_t row = name_lookup(r->names, fields[0], msg, sizeof msg);
    if (row < 0) die_input(file, where, "%s", msg);
    int64_t eid = r->t->eid[row];
    int member = fields[1][0] == '1';
    pool_class *c = r->c;
    int64_t i = intmap_get(&r->at, eid);
    if (i >= 0) {
        if (c->member[i] != member)
            die_input(file, where, "\"%s\" (eid %lld) judged %d here and %d at line %lld", fields[0], (long long)eid, member,
                      c->member[i], (long long)r->line[i]);
        return;
    }
    c->eid = xgrow(c->eid, c->n, sizeof *c->eid);
    c->member = xgrow(c->member, c->n, sizeof *c->member);
    r->line = xgrow(r->line, c->n, sizeof *r->line);
    intmap_put(&r->at, eid, c->n);
    r->line[c->n] = lineno;
    c->eid[c->n] = eid;
    c->member[c->n++] = member;
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const pool_class *)a)->class_name, ((const pool_class *)b)->class_name);
}

void pool_read(const char *dir, const char *dataset_path, pool_set *p) {
    memset(p, 0, sizeof *p);
    DIR *d = opendir(dir);
    if (!d) die_input(dir, NULL, "cannot open the pool folder (a folder of <class>.tsv files)");
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".tsv") || e->d_name[0] == '.') continue;
        p->c = xgrow(p->c, p->n, sizeof *p->c);
        pool_class *c = &p->c[p->n++];
        memset(c, 0, sizeof *c);
        c->class_name = xasprintf("%.*s", (int)(len - 4), e->d_name);
        c->path = xasprintf("%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (!p->n) die_input(dir, NULL, "no <class>.tsv file in the pool folder");
    qsort(p->c, (size_t)p->n, sizeof *p->c, by_name);
    entity_table t;
    name_index x;
    name_index_open_dataset(&x, &t, dataset_path);
    for (int i = 0; i < p->n; i++) {
        class_reader r = {&x, &t, &p->c[i], {0}, NULL};
        intmap_init(&r.at);
        names_file_read(p->c[i].path, pool_entry, &r);
        intmap_free(&r.at);
        free(r.line);
    }
    name_index_free(&x);
    entity_table_free(&t);
}

void pool_free(pool_set *p) {
    for (int i = 0; i < p->n; i++) {
        free(p->c[i].class_name);
        free(p->c[i].path);
        free(p->c[i].eid);
        free(p->c[i].member);
    }
    free(p->c);
    memset(p, 0, sizeof *p);
}
