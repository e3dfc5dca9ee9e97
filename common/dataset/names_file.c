/* names_file: parse the name<TAB>alias... entity-names format. */
#include "dataset/names_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/text_source.h"

int names_line_split(char *line, char ***fields, int *cap) {
    int n = 0;
    char *p = line;
    while (p) {
        char *tab = strchr(p, '\t');
        if (tab) *tab = 0;
        while (*p == ' ') p++;
        if (*p == '#') break;
        size_t len = strlen(p);
        while (len && p[len - 1] == ' ') p[--len] = 0;
        if (len) {
            if (n == *cap) {
                *cap = *cap * 2 + 8;
                *fields = xrealloc(*fields, sizeof **fields * (size_t)*cap);
            }
            (*fields)[n++] = p;
        }
        p = tab ? tab + 1 : NULL;
    }
    return n;
}

typedef struct {
    names_entry_fn fn;
    void *ctx;
    char *buf;
    size_t len, cap;
    char **fields;
    int fcap;
    int64_t entries;
} reader;

static void on_line(void *vctx, const char *doc, int64_t lineno, const char *text, size_t len, int eol) {
    reader *r = vctx;
    if (r->len + len > NAMES_MAX_LINE) {
        char where[32];
        snprintf(where, sizeof where, "line %lld", (long long)lineno);
        die_input(doc, where, "line longer than %d bytes (expected name<TAB>alias... per line)", NAMES_MAX_LINE);
    }
    if (r->len + len + 1 > r->cap) {
        r->cap = (r->len + len + 1) * 2;
        r->buf = xrealloc(r->buf, r->cap);
    }
    memcpy(r->buf + r->len, text, len);
    r->len += len;
    r->buf[r->len] = 0;
    if (!eol) return;
    int n = names_line_split(r->buf, &r->fields, &r->fcap);
    if (n) {
        r->entries++;
        r->fn(r->ctx, doc, lineno, r->fields, n);
    }
    r->len = 0;
}

int64_t names_file_read(const char *path, names_entry_fn fn, void *ctx) {
    reader r = {fn, ctx, NULL, 0, 0, NULL, 0, 0};
    text_sink sink = {&r, NULL, on_line, NULL};
    text_source_read(path, &sink);
    free(r.buf);
    free(r.fields);
    return r.entries;
}
