/* fuzz_patmodel: libFuzzer target for the patmodel artifact reader (patmodel_read,
 * common/artifacts/patmodel.h). The input is the file. For an accepted file the reader's
 * promise is checked: 1..PATMODEL_MAX_MEMBERS members, fractions in (0, 1], weights finite,
 * positive and no more than the index's features. */
#include <math.h>
#include <stdint.h>

#include "artifacts/patmodel.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static patmodel p;
    const char *path = fuzz_input_file("patmodel.mp", data, size);
    FUZZ_OPEN(patmodel_read(&p, path));
    if (fuzz_rc) return 0; /* the half-built reader leaks, its mapping is released */
    FUZZ_ASSERT(p.n >= 1 && p.n <= PATMODEL_MAX_MEMBERS && p.entities >= 1 && p.features >= 0);
    for (int i = 0; i < p.n; i++) {
        const patmodel_member *m = &p.m[i];
        FUZZ_ASSERT(m->feature_fraction > 0 && m->feature_fraction <= 1);
        FUZZ_ASSERT(m->nweights >= 0 && m->nweights <= p.features);
        for (int64_t f = 0; f < m->nweights; f++) FUZZ_ASSERT(isfinite(m->weights[f]) && m->weights[f] > 0);
    }
    patmodel_free(&p);
    return 0;
}
