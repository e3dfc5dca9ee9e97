/* fuzz_dists_rows: libFuzzer target for the dists-rows artifact reader (dists_rows_open, the
 * mapped rows through row_source_subset; common/artifacts/dists.h, common/method/rowsource.h).
 * The input is the file. For an accepted file: the rows are ascending entity rows, each found
 * again by row_subset_slot, and every matrix row can be read completely (or is refused as no
 * distribution, exit 3). */
#include <stdint.h>

#include "artifacts/dists.h"
#include "fuzz.h"
#include "method/rowsource.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static dists_rows d;
    const char *path = fuzz_input_file("dists-rows.mp", data, size);
    FUZZ_OPEN(dists_rows_open(&d, path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    FUZZ_ASSERT(d.ent.n >= 1 && d.prob.rows == d.nrows && d.prob.cols == d.ent.n);
    row_subset sub = {&d.prob, d.rows};
    row_source src = row_source_subset(&sub);
    volatile float sum = 0;
    for (int64_t i = 0; i < d.nrows; i++) {
        FUZZ_ASSERT(d.rows[i] >= 0 && d.rows[i] < d.ent.n && (i == 0 || d.rows[i] > d.rows[i - 1]));
        FUZZ_ASSERT(row_subset_slot(&sub, d.rows[i]) == i);
        const float *volatile p = NULL;
        FUZZ_TRY(p = src.row(src.ctx, d.rows[i], NULL)); /* a row that is no distribution: bad input */
        if (fuzz_rc) {
            FUZZ_ASSERT(fuzz_rc == EXIT_BADINPUT);
            dists_rows_close(&d);
            return 0;
        }
        for (int64_t k = 0; k < d.ent.n; k++) sum += p[k];
    }
    (void)sum;
    dists_rows_close(&d);
    return 0;
}
