/* text_reader: per-document format detection and dispatch to the readers (see text_reader.h). */
#include "text/text_reader.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "text/link_markup.h"
#include "text/text_source.h"

#define SAMPLE (256u << 10)

struct text_reader {
    text_reader_options o;
    clean_sink out;
    /* the current document */
    char *sample;
    size_t slen, scap;
    int sampling;             /* the sample is being read (lines joined by "\n") */
    int64_t first_lineno;     /* line number of the sample's first line */
    int has_text;
    int64_t col;              /* bytes of the current line so far */
    const format_reader *reader;
    void *r;
    link_filter *filter;
    /* the whole run */
    int64_t docs[TEXT_FORMAT_COUNT], entries;
    unsigned logged[TEXT_FORMAT_COUNT]; /* link-markup kinds already logged, per format (bit 1 << links) */
};

static const format_reader *const READERS[TEXT_FORMAT_COUNT] = {
    NULL, &plain_reader, &lines_reader, &dictd_reader, &markdown_reader, &html_reader};

static void begin(void *ctx, const char *doc) {
    (void)doc;
    text_reader *t = ctx;
    t->slen = 0;
    t->sampling = 1;
    t->first_lineno = 1;
    t->has_text = 0;
    t->col = 0;
}

/* The sample is complete: detect, open the reader, replay the sample. */
static void start_reader(text_reader *t, const char *doc) {
    text_detection d;
    text_format_detect(t->o.format, doc, t->sample, t->slen, &d);
    if (!(t->logged[d.format] & (1u << d.links))) {
        t->logged[d.format] |= 1u << d.links;
        log_info("%s: format %s (%s%s)", doc, text_format_name(d.format),
                 t->o.format != TEXT_FORMAT_AUTO ? "" : t->sampling && t->slen >= SAMPLE ? "detected in the first 256 KiB: "
                                                                                          : "detected: ",
                 d.evidence);
    }
    t->docs[d.format]++;
    t->filter = link_filter_new(&t->out, d.links);
    t->reader = READERS[d.format];
    reader_options ro = {t->o.ids, &t->entries};
    t->r = t->reader->open(link_filter_sink(t->filter), doc, &ro);
    t->sampling = 0;
    int64_t lineno = t->first_lineno;
    size_t i = 0;
    while (i < t->slen) {
        const char *nl = memchr(t->sample + i, '\n', t->slen - i);
        size_t e = nl ? (size_t)(nl - t->sample) : t->slen;
        t->reader->line(t->r, lineno, t->sample + i, e - i, nl != NULL); /* no "\n": a line's first piece */
        lineno++;
        i = e + 1;
    }
}

static void line(void *ctx, const char *doc, int64_t lineno, const char *s, size_t len, int eol) {
    text_reader *t = ctx;
    t->col += (int64_t)len;
    if (t->col > t->o.max_line) {
        char where[32];
        snprintf(where, sizeof where, "line %lld", (long long)lineno);
        die_input(doc, where, "line longer than %ld bytes (--max-line)", t->o.max_line);
    }
    for (size_t i = 0; i < len && !t->has_text; i++) t->has_text = !isspace((unsigned char)s[i]);
    if (t->sampling) {
        if (t->slen + len + 1 > t->scap) {
            t->scap = (t->slen + len + 1) * 2;
            t->sample = xrealloc(t->sample, t->scap);
        }
        memcpy(t->sample + t->slen, s, len);
        t->slen += len;
        if (eol) t->sample[t->slen++] = '\n';
        if (t->slen >= SAMPLE) start_reader(t, doc);
    } else {
        t->reader->line(t->r, lineno, s, len, eol);
    }
    if (eol) t->col = 0;
}

static void end(void *ctx, const char *doc) {
    text_reader *t = ctx;
    if (!t->has_text) die_input(doc, "line 1", "no text (an empty file, or only white space)");
    if (t->sampling) start_reader(t, doc);
    t->reader->close(t->r);
    link_filter_free(t->filter);
}

text_reader *text_reader_new(const text_reader_options *o, const clean_sink *out) {
    text_reader *t = xcalloc(1, sizeof *t);
    t->o = *o;
    t->out = *out;
    return t;
}

void text_reader_read(text_reader *t, const char *input) {
    text_sink sink = {t, begin, line, end};
    text_source_read(input, &sink);
}

void text_reader_summary(const text_reader *t) {
    char line[256] = "", c[32];
    size_t n = 0;
    int kinds = 0;
    for (int f = 1; f < TEXT_FORMAT_COUNT; f++) {
        if (!t->docs[f]) continue;
        kinds++;
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s %s", n ? ", " : "", fmt_count(c, t->docs[f]),
                              text_format_name((text_format)f));
    }
    if (kinds > 1) log_info("documents by format: %s", line);
    if (t->entries) log_info("dictd: %s entries read as \"Headword : definition\"", fmt_count(c, t->entries));
}

void text_reader_free(text_reader *t) {
    if (!t) return;
    free(t->sample);
    free(t);
}

void text_reader_options_parse(text_reader_options *o, const char *format, int lines, int ids, long max_line) {
    *o = (text_reader_options){TEXT_FORMAT_AUTO, ids, max_line};
    if (text_format_parse(format, &o->format) != 0)
        die_usage("--format %s: expected auto, plain, lines, dictd, markdown or html", format);
    if (lines && o->format != TEXT_FORMAT_AUTO && o->format != TEXT_FORMAT_LINES)
        die_usage("--lines is --format lines: it cannot go with --format %s", format);
    if (lines || (ids && o->format == TEXT_FORMAT_AUTO)) o->format = TEXT_FORMAT_LINES;
    if (ids && o->format != TEXT_FORMAT_LINES) die_usage("--ids needs the lines format (--format lines)");
}
