/* fuzz_queries: libFuzzer target for the query/<class>.txt parser
 * (name_read_queries, common/dataset/entitynames.c over dataset.c). The input is split at its first
 * form feed (\f) into query/a.txt and query/b.txt of a dataset folder, so
 * member order, EXIT handling and several members are exercised. */
#include <stdint.h>

#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *dir = fuzz_write_two_members("queries", "query", data, size);
    static query_set qs;
    memset(&qs, 0, sizeof qs);
    FUZZ_OPEN(name_read_queries(dir, &qs));
    if (fuzz_rc == 0) {
        FUZZ_ASSERT(qs.n >= 1);
        for (int i = 0; i < qs.n; i++) {
            FUZZ_ASSERT(!strcmp(qs.q[i].class_name, "a") || !strcmp(qs.q[i].class_name, "b"));
            FUZZ_ASSERT(i == 0 || strcmp(qs.q[i - 1].class_name, qs.q[i].class_name) <= 0);
            for (int k = 0; k < qs.q[i].nseeds; k++) FUZZ_ASSERT(qs.q[i].seeds[k] >= 0);
        }
    }
    query_set_free(&qs); /* also a partial set after a trapped error */
    return 0;
}
