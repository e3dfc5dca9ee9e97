/* fuzz_queries: libFuzzer target for the query/<class>.txt parser
 * (dataset_read_queries, common/dataset.c). The input is split at its first
 * form feed (\f) into query/a.txt and query/b.txt of a dataset folder, so
 * member order, EXIT handling and several members are exercised. */
#include <stdint.h>

#include "dataset.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char dir[256], qdir[300], fa[320], fb[320];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", fuzz_path("queries"));
        snprintf(qdir, sizeof qdir, "%s/query", dir);
        snprintf(fa, sizeof fa, "%s/a.txt", qdir);
        snprintf(fb, sizeof fb, "%s/b.txt", qdir);
        fuzz_mkdir(dir);
        fuzz_mkdir(qdir);
    }
    const uint8_t *ff = memchr(data, '\f', size);
    size_t na = ff ? (size_t)(ff - data) : size;
    fuzz_write(fa, data, na);
    if (ff) fuzz_write(fb, ff + 1, size - na - 1);
    else unlink(fb);
    static query_set qs;
    memset(&qs, 0, sizeof qs);
    FUZZ_OPEN(dataset_read_queries(dir, &qs));
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
