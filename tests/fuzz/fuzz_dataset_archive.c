/* fuzz_dataset_archive: libFuzzer target for datasets given as an archive
 * (common/dataset/dataset.c over libarchive: member matching below one top folder,
 * ambiguous roots, duplicate members, truncated data, line splitting). The
 * input is the archive file; entity2id.txt, query/, gt/ and sentences.json are
 * each read from it, every reader on its own (a failing one does not hide the
 * next). */
#include <stdint.h>

#include "dataset/dataset.h"
#include "dataset/entitynames.h"
#include "fuzz.h"

static void count_line(void *ctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member, (void)where;
    FUZZ_ASSERT(lineno >= 1);
    FUZZ_ASSERT(strlen(line) <= len); /* NUL-terminated at len (may hold NULs) */
    FUZZ_ASSERT(line[len] == 0);
    (*(int64_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_input_file("dataset.archive", data, size);
    static entity_table t;
    static query_set qs;
    static gt_set gs;
    static int64_t lines;
    memset(&t, 0, sizeof t);
    memset(&qs, 0, sizeof qs);
    memset(&gs, 0, sizeof gs);
    lines = 0;
    FUZZ_OPEN(dataset_read_entities(path, &t));
    FUZZ_OPEN(name_read_queries(path, &qs));
    FUZZ_OPEN(dataset_read_gt(path, &gs));
    FUZZ_OPEN(dataset_read_lines(path, "sentences.json", count_line, &lines));
    entity_table_free(&t); /* partial ones too */
    query_set_free(&qs);
    gt_set_free(&gs);
    return 0;
}
