/* fuzz_index: libFuzzer target for the index artifact reader (index_read,
 * common/artifacts/index.h). The input is the file. For an accepted file the reader's
 * promise is checked: the counts are safe to use unchecked — a pattern model derived from
 * them (pattern_model_from_counts) gives every entity a sparse row whose values sum to 1,
 * every eid maps back to its row and is >= 0, every name is non-empty, every count is at most
 * PATTERN_MAX per mention of its entity and every feature key is listed once. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/index.h"
#include "model/pattern_model.h"
#include "fuzz.h"

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static corpus_index x;
    const char *path = fuzz_input_file("index.mp", data, size);
    FUZZ_OPEN(index_read(&x, path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    int64_t E = x.ent.n;
    FUZZ_ASSERT(E >= 1 && x.counts.E == E);
    for (int64_t i = 0; i < E; i++)
        FUZZ_ASSERT(intmap_get(&x.row_of_eid, x.ent.eid[i]) == i && x.ent.eid[i] >= 0 && x.ent.name[i][0]);
    const pattern_counts *k = &x.counts;
    for (int64_t p = 0; p < k->foff[k->F]; p++) FUZZ_ASSERT(k->cnt[p] <= x.mentions[k->ent[p]] * PATTERN_MAX);
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)(k->F + 1));
    memcpy(keys, k->key, sizeof(uint64_t) * (size_t)k->F);
    qsort(keys, (size_t)k->F, sizeof *keys, cmp_u64);
    for (int64_t f = 1; f < k->F; f++) FUZZ_ASSERT(keys[f] != keys[f - 1]);
    free(keys);
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
