/* names_file: the name<TAB>alias... entity-names format: its lines and its comment (contract in
 * names_file.h). */
#include "dataset/names_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/text_source.h"

int names_line_split(char *line, char ***fields, int *cap, const char **comment) {
    int n = 0;
    char *p = line;
    if (comment) *comment = NULL;
    while (p) {
        p += strspn(p, " ");
        if (*p == '#') {
            if (comment) *comment = p;
            break;
        }
        char *tab = strchr(p, '\t');
        if (tab) *tab = 0;
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
    int n = names_line_split(r->buf, &r->fields, &r->fcap, NULL);
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

int names_text_lines(const char *text, size_t len, names_text_fn fn, void *ctx, char *err, size_t errlen) {
    char *line = NULL, **fields = NULL;
    int fcap = 0, rc = 0;
    size_t at = 0;
    for (int64_t lineno = 1; at < len && !rc; lineno++) {
        const char *raw = text + at, *nl = memchr(raw, '\n', len - at);
        size_t rawlen = nl ? (size_t)(nl - raw) : len - at, skip = at ? 0 : utf8_bom_length(raw, rawlen);
        size_t n = rawlen - skip - (nl && rawlen > skip && raw[rawlen - 1] == '\r');
        if (n > NAMES_MAX_LINE || utf8_invalid_offset(raw + skip, n) >= 0) {
            snprintf(err, errlen, "line %lld: %s", (long long)lineno,
                     n > NAMES_MAX_LINE ? "longer than 1 MiB" : "not valid UTF-8, or a NUL byte");
            rc = -1;
            break;
        }
        line = xrealloc(line, n + 1);
        memcpy(line, raw + skip, n);
        line[n] = 0;
        const char *comment;
        int k = names_line_split(line, &fields, &fcap, &comment);
        fn(ctx, raw, rawlen + !!nl, fields, k, comment);
        at += rawlen + 1;
    }
    free(line);
    free(fields);
    return rc;
}

void names_comment_write(FILE *f, int64_t mentions, const char *merged) {
    fprintf(f, "# %lld mentions", (long long)mentions);
    if (merged) fprintf(f, "; merged: %s", merged);
}

char *names_merged_add(char *merged, const char *alias, const char *rule) {
    char *m = xasprintf("%s%s%s (%s)", merged ? merged : "", merged ? ", " : "", alias, rule);
    free(merged);
    return m;
}

int64_t names_comment_mentions(const char *comment) {
    if (!comment) return -1;
    const char *p = comment + 1;
    p += strspn(p, " ");
    char *end;
    if (*p < '0' || *p > '9') return -1;
    long long v = strtoll(p, &end, 10);
    return strncmp(end, " mention", 8) ? -1 : v;
}

char *names_comment_with_mentions(const char *comment, int64_t total) {
    const char *p = comment + 1 + strspn(comment + 1, " ");
    p += strspn(p, "0123456789");
    return xasprintf("# %lld%s", (long long)total, p);
}

void names_comment_rule(const char *comment, const char *alias, char *rule, size_t cap) {
    rule[0] = 0;
    const char *tab = comment ? strchr(comment, '\t') : NULL, *m = comment ? strstr(comment, "merged: ") : NULL;
    if (!m || (tab && m > tab)) return;
    size_t first = tab ? (size_t)(tab - m) : strlen(m), alen = strlen(alias);
    for (const char *p = m + 8; p < m + first; p++) {
        if (strncmp(p, alias, alen) || strncmp(p + alen, " (", 2) || (p > m + 8 && strncmp(p - 2, ", ", 2))) continue;
        const char *r = p + alen + 2, *close = strchr(r, ')');
        if (!close || close > m + first) return;
        snprintf(rule, cap, "%.*s", (int)(close - r), r);
        return;
    }
}
