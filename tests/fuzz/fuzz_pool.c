/* fuzz_pool: libFuzzer target for the pooled-judgements reader (common/dataset/pool.h,
 * evaluate --pool). The input is one pool file, states.tsv, of a pool folder beside a
 * 4-entity dataset (Ohio, Texas, New York, "1"; "Buckeye State" an alias of Ohio).
 * Checked: a read pool has the one class, each judged entity is an eid of the table,
 * judged once, with the label 0 or 1; bad input ends in exit 3. */
#include <stdint.h>

#include "dataset/pool.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char data_dir[300], pool_dir[320], file[340];
    if (!data_dir[0]) {
        snprintf(data_dir, sizeof data_dir, "%s", fuzz_path("pooldata"));
        snprintf(pool_dir, sizeof pool_dir, "%s/pool", data_dir);
        snprintf(file, sizeof file, "%s/states.tsv", pool_dir);
        fuzz_mkdir(data_dir);
        fuzz_mkdir(pool_dir);
        char path[400];
        snprintf(path, sizeof path, "%s/entity2id.txt", data_dir);
        const char ents[] = "Ohio\t10\nTexas\t11\nNew York\t12\n1\t13\n";
        fuzz_write(path, ents, sizeof ents - 1);
        snprintf(path, sizeof path, "%s/aliases.txt", data_dir);
        const char al[] = "Ohio\tBuckeye State\n";
        fuzz_write(path, al, sizeof al - 1);
    }
    fuzz_write(file, data, size);
    static pool_set p;
    memset(&p, 0, sizeof p);
    FUZZ_OPEN(pool_read(pool_dir, data_dir, &p));
    if (fuzz_rc == 0) {
        FUZZ_ASSERT(p.n == 1 && !strcmp(p.c[0].class_name, "states"));
        for (int64_t i = 0; i < p.c[0].n; i++) {
            FUZZ_ASSERT(p.c[0].eid[i] >= 10 && p.c[0].eid[i] <= 13);
            FUZZ_ASSERT(p.c[0].member[i] == 0 || p.c[0].member[i] == 1);
            for (int64_t j = 0; j < i; j++) FUZZ_ASSERT(p.c[0].eid[j] != p.c[0].eid[i]);
        }
        pool_free(&p);
    }
    return 0;
}
