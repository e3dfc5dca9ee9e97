/* entitynames: resolve what a person types (an entity name or an eid) to a row of
 * an entity table, for `expand --seeds "Ohio,Texas,Iowa"` and query files.
 *
 * Names are compared after normalisation: Unicode case folding (utf8proc),
 * '_' as a space, runs of white space collapsed, leading/trailing space dropped
 * ("united_states" finds "United States"). A token of digits that is an eid of
 * the table resolves to that row. An unknown token dies with exit 3 and the five
 * closest names (edit distance of the normalised forms); a token matching several
 * entities resolves to the one spelled exactly like it ("BANGKOK" next to
 * "Bangkok"), and without one dies with exit 3 listing them. Aliases (another name of an entity,
 * "IBM" for "International Business Machines") resolve like names once added. */
#ifndef PROBEXPAN_ENTITYNAMES_H
#define PROBEXPAN_ENTITYNAMES_H

#include <stdint.h>

#include "dataset/dataset.h"
#include "base/hashmap.h"

typedef struct {
    const entity_table *t;
    const intmap *row_of_eid; /* eid -> row: the caller's, or own_row_of_eid */
    intmap *own_row_of_eid;   /* the map name_index_init built when given none, else NULL */
    strmap by_name;           /* normalised name -> first row with it */
    int64_t *next_same;       /* next row with the same normalised name, or -1 */
    char **norm;              /* normalised name of each row */
    strmap by_alias;          /* normalised alias -> its first entry in alias_row */
    int64_t *alias_row;       /* entry -> row the alias names */
    int64_t *alias_next;      /* entry -> next entry of the same alias (another row), or -1 */
    int64_t nalias, alias_cap;
} name_index;

/* Indexes the names of t (which must outlive x); row_of_eid maps t's eids to rows and must
 * outlive x too, or is NULL for x to build (and free) its own (entity_table_row_map). */
void name_index_init(name_index *x, const entity_table *t, const intmap *row_of_eid);
void name_index_free(name_index *x);
/* malloc'd normalised form of s. */
char *name_normalise(const char *s);
/* Row of `token`, or -1 with the reason in msg (unknown: the five closest names; ambiguous:
 * every entity it names), for callers that report bad input themselves (the query engine).
 * msg should hold >= 1024 bytes to keep every suggestion. */
int64_t name_lookup(const name_index *x, const char *token, char *msg, size_t msglen);
/* Levenshtein distance of two byte strings (their first 255 bytes): how close a typed
 * name is to a known one. */
int name_edit_distance(const char *a, const char *b);
/* Keeps the rows closest to a typed name, at most `cap`, in rows[0..*n) with their distances
 * in dist[], nearest first (of equal distances the one added first): adds row r at distance d. */
void name_closest_add(int64_t *rows, int *dist, int *n, int cap, int64_t r, int d);
/* Row of `token`; dies (exit 3) as described above; `source`/`where` name the
 * input for the message (e.g. "--seeds", "item 2"). */
int64_t name_resolve(const name_index *x, const char *token, const char *source, const char *where);

/* Resolves the items of `list` — separated by tabs when it has one, else by
 * commas; blank items skipped — to rows (*n of them; malloc'd). Messages name
 * `source`, then `where` (may be NULL) and the item number ("item 2"). */
int64_t *name_resolve_list(const name_index *x, const char *list, const char *source, const char *where, int *n);

/* Loads aliases from `path`: a names file (schemas/names.md: name<TAB>alias...)
 * or a dataset folder/archive (its aliases.txt, same format; none is fine).
 * Each line's first field is resolved like a seed (its name or eid); lines
 * naming an entity the table does not have (e.g. dropped by --min-mentions)
 * are skipped. Returns the number of aliases added. */
int64_t name_index_load_aliases(name_index *x, const char *path);
/* The names of a dataset: its entity table read into t, indexed into x with its aliases.txt
 * (x refers to t: free x, then t). */
void name_index_open_dataset(name_index *x, entity_table *t, const char *dataset_path);
/* The same reading without adding: fn(ctx, row, alias) for each alias the file gives an
 * entity of the table (e.g. to show aliases as they are written). */
typedef void (*name_alias_fn)(void *ctx, int64_t row, const char *alias);
void name_index_each_alias(const name_index *x, const char *path, name_alias_fn fn, void *ctx);

/* A dataset's query/ files (dataset_read_queries), their lines of names resolved against
 * the dataset's entity2id.txt and aliases.txt. */
void name_read_queries(const char *dataset_path, query_set *qs);

#endif
