/* fuzz_link_markup: libFuzzer target for the link-markup filter (common/text/link_markup.c) behind the plain reader, every syntax on,
 * on arbitrary bytes through tests/fuzz/reader_fuzz.h (which says what is checked). */
#include <stdint.h>

#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader_fuzz_run(&plain_reader, LINK_BRACES | LINK_WIKI | LINK_MARKDOWN, 0, data, size);
    return 0;
}
