/* fuzz_text_format: libFuzzer target for the format detector (common/text/text_format.h)
 * and the whole reading path (common/text/text_reader.h) on arbitrary bytes written
 * to a file: detection from the sample, the reader it picks, the empty-file and
 * --max-line checks and text_source.h's validation. Checked: the detector returns a
 * concrete format with evidence and only link bits it defines (no Markdown links
 * outside markdown, none for html); reading ends normally or in exit 3 (FUZZ_OPEN);
 * the clean text is valid UTF-8 inside balanced documents (reader_fuzz.h's sink). */
#include <stdint.h>

#include "reader_fuzz.h"
#include "text/text_format.h"
#include "text/text_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    text_detection d;
    const char *names[] = {"doc.txt", "doc.md", "doc.html"};
    text_format_detect(TEXT_FORMAT_AUTO, names[size % 3], (const char *)data, size, &d);
    FUZZ_ASSERT(d.format > TEXT_FORMAT_AUTO && d.format < TEXT_FORMAT_COUNT && d.evidence[0]);
    FUZZ_ASSERT((d.links & ~(LINK_BRACES | LINK_WIKI | LINK_MARKDOWN)) == 0);
    FUZZ_ASSERT(!(d.links & LINK_MARKDOWN) == (d.format != TEXT_FORMAT_MARKDOWN));
    FUZZ_ASSERT(d.format != TEXT_FORMAT_HTML || d.links == 0);
    const char *file = fuzz_input_file("text.txt", data, size);
    text_reader_options o = {size && data[0] < 0x40 ? (text_format)(data[0] % TEXT_FORMAT_COUNT) : TEXT_FORMAT_AUTO,
                             size > 1 && data[0] == 2 && data[1] == '\t', 4096};
    clean_sink out = {NULL, rf_document, rf_text, rf_end, rf_link};
    static text_reader *t;
    reader_fuzz_open = 0;
    t = text_reader_new(&o, &out);
    FUZZ_OPEN(text_reader_read(t, file));
    if (!fuzz_rc) FUZZ_ASSERT(!reader_fuzz_open);
    text_reader_free(t);
    return 0;
}
