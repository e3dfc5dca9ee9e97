/* fuzz_artifact: libFuzzer target for the generic artifact reader (common/format/artifact.h):
 * header checks, every payload object, row matrices. Bad input must end in
 * die_input (exit 3), never in a crash, a hang or a read outside the file; for an
 * accepted matrix every row is read in full. */
#include <stdint.h>

#include "format/artifact.h"
#include "fuzz.h"

static artifact_reader *reader; /* static: survives the trap's longjmp */

static void read_all(const char *path) {
    reader = artifact_open(path, NULL, 1000);
    msgpack_object o;
    while (artifact_next(reader, &o)) {
        if (!artifact_is_matrix(&o)) continue;
        row_matrix m;
        artifact_matrix_rows(reader, &o, &m);
        volatile float sum = 0;
        for (int64_t i = 0; i < m.rows; i++)
            for (int64_t j = 0; j < m.cols; j++) sum += row_matrix_row(&m, i)[j];
        (void)sum;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_input_file("artifact.mp", data, size);
    reader = NULL;
    FUZZ_OPEN(read_all(path));
    if (!fuzz_rc) artifact_close(reader); /* after a trapped error the mapping is released by FUZZ_OPEN */
    return 0;
}
