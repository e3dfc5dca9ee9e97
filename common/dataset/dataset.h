/* dataset: read a ProbExpan/CGExpan dataset (docs/design.md §2) from a folder or an
 * archive (.tar.gz, .tar, .zip via libarchive, streamed, never unpacked).
 *
 * Member names are relative to the dataset root: an archive with one top folder
 * ("mini-ese/entity2id.txt") is seen as "entity2id.txt". Lines are delivered
 * without the trailing newline (CRLF and a leading UTF-8 BOM tolerated), with
 * 1-based line numbers, so callers can report "FILE:MEMBER:LINE". An archive
 * member matches at the root or below exactly one top folder; matches under two
 * different roots die (ambiguous). Reads are not reentrant: one thread at a time.
 * The parsers of entity2id.txt, query/ and gt/ below reject a NUL byte in a
 * (non-blank) line with exit 3 ("line N: NUL byte at column C");
 * dataset_read_lines delivers lines as they are (len counts any NUL). */
#ifndef PROBEXPAN_DATASET_H
#define PROBEXPAN_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"

/* Called for each line of each selected member. `where` is a printable location
 * prefix such as "data.tar.gz:gt/us_states.txt" for error messages. */
typedef void (*dataset_line_fn)(void *ctx, const char *member, const char *where, int64_t lineno,
                                char *line, size_t len);

/* Streams every member whose relative name equals `name` (when it does not end in
 * '/') or lies directly in folder `name` (when it ends in '/', e.g. "query/"),
 * in name order. Returns how many members were read. A truncated or unreadable
 * archive dies with exit 3. */
int dataset_read_lines(const char *dataset_path, const char *name, dataset_line_fn fn, void *ctx);

/* Entity table from entity2id.txt: name<TAB>eid per line. Duplicate eids or names
 * and malformed lines die with exit 3. */
typedef struct {
    int64_t n;
    int64_t *eid;      /* eid[i] of line i */
    char **name;       /* name[i] */
} entity_table;
void dataset_read_entities(const char *dataset_path, entity_table *t);
void entity_table_free(entity_table *t);
/* Fills dst with a copy of src (its own eids and names; entity_table_free). */
void entity_table_copy(entity_table *dst, const entity_table *src);
/* Initialises row_of_eid (intmap_free) and fills it eid -> row of t. */
void entity_table_row_map(const entity_table *t, intmap *row_of_eid);

/* Queries: query/<class>.txt, one query per line: space-separated seed eids, or
 * names / aliases / eids separated by tabs (else commas), which `resolve` turns into
 * eids once every line has been read (name_read_queries in entitynames.h resolves them
 * against entity2id.txt and aliases.txt; unknown names exit 3);
 * "EXIT" ends a file early. Ground truth: gt/<class>.txt, eid<TAB>name<TAB>label,
 * label >= 1 = member. Classes are sorted by name. */
typedef struct {
    char *class_name;
    int nseeds;
    int64_t *seeds;     /* eids */
} dataset_query;
typedef struct {
    int n;
    dataset_query *q;
} query_set;
/* Resolves one query line of names: returns its seeds as eids (malloc'd, room for *n + 1),
 * or dies with exit 3 naming `where` and `pos` ("line 3"). */
typedef int64_t *(*dataset_names_fn)(void *ctx, const char *line, const char *where, const char *pos, int *n);
void dataset_read_queries(const char *dataset_path, query_set *qs, dataset_names_fn resolve, void *ctx);
void query_set_free(query_set *qs);

typedef struct {
    char *class_name;
    int64_t n;
    int64_t *members;   /* eids with label >= 1, in file order */
} gt_class;
typedef struct {
    int n;
    gt_class *c;
} gt_set;
/* Dies with exit 3 naming the line on an empty gt file, an eid listed twice in one
 * class file (a repeated member would count twice in MAP) and, when the dataset has an
 * entity2id.txt, an eid that is not one of its entities. */
void dataset_read_gt(const char *dataset_path, gt_set *gs);
void gt_set_free(gt_set *gs);

#endif
