/* fuzz_artifact: libFuzzer target for the artifact reader. Every input is written
 * to a file and read completely (header, objects, row matrices); bad input must end
 * in die_input (trapped here), never in a crash, hang or out-of-bounds read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "artifact.h"
#include "error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz-artifact-%d.mp", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    jmp_buf trap;
    static artifact_reader *r; /* static: survives the longjmp */
    r = NULL;
    if (setjmp(trap) == 0) {
        error_set_trap(&trap);
        r = artifact_open(path, NULL, 1000);
        msgpack_object o;
        while (artifact_next(r, &o)) {
            if (artifact_is_matrix(&o)) {
                row_matrix m;
                artifact_matrix_rows(r, &o, &m);
                volatile float sum = 0;
                for (int64_t i = 0; i < m.rows; i++) sum += row_matrix_row(&m, i)[m.cols ? m.cols - 1 : 0];
            }
        }
    }
    error_set_trap(NULL);
    fclose(stderr);
    stderr = saved;
    artifact_close(r); /* also after a trapped error: no leak across iterations */
    return 0;
}
