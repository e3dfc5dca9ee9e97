/* judged: a hand-judged file for evaluate --judged — a person's own relevance
 * judgements of entities, one per line: ITEM<TAB>LABEL, ITEM an eid or an entity
 * name (or alias), LABEL an integer, >= 1 = a member of the class, else not
 * (schemas/inputs.md). Read with the names-file rules (names_file.h: '#'
 * comments, blank lines skipped, fields trimmed). A line without a label or
 * with a label that is not an integer is bad input (exit 3, file and line). */
#ifndef PROBEXPAN_JUDGED_H
#define PROBEXPAN_JUDGED_H

#include <stdint.h>

typedef struct {
    int64_t n;
    char **item;      /* as written */
    int64_t *label;
} judged_list;

void judged_read(const char *path, judged_list *j);
void judged_free(judged_list *j);

#endif
