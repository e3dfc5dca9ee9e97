/* fuzz_read_dictd: libFuzzer target for the dictd reader (common/text/read_dictd.c): headword blocks, category tags, dictfmt's entries and long-word lines,
 * on arbitrary bytes through tests/fuzz/reader_fuzz.h (which says what is checked). */
#include <stdint.h>

#include "reader_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader_fuzz_run(&dictd_reader, LINK_BRACES, 0, data, size);
    return 0;
}
