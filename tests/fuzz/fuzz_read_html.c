/* fuzz_read_html: libFuzzer target for the html reader (common/text/read_html.c): tags, comments, script/style, character references, <a> links,
 * on arbitrary bytes through tests/fuzz/reader_fuzz.h (which says what is checked). */
#include <stdint.h>

#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader_fuzz_run(&html_reader, 0, 0, data, size);
    return 0;
}
