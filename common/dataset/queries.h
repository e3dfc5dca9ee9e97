/* queries: the seed sets an expansion or a model selection starts from, resolved
 * to rows of a dists artifact.
 *
 * Sources:
 *  - a dataset (folder or archive): query/<class>.txt via common/dataset.h; every
 *    seed eid must be an entity of the dataset's entity2id.txt (when it has one)
 *    and have a row in the dists — otherwise exit 3 naming class and query;
 *  - a query file (a regular file named *.txt): class = the file's stem, one
 *    query per line, "EXIT" ends it; a line with a comma lists names or eids
 *    separated by commas, else seed eids separated by spaces (dataset format);
 *  - a list "Ohio,Texas,Iowa" (names or eids, common/entitynames.h).
 * Queries keep file order; `index` counts queries within their class (0-based). */
#ifndef PROBEXPAN_QUERIES_H
#define PROBEXPAN_QUERIES_H

#include <stdint.h>

#include "artifacts/dists.h"
#include "dataset/entitynames.h"

typedef struct {
    char *class_name;
    int index;
    int nseeds;
    int64_t *rows;
} query_rows;

typedef struct {
    int n;
    query_rows *q;
} query_list;

/* Loads a dataset's query/ folder or a query file (see above). */
void queries_load(query_list *ql, const char *path, const dists *d, const name_index *names);
/* Appends one query made of the comma-separated `list` (exit 3 when empty). */
void queries_add_list(query_list *ql, const char *class_name, const char *list, const name_index *names,
                      const char *source);
/* Resolves a comma-separated list to rows (*n of them; malloc'd); messages name
 * `source`, then `where` (may be NULL) and the item number. */
int64_t *resolve_list(const char *list, const name_index *names, const char *source, const char *where, int *n);
void query_list_free(query_list *ql);
/* Distinct class names in first-appearance order (pointers into ql; malloc'd array). */
int query_classes(const query_list *ql, const char ***classes);

#endif
