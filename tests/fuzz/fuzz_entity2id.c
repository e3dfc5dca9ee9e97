/* fuzz_entity2id: libFuzzer target for the entity2id.txt parser
 * (dataset_read_entities, common/dataset/dataset.c). The input is the whole file of a
 * dataset folder; a parsed table must hold non-empty, distinct names and
 * distinct eids (the contract of dataset.h). */
#include <stdint.h>

#include "dataset/dataset.h"
#include "fuzz.h"
#include "base/hashmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char dir[256], file[300];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", fuzz_path("entity2id"));
        snprintf(file, sizeof file, "%s/entity2id.txt", dir);
        fuzz_mkdir(dir);
    }
    fuzz_write(file, data, size);
    static entity_table t;
    memset(&t, 0, sizeof t);
    FUZZ_OPEN(dataset_read_entities(dir, &t));
    if (fuzz_rc == 0) {
        FUZZ_ASSERT(t.n >= 1);
        intmap eids;
        strmap names;
        intmap_init(&eids);
        strmap_init(&names);
        for (int64_t i = 0; i < t.n; i++) {
            FUZZ_ASSERT(t.eid[i] >= 0);
            FUZZ_ASSERT(t.name[i][0] != 0);
            FUZZ_ASSERT(intmap_put(&eids, t.eid[i], i) < 0);
            FUZZ_ASSERT(strmap_put(&names, t.name[i], strlen(t.name[i]), i) < 0);
        }
        intmap_free(&eids);
        strmap_free(&names);
    }
    entity_table_free(&t); /* also a partial table after a trapped error */
    return 0;
}
