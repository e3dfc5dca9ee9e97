/* entitynames: normalised name lookup with suggestions for unknown names. */
#include "dataset/entitynames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "base/error.h"

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
    x->row_of_eid = row_of_eid;
    strmap_init(&x->by_name);
    x->next_same = xmalloc(sizeof(int64_t) * (size_t)(t->n + 1));
    x->norm = xmalloc(sizeof(char *) * (size_t)(t->n + 1));
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
}

/* Levenshtein distance of two byte strings, capped at 255-byte prefixes. */
static int edit_distance(const char *a, const char *b) {
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

#define NSUGGEST 5

static void die_unknown(const name_index *x, const char *token, const char *norm, const char *source,
                        const char *where) {
    int64_t best[NSUGGEST];
    int dist[NSUGGEST], k = 0;
    for (int64_t i = 0; i < x->t->n; i++) {
        int d = edit_distance(norm, x->norm[i]);
        if (k == NSUGGEST && d >= dist[k - 1]) continue;
        int pos = k < NSUGGEST ? k++ : NSUGGEST - 1;
        while (pos > 0 && d < dist[pos - 1]) {
            best[pos] = best[pos - 1];
            dist[pos] = dist[pos - 1];
            pos--;
        }
        best[pos] = i;
        dist[pos] = d;
    }
    char list[1024] = "";
    size_t used = 0;
    for (int i = 0; i < k && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\" (eid %lld)", i ? ", " : "",
                                 x->t->name[best[i]], (long long)x->t->eid[best[i]]);
    die_input(source, where, "unknown entity \"%s\"; closest names: %s", token, list);
}

int64_t name_resolve(const name_index *x, const char *token, const char *source, const char *where) {
    char *norm = name_normalise(token);
    int64_t row = strmap_get(&x->by_name, norm, strlen(norm));
    if (row < 0 && norm[0] && strspn(norm, "0123456789") == strlen(norm) && strlen(norm) <= 18)
        row = intmap_get(x->row_of_eid, strtoll(norm, NULL, 10));
    else if (row >= 0 && x->next_same[row] >= 0) {
        char list[1024] = "";
        size_t used = 0;
        for (int64_t r = row; r >= 0 && used < sizeof list; r = x->next_same[r])
            used += (size_t)snprintf(list + used, sizeof list - used, "%s\"%s\" (eid %lld)", r == row ? "" : ", ",
                                     x->t->name[r], (long long)x->t->eid[r]);
        die_input(source, where, "\"%s\" is ambiguous: %s; give the eid instead", token, list);
    }
    if (row < 0) die_unknown(x, token, norm, source, where);
    free(norm);
    return row;
}
