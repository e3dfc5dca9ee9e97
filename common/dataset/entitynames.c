/* entitynames: normalised name lookup with suggestions for unknown names. */
#include "dataset/entitynames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <utf8proc.h>

#include "base/error.h"
#include "dataset/names_file.h"
#include "text/text_source.h"

char *name_normalise(const char *s) {
    utf8proc_uint8_t *folded = NULL;
    const char *src = s;
    if (utf8proc_map((const utf8proc_uint8_t *)s, 0, &folded, UTF8PROC_NULLTERM | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE) >= 0)
        src = (const char *)folded;
    size_t n = strlen(src);
    char *out = xmalloc(n + 1), *o = out;
    int pending_space = 0;
    for (const char *p = src; *p; p++) {
        char c = *p == '_' ? ' ' : *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            pending_space = o != out;
            continue;
        }
        if (pending_space) *o++ = ' ';
        pending_space = 0;
        *o++ = c;
    }
    *o = 0;
    free(folded);
    return out;
}

void name_index_init(name_index *x, const entity_table *t, const intmap *row_of_eid) {
    x->t = t;
    x->own_row_of_eid = NULL;
    if (!row_of_eid) {
        x->own_row_of_eid = xmalloc(sizeof *x->own_row_of_eid);
        entity_table_row_map(t, x->own_row_of_eid);
        row_of_eid = x->own_row_of_eid;
    }
    x->row_of_eid = row_of_eid;
    strmap_init(&x->by_name);
    x->next_same = xmalloc(sizeof(int64_t) * (size_t)(t->n + 1));
    x->norm = xmalloc(sizeof(char *) * (size_t)(t->n + 1));
    strmap_init(&x->by_alias);
    x->alias_row = x->alias_next = NULL;
    x->nalias = x->alias_cap = 0;
    for (int64_t i = 0; i < t->n; i++) {
        x->norm[i] = name_normalise(t->name[i]);
        x->next_same[i] = -1;
        int64_t r = strmap_put(&x->by_name, x->norm[i], strlen(x->norm[i]), i);
        if (r < 0) continue;
        while (x->next_same[r] >= 0) r = x->next_same[r]; /* append to the chain */
        x->next_same[r] = i;
    }
}

void name_index_free(name_index *x) {
    for (int64_t i = 0; i < x->t->n; i++) free(x->norm[i]);
    free(x->norm);
    free(x->next_same);
    strmap_free(&x->by_name);
    strmap_free(&x->by_alias);
    free(x->alias_row);
    free(x->alias_next);
    if (x->own_row_of_eid) intmap_free(x->own_row_of_eid);
    free(x->own_row_of_eid);
}

int name_edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > 255) n = 255;
    if (m > 255) m = 255;
    int prev[256], cur[256];
    for (size_t j = 0; j <= m; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(int) * (m + 1));
    }
    return prev[m];
}

void name_closest_add(int64_t *rows, int *dist, int *n, int cap, int64_t r, int d) {
    if (*n == cap && (cap == 0 || d >= dist[cap - 1])) return;
    int pos = *n < cap ? (*n)++ : cap - 1;
    while (pos > 0 && d < dist[pos - 1]) {
        rows[pos] = rows[pos - 1];
        dist[pos] = dist[pos - 1];
        pos--;
    }
    rows[pos] = r;
    dist[pos] = d;
}

#define NSUGGEST 5

/* "unknown entity ...; closest names: ..." into msg. */
static void explain_unknown(const name_index *x, const char *token, const char *norm, char *msg, size_t msglen) {
    int64_t best[NSUGGEST];
    int dist[NSUGGEST], k = 0;
    for (int64_t i = 0; i < x->t->n; i++) name_closest_add(best, dist, &k, NSUGGEST, i, name_edit_distance(norm, x->norm[i]));
    size_t used = (size_t)snprintf(msg, msglen, "unknown entity \"%s\"; closest names: ", token);
    for (int i = 0; i < k && used < msglen; i++)
        used += (size_t)snprintf(msg + used, msglen - used, "%s\"%s\" (eid %lld)", i ? ", " : "", x->t->name[best[i]],
                                 (long long)x->t->eid[best[i]]);
}

/* Row of a normalised alias; -1 when none; -2 with the message when it names several entities. */
static int64_t alias_row(const name_index *x, const char *token, const char *norm, char *msg, size_t msglen) {
    int64_t a = strmap_get(&x->by_alias, norm, strlen(norm));
    if (a < 0) return -1;
    if (x->alias_next[a] < 0) return x->alias_row[a];
    size_t used = (size_t)snprintf(msg, msglen, "\"%s\" is an alias of several entities: ", token);
    for (int64_t k = a; k >= 0 && used < msglen; k = x->alias_next[k])
        used += (size_t)snprintf(msg + used, msglen - used, "%s\"%s\" (eid %lld)", k == a ? "" : ", ",
                                 x->t->name[x->alias_row[k]], (long long)x->t->eid[x->alias_row[k]]);
    if (used < msglen) snprintf(msg + used, msglen - used, "; give the name or eid instead");
    return -2;
}

/* Adds `alias` as another name of row `row`. Canonical names win over aliases;
 * an alias given to two entities resolves to neither (exit 3 listing both when
 * used). */
static void name_index_add_alias(name_index *x, const char *alias, int64_t row) {
    char *norm = name_normalise(alias);
    if (!norm[0] || strmap_get(&x->by_name, norm, strlen(norm)) >= 0) { /* empty, or a canonical name */
        free(norm);
        return;
    }
    if (x->nalias == x->alias_cap) {
        x->alias_cap = x->alias_cap * 2 + 64;
        x->alias_row = xrealloc(x->alias_row, sizeof *x->alias_row * (size_t)x->alias_cap);
        x->alias_next = xrealloc(x->alias_next, sizeof *x->alias_next * (size_t)x->alias_cap);
    }
    int64_t k = x->nalias, first = strmap_put(&x->by_alias, norm, strlen(norm), k);
    free(norm);
    int64_t last = -1;
    for (int64_t e = first; e >= 0; e = x->alias_next[e]) {
        if (x->alias_row[e] == row) return; /* already an alias of this entity */
        last = e;
    }
    x->alias_row[k] = row;
    x->alias_next[k] = -1;
    if (last >= 0) x->alias_next[last] = k;
    x->nalias++;
}

/* Among the rows sharing a normalised name (chain from `row`), the one whose
 * name is `token` itself, spaces around it aside; -1 when none or several. */
static int64_t exact_among(const name_index *x, int64_t row, const char *token) {
    size_t skip = strspn(token, " \t"), len = strlen(token + skip);
    while (len && (token[skip + len - 1] == ' ' || token[skip + len - 1] == '\t')) len--;
    int64_t hit = -1;
    for (int64_t r = row; r >= 0; r = x->next_same[r]) {
        const char *name = x->t->name[r];
        if (strlen(name) != len || memcmp(name, token + skip, len)) continue;
        if (hit >= 0) return -1;
        hit = r;
    }
    return hit;
}

int64_t name_lookup(const name_index *x, const char *token, char *msg, size_t msglen) {
    char *norm = name_normalise(token);
    int64_t row = strmap_get(&x->by_name, norm, strlen(norm));
    if (row < 0) row = alias_row(x, token, norm, msg, msglen);
    if (row == -2) {
        free(norm);
        return -1;
    }
    int ambiguous = 0;
    if (row < 0 && norm[0] && strspn(norm, "0123456789") == strlen(norm) && strlen(norm) <= 18)
        row = intmap_get(x->row_of_eid, strtoll(norm, NULL, 10));
    else if (row >= 0 && x->next_same[row] >= 0) { /* a name several entities share: exact spelling wins */
        int64_t exact = exact_among(x, row, token);
        if (exact >= 0) row = exact;
        else ambiguous = 1;
    }
    if (ambiguous) {
        size_t used = (size_t)snprintf(msg, msglen, "\"%s\" is ambiguous: ", token);
        for (int64_t r = row; r >= 0 && used < msglen; r = x->next_same[r])
            used += (size_t)snprintf(msg + used, msglen - used, "%s\"%s\" (eid %lld)", r == row ? "" : ", ",
                                     x->t->name[r], (long long)x->t->eid[r]);
        if (used < msglen) snprintf(msg + used, msglen - used, "; give the eid instead");
        free(norm);
        return -1;
    }
    if (row < 0) explain_unknown(x, token, norm, msg, msglen);
    free(norm);
    return row;
}

int64_t name_resolve(const name_index *x, const char *token, const char *source, const char *where) {
    char msg[1200];
    int64_t row = name_lookup(x, token, msg, sizeof msg);
    if (row < 0) die_input(source, where, "%s", msg);
    return row;
}

int64_t *name_resolve_list(const name_index *x, const char *list, const char *source, const char *where, int *n) {
    int64_t *rows = NULL;
    *n = 0;
    const char *sep = strchr(list, '\t') ? "\t" : ",";
    char *copy = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
        tok += strspn(tok, " \t");
        for (size_t len = strlen(tok); len && (tok[len - 1] == ' ' || tok[len - 1] == '\t');) tok[--len] = 0;
        if (!*tok) continue;
        char item[96];
        snprintf(item, sizeof item, "%.60s%sitem %d", where ? where : "", where ? " " : "", *n + 1);
        rows = xgrow(rows, *n, sizeof *rows);
        rows[(*n)++] = name_resolve(x, tok, source, item);
    }
    free(copy);
    return rows;
}

/* Row of a names-file line's first field (name or eid), -1 when not in the table. */
static int64_t entry_row(const name_index *x, const char *name) {
    char *norm = name_normalise(name);
    int64_t row = strmap_get(&x->by_name, norm, strlen(norm));
    if (row < 0 && norm[0] && strspn(norm, "0123456789") == strlen(norm) && strlen(norm) <= 18)
        row = intmap_get(x->row_of_eid, strtoll(norm, NULL, 10));
    free(norm);
    return row;
}

typedef struct {
    const name_index *x;
    name_alias_fn fn;
    void *ctx;
    char **fields;
    int cap;
} alias_reader;

static void alias_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)file;
    (void)lineno;
    alias_reader *l = ctx;
    int64_t row = entry_row(l->x, fields[0]);
    if (row < 0) return;
    for (int i = 1; i < n; i++) l->fn(l->ctx, row, fields[i]);
}

static void alias_dataset_line(void *ctx, const char *member, const char *where, int64_t lineno, char *line,
                               size_t len) {
    (void)member;
    alias_reader *l = ctx;
    if (memchr(line, 0, len) || utf8_invalid_offset(line, len) >= 0) {
        char pos[32];
        snprintf(pos, sizeof pos, "line %lld", (long long)lineno);
        die_input(where, pos, "invalid UTF-8 or a NUL byte (expected name<TAB>alias...)");
    }
    int n = names_line_split(line, &l->fields, &l->cap, NULL);
    if (n) alias_entry(l, where, lineno, l->fields, n);
}

void name_index_each_alias(const name_index *x, const char *path, name_alias_fn fn, void *ctx) {
    alias_reader l = {x, fn, ctx, NULL, 0};
    struct stat st;
    if (stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || text_source_is_archive(path)))
        dataset_read_lines(path, "aliases.txt", alias_dataset_line, &l);
    else names_file_read(path, alias_entry, &l);
    free(l.fields);
}

static void add_alias_entry(void *ctx, int64_t row, const char *alias) { name_index_add_alias(ctx, alias, row); }

int64_t name_index_load_aliases(name_index *x, const char *path) {
    int64_t before = x->nalias;
    name_index_each_alias(x, path, add_alias_entry, x);
    return x->nalias - before;
}

void name_index_open_dataset(name_index *x, entity_table *t, const char *dataset_path) {
    dataset_read_entities(dataset_path, t);
    name_index_init(x, t, NULL);
    name_index_load_aliases(x, dataset_path);
}

/* The dataset's names, indexed when the first line of names needs them. */
typedef struct {
    const char *dataset_path;
    entity_table t;
    name_index x;
    int loaded;
} query_names;

static int64_t *resolve_query_line(void *ctx, const char *line, const char *where, const char *pos, int *n) {
    query_names *qn = ctx;
    if (!qn->loaded) {
        name_index_open_dataset(&qn->x, &qn->t, qn->dataset_path);
        qn->loaded = 1;
    }
    int64_t *rows = name_resolve_list(&qn->x, line, where, pos, n);
    int64_t *eids = xmalloc(sizeof *eids * (size_t)(*n + 1));
    for (int i = 0; i < *n; i++) eids[i] = qn->t.eid[rows[i]];
    free(rows);
    return eids;
}

void name_read_queries(const char *dataset_path, query_set *qs) {
    query_names qn = {.dataset_path = dataset_path};
    dataset_read_queries(dataset_path, qs, resolve_query_line, &qn);
    if (qn.loaded) {
        name_index_free(&qn.x);
        entity_table_free(&qn.t);
    }
}
