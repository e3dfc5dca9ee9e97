/* text_reader: raw text in any of annotate's formats (text_format.h) -> clean
 * documents for the sentence splitter. Each document text_source.h streams is
 * sampled (its first 256 KiB), its format detected when --format is auto (and
 * its link markup in any case), and its lines replayed through that format's
 * reader (format_reader.h) and link_markup.h. The first document of each
 * (format, links) kind is logged with the evidence:
 *   "foldoc.txt: format dictd (detected: 5,990 headwords at column 0 ...)".
 * Bad input dies with exit 3 naming the document and the position: what
 * text_source.h rejects (invalid UTF-8, NUL bytes), a line longer than
 * max_line bytes (streamed: never held in memory), a document with no text
 * (empty, or white space only). */
#ifndef PROBEXPAN_TEXT_READER_H
#define PROBEXPAN_TEXT_READER_H

#include <stdint.h>

#include "text/format_reader.h"
#include "text/text_format.h"

typedef struct {
    text_format format; /* TEXT_FORMAT_AUTO: per document */
    int ids;            /* lines format: ID<TAB>text */
    long max_line;      /* longest line in bytes */
} text_reader_options;
/* The options from a program's --format NAME (auto, plain, lines, dictd, markdown, html),
 * --lines (the same as --format lines) and --ids (needs the lines format, which it implies
 * with auto); a bad or contradictory choice exits 2. */
void text_reader_options_parse(text_reader_options *o, const char *format, int lines, int ids, long max_line);

typedef struct text_reader text_reader;

text_reader *text_reader_new(const text_reader_options *o, const clean_sink *out);
/* Reads every document of `input` (a path as text_source.h takes, "-" = stdin). */
void text_reader_read(text_reader *t, const char *input);
/* Logs how many documents each format read, the dictd entries and the links. */
void text_reader_summary(const text_reader *t);
void text_reader_free(text_reader *t);

#endif
