/* read_plain: the plain format — one document per file, its lines given as they
 * are (a single line break is a space to the sentence splitter, a blank line
 * ends a paragraph), so hard-wrapped sentences stay whole. */
#include <stdlib.h>

#include "base/error.h"
#include "text/format_reader.h"

typedef struct { clean_sink out; } plain;

static void *plain_open(const clean_sink *out, const char *doc, const reader_options *o) {
    (void)o;
    plain *r = xmalloc(sizeof *r);
    r->out = *out;
    r->out.document(r->out.ctx, doc);
    return r;
}

static void plain_line(void *rp, int64_t lineno, const char *s, size_t len, int eol) {
    (void)lineno;
    plain *r = rp;
    if (len) r->out.text(r->out.ctx, s, len);
    if (eol) r->out.text(r->out.ctx, "\n", 1);
}

static void plain_close(void *rp) {
    plain *r = rp;
    r->out.end(r->out.ctx);
    free(r);
}

const format_reader plain_reader = {plain_open, plain_line, plain_close};
