/* entitynames: resolve what a person types (an entity name or an eid) to a row of
 * an entity table, for `expand --seeds "Ohio,Texas,Iowa"` and query files.
 *
 * Names are compared after normalisation: Unicode case folding (utf8proc),
 * '_' as a space, runs of white space collapsed, leading/trailing space dropped
 * ("united_states" finds "United States"). A token of digits that is an eid of
 * the table resolves to that row. An unknown token dies with exit 3 and the five
 * closest names (edit distance of the normalised forms); a token matching several
 * entities dies with exit 3 listing them. */
#ifndef PROBEXPAN_ENTITYNAMES_H
#define PROBEXPAN_ENTITYNAMES_H

#include <stdint.h>

#include "dataset/dataset.h"
#include "base/hashmap.h"

typedef struct {
    const entity_table *t;
    const intmap *row_of_eid; /* eid -> row */
    strmap by_name;           /* normalised name -> first row with it */
    int64_t *next_same;       /* next row with the same normalised name, or -1 */
    char **norm;              /* normalised name of each row */
} name_index;

void name_index_init(name_index *x, const entity_table *t, const intmap *row_of_eid);
void name_index_free(name_index *x);
/* malloc'd normalised form of s. */
char *name_normalise(const char *s);
/* Row of `token`; dies (exit 3) as described above; `source`/`where` name the
 * input for the message (e.g. "--seeds", "item 2"). */
int64_t name_resolve(const name_index *x, const char *token, const char *source, const char *where);

#endif
