/* judged: parse ITEM<TAB>LABEL judgement files. */
#include "dataset/judged.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "dataset/names_file.h"

static void judged_entry(void *ctx, const char *file, int64_t lineno, char **fields, int n) {
    judged_list *j = ctx;
    char where[32], *end = NULL;
    snprintf(where, sizeof where, "line %lld", (long long)lineno);
    if (n != 2) die_input(file, where, "expected ITEM<TAB>LABEL (an eid or a name, then an integer), found %d field%s", n, n == 1 ? "" : "s");
    errno = 0;
    long long label = strtoll(fields[1], &end, 10);
    if (*end || errno) die_input(file, where, "expected an integer label after the tab, found \"%.40s\"", fields[1]);
    j->item = xgrow(j->item, j->n, sizeof *j->item);
    j->label = xgrow(j->label, j->n, sizeof *j->label);
    j->item[j->n] = xstrdup(fields[0]);
    j->label[j->n++] = label;
}

void judged_read(const char *path, judged_list *j) {
    memset(j, 0, sizeof *j);
    names_file_read(path, judged_entry, j);
    int64_t members = 0;
    for (int64_t i = 0; i < j->n; i++) members += j->label[i] >= 1;
    if (!members) die_input(path, NULL, "no judged member (a line ITEM<TAB>LABEL with LABEL >= 1)");
}

void judged_free(judged_list *j) {
    for (int64_t i = 0; i < j->n; i++) free(j->item[i]);
    free(j->item);
    free(j->label);
    memset(j, 0, sizeof *j);
}
