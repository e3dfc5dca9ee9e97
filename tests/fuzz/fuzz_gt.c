/* fuzz_gt: libFuzzer target for the gt/<class>.txt parser (dataset_read_gt,
 * common/dataset/dataset.c). The input is split at its first form feed (\f) into
 * gt/a.txt and gt/b.txt of a dataset folder. A parsed set has one class per
 * member, each with at least one member eid. */
#include <stdint.h>

#include "dataset/dataset.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *dir = fuzz_write_two_members("gt", "gt", data, size);
    static gt_set gs;
    memset(&gs, 0, sizeof gs);
    FUZZ_OPEN(dataset_read_gt(dir, &gs));
    if (fuzz_rc == 0) {
        FUZZ_ASSERT(gs.n == (memchr(data, '\f', size) ? 2 : 1));
        for (int i = 0; i < gs.n; i++) {
            FUZZ_ASSERT(gs.c[i].n >= 1);
            for (int64_t k = 0; k < gs.c[i].n; k++) FUZZ_ASSERT(gs.c[i].members[k] >= 0);
        }
    }
    gt_set_free(&gs); /* also a partial set after a trapped error */
    return 0;
}
