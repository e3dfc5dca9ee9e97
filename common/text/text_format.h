/* text_format: the layouts annotate reads raw text in, and the detector that tells
 * them apart from a document's name and its first bytes (annotate --format).
 *
 *  plain     wrapped prose: paragraphs separated by blank lines, a single line
 *            break is a space (hard-wrapped files such as the Jargon File);
 *  lines     one document per line (a sentence or a paragraph per line);
 *  dictd     a dictionary with each headword alone at column 0 and its
 *            definition indented below (dictfmt's text, FOLDOC);
 *  markdown  CommonMark-style text; html: HTML pages.
 *
 * Detection, in this order: the name's extension (.md .markdown -> markdown,
 * .html .htm .xhtml -> html); an HTML doctype or <html> at the start; dictd when
 * at least 3 runs of at most 4 short column-0 lines are each followed by an
 * indented block, those runs are >= 60 % of the column-0 runs, one per 40
 * non-blank lines or more (not a few section titles), and indented lines are
 * >= 40 % of the non-blank lines; html by >= 10 known tags of which >= 3
 * closing; markdown by headings, code fences and [label](url) links; else lines
 * vs plain by where the line breaks fall: in hard-wrapped text the first word of
 * the next line would not have fitted on the line (the line is full). When >= 5
 * pairs of consecutive non-blank lines exist and fewer than half of them break
 * a full line, each line stands alone: lines; otherwise plain (also for short
 * texts: the layout annotate always read).
 *
 * Link markup (link_markup.h) is detected beside the layout, for every format
 * but html: {target} links when >= 3 braces look like links ("{IBM}'s") and
 * they are >= 70 % of all "{"; [[wiki]] links from 2 of them; Markdown
 * [label](url) links in markdown. */
#ifndef PROBEXPAN_TEXT_FORMAT_H
#define PROBEXPAN_TEXT_FORMAT_H

#include <stddef.h>

typedef enum {
    TEXT_FORMAT_AUTO,
    TEXT_FORMAT_PLAIN,
    TEXT_FORMAT_LINES,
    TEXT_FORMAT_DICTD,
    TEXT_FORMAT_MARKDOWN,
    TEXT_FORMAT_HTML,
    TEXT_FORMAT_COUNT
} text_format;

/* Link syntaxes (bits): which markup link_markup.h strips. */
enum { LINK_BRACES = 1, LINK_WIKI = 2, LINK_MARKDOWN = 4 };

/* "auto", "plain", ... */
const char *text_format_name(text_format f);
/* 0 and *f set when name is a format's name, else -1. */
int text_format_parse(const char *name, text_format *f);

typedef struct {
    text_format format;
    int links;          /* LINK_* bits */
    char evidence[200]; /* why, e.g. "5,990 headwords at column 0 followed by indented blocks" */
} text_detection;

/* Detects the layout (when `format` is TEXT_FORMAT_AUTO, else keeps it) and the
 * link markup of the document named `doc` from its first bytes sample[0..len)
 * (lines joined by "\n"). */
void text_format_detect(text_format format, const char *doc, const char *sample, size_t len, text_detection *out);

#endif
