/* format_reader: what every format's reader (read_plain.c, read_lines.c,
 * read_dictd.c, read_markdown.c, read_html.c) turns a document's lines into —
 * documents of clean text for the sentence splitter, markup removed, and the
 * names the markup linked — and the interface text_reader.c drives them by.
 *
 * Clean text is valid UTF-8 cut on code-point boundaries; a single "\n" is a
 * space to the splitter, "\n\n" ends a paragraph (and so a sentence). */
#ifndef PROBEXPAN_FORMAT_READER_H
#define PROBEXPAN_FORMAT_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    void *ctx;
    void (*document)(void *ctx, const char *article);      /* a document starts; article = its id */
    void (*text)(void *ctx, const char *s, size_t len);    /* clean text of the current document */
    void (*end)(void *ctx);                                /* the current document ends */
    /* a link's visible text (whitespace runs made single spaces), e.g. "IBM" of "{IBM}'s" */
    void (*link)(void *ctx, const char *name, size_t len); /* may be NULL */
} clean_sink;

typedef struct {
    int ids;          /* lines: each line is ID<TAB>text */
    int64_t *entries; /* dictd: incremented per entry read as "Headword : definition" (may be NULL) */
} reader_options;

/* A reader: open() for one document (calls out->document unless the format
 * makes one document per line), line() for each piece of line `lineno` (eol = 1
 * on the piece that ends it; a line's first piece holds its start), close() at
 * the end of the document (ends it, frees the reader). */
typedef struct {
    void *(*open)(const clean_sink *out, const char *doc, const reader_options *o);
    void (*line)(void *r, int64_t lineno, const char *s, size_t len, int eol);
    void (*close)(void *r);
} format_reader;

extern const format_reader plain_reader, lines_reader, dictd_reader, markdown_reader, html_reader;

#endif
