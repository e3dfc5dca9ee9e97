/* fuzz_index: libFuzzer target for the index artifact reader (index_read,
 * common/artifacts/index.h). The input is the file. For an accepted file the reader's
 * promise is checked: the counts are safe to use unchecked — a pattern model derived from
 * them (pattern_model_from_counts) gives every entity a sparse row whose values sum to 1,
 * and every eid maps back to its row. */
#include <math.h>
#include <stdint.h>

#include "artifacts/index.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static corpus_index x;
    const char *path = fuzz_input_file("index.mp", data, size);
    FUZZ_OPEN(index_read(&x, path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    int64_t E = x.ent.n;
    FUZZ_ASSERT(E >= 1 && x.counts.E == E);
    for (int64_t i = 0; i < E; i++) FUZZ_ASSERT(intmap_get(&x.row_of_eid, x.ent.eid[i]) == i);
    if (E <= 64 && x.counts.foff[x.counts.F] <= 4096) { /* keep an iteration fast */
        pattern_model *m = pattern_model_from_counts(&x.cfg, &x.counts);
        pattern_scratch *s = pattern_scratch_new(m);
        for (int64_t e = 0; e < E; e++) {
            sparse_row r;
            pattern_model_sparse_row(m, NULL, e, s, &r);
            FUZZ_ASSERT(fabs(r.sum - 1) < 1e-4);
            sparse_row_free(&r);
        }
        pattern_scratch_free(s);
        pattern_model_free(m);
    }
    index_free(&x);
    return 0;
}
