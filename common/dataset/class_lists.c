/* class_lists: member lists -> gt/ and query/ (class_lists.h). */
#include "dataset/class_lists.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/hashmap.h"
#include "base/log.h"
#include "base/rng.h"
#include "text/sentence_split.h"
#include "text/text_source.h"

/* A member list, resolved to entity indices when it is read. */
typedef struct {
    char *name;
    int64_t *members;  /* entity indices, distinct, in file order */
    int64_t n, cap, unknown;
} class_list;

struct class_lists {
    class_list *c;
    int n;
};

typedef struct {
    class_list *c;
    const annotation *a;
    unsigned char *seen; /* per entity: already a member of the class being read */
} class_reading;

static void class_line(void *ctx, const char *doc, int64_t lineno, const char *text, size_t len, int eol) {
    (void)doc;
    (void)lineno;
    (void)eol; /* member names are short: a 64 KiB piece is a whole line */
    class_reading *r = ctx;
    class_list *c = r->c;
    const char *tab = memchr(text, '\t', len);
    char *name = xasprintf("%.*s", (int)(tab ? (size_t)(tab - text) : len), text);
    char **tok;
    int n = word_tokenize(name, &tok);
    if (n) {
        int32_t v = annotation_lookup(r->a, tok, n);
        if (v < 0) c->unknown++;
        else if (!r->seen[v]) {
            r->seen[v] = 1;
            if (c->n == c->cap) {
                c->cap = c->cap * 2 + 64;
                c->members = xrealloc(c->members, sizeof *c->members * (size_t)c->cap);
            }
            c->members[c->n++] = v;
        }
    }
    free(tok);
    free(name);
}

class_lists *class_lists_read(const char *dir, const annotation *a) {
    char **names;
    int64_t n = text_source_list_folder(dir, ".txt", &names);
    if (n < 0) die_input(dir, NULL, "cannot open the classes folder: %s", strerror(errno));
    if (!n) die_input(dir, NULL, "no <class>.txt member lists in the classes folder");
    class_lists *cl = xcalloc(1, sizeof *cl);
    cl->c = xcalloc((size_t)n, sizeof *cl->c);
    class_reading r = {NULL, a, xcalloc((size_t)a->n, 1)};
    for (int64_t i = 0; i < n; i++) {
        class_list *c = r.c = &cl->c[cl->n++];
        char *path = xasprintf("%s/%s", dir, names[i]);
        names[i][strlen(names[i]) - 4] = 0;
        c->name = names[i];
        text_sink sink = {&r, NULL, class_line, NULL};
        text_source_read(path, &sink);
        for (int64_t k = 0; k < c->n; k++) r.seen[c->members[k]] = 0;
        free(path);
    }
    free(names);
    free(r.seen);
    return cl;
}

/* Draws `queries` seed sets of 3 from the most-mentioned members (sorted by count). */
static void write_queries(const class_list *c, const annotation *a, dataset_writer *w, const int64_t *members,
                          int64_t n, int queries, int seed_pool, long random_seed) {
    int64_t pool = seed_pool > 0 ? seed_pool : (n + 2) / 3;
    if (seed_pool <= 0 && pool < 15) pool = 15;
    if (pool > n) pool = n;
    rng_t r;
    rng_seed(&r, (uint64_t)random_seed ^ hash_bytes(c->name, strlen(c->name)));
    int64_t *perm = xmalloc(sizeof *perm * (size_t)pool), used = pool;
    char *rel = xasprintf("query/%s.txt", c->name);
    FILE *f = dataset_writer_open(w, rel);
    for (int q = 0; q < queries; q++) {
        if (used + 3 > pool) { /* a fresh permutation: no seed repeats before the pool is used up */
            for (int64_t i = 0; i < pool; i++) perm[i] = i;
            rng_shuffle_i64(&r, perm, pool);
            used = 0;
        }
        for (int k = 0; k < 3; k++) fprintf(f, "%s%lld", k ? " " : "", (long long)a->out_id[members[perm[used++]]]);
        fputc('\n', f);
    }
    dataset_writer_close(w, f, rel);
    free(rel);
    free(perm);
}

/* Writes gt/<class>.txt (and query/) for the members kept; returns 1, or 0 when
 * fewer than 3 are left (class skipped with a warning). */
static int write_class(const class_list *c, const annotation *a, dataset_writer *w, int queries, int seed_pool,
                       long random_seed) {
    int64_t *m = xmalloc(sizeof *m * (size_t)(c->n + 1)), n = 0;
    for (int64_t i = 0; i < c->n; i++)
        if (a->out_id[c->members[i]] >= 0) m[n++] = c->members[i];
    int64_t rare = c->n - n;
    if (n < 3) {
        log_warn("class %s: %lld member(s) in the data (%lld unknown names, %lld below --min-mentions); "
                 "at least 3 are needed, class skipped", c->name, (long long)n, (long long)c->unknown, (long long)rare);
        free(m);
        return 0;
    }
    qsort_r(m, (size_t)n, sizeof *m, annotation_cmp_by_id, (void *)a);
    char *rel = xasprintf("gt/%s.txt", c->name);
    FILE *f = dataset_writer_open(w, rel);
    for (int64_t i = 0; i < n; i++) fprintf(f, "%lld\t%s\t1\n", (long long)a->out_id[m[i]], a->name[m[i]]);
    dataset_writer_close(w, f, rel);
    free(rel);
    if (queries > 0) {
        qsort_r(m, (size_t)n, sizeof *m, annotation_cmp_by_count, (void *)a);
        write_queries(c, a, w, m, n, queries, seed_pool, random_seed);
    }
    log_info("class %s: %lld members (%lld unknown names, %lld below --min-mentions)", c->name, (long long)n,
             (long long)c->unknown, (long long)rare);
    free(m);
    return 1;
}

int class_lists_write(class_lists *cl, const annotation *a, dataset_writer *w, int queries, int seed_pool,
                      long random_seed) {
    dataset_writer_mkdir(w, "gt");
    if (queries > 0) dataset_writer_mkdir(w, "query");
    int written = 0;
    for (int i = 0; i < cl->n; i++) {
        written += write_class(&cl->c[i], a, w, queries, seed_pool, random_seed);
        free(cl->c[i].name);
        free(cl->c[i].members);
    }
    free(cl->c);
    free(cl);
    return written;
}
