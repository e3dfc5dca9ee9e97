/* link_markup: strips link markup from clean text before sentence splitting,
 * keeping each link's visible text in the text and reporting it as a linked name
 * (strong evidence that it names something):
 *   {IBM}'s                    -> IBM's        (FOLDOC, the Jargon File; LINK_BRACES)
 *   {Reynolds paper (x.html)}  -> Reynolds paper (a trailing "(url)" dropped)
 *   [[Target|label]] [[Name]]  -> label, Name  (wiki; LINK_WIKI)
 *   [label](url)               -> label        (Markdown; LINK_MARKDOWN)
 *   ![alt](url)                -> nothing      (an image)
 * A "{" opens a link anywhere but after a TeX command or "$" ("\emph{x}" stays;
 * "re{routing}" -> "rerouting"): LINK_BRACES is only set for a text whose
 * braces look like links (text_format.h). Markup that does not close within 512 bytes, before a blank
 * line, the end of the document, or a nested opener is passed through as text.
 * Streaming: state carries across text pieces and lines. */
#ifndef PROBEXPAN_LINK_MARKUP_H
#define PROBEXPAN_LINK_MARKUP_H

#include "text/format_reader.h"

typedef struct link_filter link_filter;

/* A filter writing to `out` (copied); syntaxes: LINK_* bits of text_format.h
 * (0: text passes unchanged). */
link_filter *link_filter_new(const clean_sink *out, int syntaxes);
/* The sink to write to: its text is filtered, documents and links pass on. */
const clean_sink *link_filter_sink(link_filter *f);
void link_filter_free(link_filter *f);

#endif
