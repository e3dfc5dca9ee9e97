/* fuzz_read_markdown: libFuzzer target for the markdown reader (common/text/read_markdown.c): block structure and inline markup,
 * on arbitrary bytes through tests/fuzz/reader_fuzz.h (which says what is checked). */
#include <stdint.h>

#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader_fuzz_run(&markdown_reader, LINK_MARKDOWN | LINK_WIKI, 0, data, size);
    return 0;
}
