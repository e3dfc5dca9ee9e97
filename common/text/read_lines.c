/* read_lines: the lines format — every non-blank line is a document of its own,
 * named "FILE:LINE", or with ids "ID<TAB>text" named ID (annotate --ids).
 * Bad input: a non-blank line without a tab, an id over 4095 bytes (exit 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "text/format_reader.h"

typedef struct {
    clean_sink out;
    char *doc;
    int ids;
    int in_id;     /* before the tab (ids) or before any text of the line */
    int open;      /* a document was started for this line */
    char id[4096];
    size_t idlen;
    int id_overflow;
} lines;

static void *lines_open(const clean_sink *out, const char *doc, const reader_options *o) {
    lines *r = xcalloc(1, sizeof *r);
    r->out = *out;
    r->doc = xstrdup(doc);
    r->ids = o->ids;
    r->in_id = 1;
    return r;
}

static void lines_line(void *rp, int64_t lineno, const char *s, size_t len, int eol) {
    lines *r = rp;
    char where[32];
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    if (r->ids && r->in_id) {
        const char *tab = memchr(s, '\t', len);
        size_t take = tab ? (size_t)(tab - s) : len;
        if (r->idlen + take >= sizeof r->id) r->id_overflow = 1;
        else memcpy(r->id + r->idlen, s, take), r->idlen += take;
        if (!tab && eol) {
            if (!len && !r->idlen) return; /* a blank line */
            die_input(r->doc, where, "expected ID<TAB>text (--ids), found no tab");
        }
        if (!tab) return;
        if (r->id_overflow) die_input(r->doc, where, "document id longer than %zu bytes", sizeof r->id - 1);
        r->id[r->idlen] = 0;
        r->in_id = 0;
        s = tab + 1;
        len -= take + 1;
    }
    if (len) {
        if (!r->open) {
            if (r->ids) {
                r->out.document(r->out.ctx, r->id);
            } else {
                char *article = xasprintf("%s:%lld", r->doc, (long long)lineno);
                r->out.document(r->out.ctx, article);
                free(article);
            }
            r->open = 1;
        }
        r->out.text(r->out.ctx, s, len);
    }
    if (eol) {
        if (r->open) r->out.end(r->out.ctx);
        r->open = 0;
        r->in_id = 1;
        r->idlen = 0;
        r->id_overflow = 0;
    }
}

static void lines_close(void *rp) {
    lines *r = rp;
    if (r->open) r->out.end(r->out.ctx);
    free(r->doc);
    free(r);
}

const format_reader lines_reader = {lines_open, lines_line, lines_close};
