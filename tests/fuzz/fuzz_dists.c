/* fuzz_dists: libFuzzer target for the dists artifact reader (dists_open,
 * dists_row_of, dists_check_same_entities, the mapped matrices; common/artifacts/dists.h).
 * The input is the file. For an accepted file: every eid maps back to its
 * row, the V_e x V_e matrix can be read completely, and an artifact has
 * the same entities as itself. */
#include <stdint.h>

#include "artifacts/dists.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static dists d;
    const char *path = fuzz_input_file("dists.mp", data, size);
    FUZZ_OPEN(dists_open(&d, path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    int64_t n = dists_n(&d);
    FUZZ_ASSERT(n >= 1);
    volatile float sum = 0;
    for (int64_t i = 0; i < n; i++) {
        FUZZ_ASSERT(dists_row_of(&d, d.ent.eid[i]) == i);
        FUZZ_ASSERT(d.ent.name[i] != NULL);
        const float *volatile p = NULL;
        FUZZ_TRY(p = row_matrix_row(&d.prob, i)); /* a row that is no distribution: bad input */
        if (fuzz_rc) {
            FUZZ_ASSERT(fuzz_rc == EXIT_BADINPUT);
            dists_close(&d);
            return 0;
        }
        for (int64_t k = 0; k < n; k++) sum += p[k];
    }
    (void)sum;
    FUZZ_TRY(dists_check_same_entities(&d, &d));
    FUZZ_ASSERT(fuzz_rc == 0);
    dists_close(&d);
    return 0;
}
