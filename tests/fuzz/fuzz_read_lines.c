/* fuzz_read_lines: libFuzzer target for the lines reader with ids (common/text/read_lines.c): ID<TAB>text lines, a missing tab or a long id is exit 3,
 * on arbitrary bytes through tests/fuzz/reader_fuzz.h (which says what is checked). */
#include <stdint.h>

#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader_fuzz_run(&lines_reader, LINK_BRACES, 1, data, size);
    return 0;
}
