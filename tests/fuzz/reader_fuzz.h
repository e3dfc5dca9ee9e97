/* reader_fuzz.h: the harness the format-reader fuzz targets share (fuzz_read_*.c,
 * fuzz_link_markup.c). The input's valid UTF-8 lines (text_source.h's contract:
 * invalid ones are skipped) go through a reader and a link filter, each line in
 * pieces of 1..16 bytes cut on code-point boundaries (the piece size is the
 * input's first byte mod 16 + 1; 0 = whole lines when that byte is even).
 * Checked on what comes out: documents open and close in turn (an article id
 * may be empty: "\ttext" with ids), text arrives
 * only inside a document and is valid UTF-8 without NUL bytes, every linked
 * name is non-empty valid UTF-8 with no white space at its ends and no run of
 * two spaces. Bad input (the lines format's ids) ends in exit 3 (FUZZ_TRY). */
#ifndef PROBEXPAN_READER_FUZZ_H
#define PROBEXPAN_READER_FUZZ_H

#include <ctype.h>

#include "fuzz.h"
#include "text/format_reader.h"
#include "text/link_markup.h"
#include "text/text_format.h"
#include "text/text_source.h"

static int reader_fuzz_open; /* a document is open */

static void rf_document(void *ctx, const char *article) {
    (void)ctx;
    FUZZ_ASSERT(!reader_fuzz_open && article); /* an empty ID<TAB> is an empty id, as before */
    reader_fuzz_open = 1;
}
static void rf_text(void *ctx, const char *s, size_t n) {
    (void)ctx;
    FUZZ_ASSERT(reader_fuzz_open && n > 0);
    FUZZ_ASSERT(utf8_invalid_offset(s, n) < 0);
}
static void rf_end(void *ctx) {
    (void)ctx;
    FUZZ_ASSERT(reader_fuzz_open);
    reader_fuzz_open = 0;
}
static void rf_link(void *ctx, const char *s, size_t n) {
    (void)ctx;
    FUZZ_ASSERT(n > 0 && utf8_invalid_offset(s, n) < 0);
    FUZZ_ASSERT(!isspace((unsigned char)s[0]) && !isspace((unsigned char)s[n - 1]));
    FUZZ_ASSERT(!memmem(s, n, "  ", 2));
}

/* Feeds the input's valid lines to reader r and closes it. */
static inline void reader_fuzz_feed(const format_reader *rd, void *r, const uint8_t *data, size_t size, size_t step) {
    const char *s = (const char *)data, *end = s + size;
    int64_t lineno = 1;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        size_t at = 0;
        if (utf8_invalid_offset(s, len) < 0) {
            do {
                size_t k = step && len - at > step ? step : len - at;
                while (at + k < len && ((unsigned char)s[at + k] & 0xC0) == 0x80) k++;
                rd->line(r, lineno, s + at, k, at + k == len);
                at += k;
            } while (at < len);
        }
        lineno++;
        s += len + 1;
    }
    rd->close(r);
    FUZZ_ASSERT(!reader_fuzz_open);
}

static inline void reader_fuzz_run(const format_reader *rd, int links, int ids, const uint8_t *data, size_t size) {
    size_t step = size && (data[0] & 1) ? (size_t)(data[0] % 16) + 1 : 0;
    clean_sink out = {NULL, rf_document, rf_text, rf_end, rf_link};
    int64_t entries = 0;
    reader_options o = {ids, &entries};
    reader_fuzz_open = 0;
    static link_filter *f;
    f = link_filter_new(&out, links);
    void *r = rd->open(link_filter_sink(f), "doc", &o);
    FUZZ_TRY(reader_fuzz_feed(rd, r, data, size, step));
    link_filter_free(f);
}

#endif
