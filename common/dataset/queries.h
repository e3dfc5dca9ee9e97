/* queries: the seed sets an expansion or a model selection starts from, resolved
 * to entity rows (of a dists artifact or a corpus index: the rows of a name_index).
 *
 * Sources:
 *  - a dataset (folder or archive): query/<class>.txt via common/dataset/dataset.h; every
 *    seed eid must be an entity of the dataset's entity2id.txt (when it has one)
 *    and have a row — otherwise exit 3 naming class and query;
 *  - a query file (a regular file named *.txt): class = the file's stem, one
 *    query per line, "EXIT" ends it; a line of integers separated by spaces is
 *    seed eids (dataset format), any other line names, aliases or eids
 *    separated by tabs, or by commas when it has no tab (schemas/queries.md);
 *  - seeds typed on the command line (seed_input below; common/entitynames.h).
 * Queries keep file order; `index` counts queries within their class (0-based).
 * Every query has at least one seed (a line of only separators is exit 3); a seed
 * repeated within a query is kept once (one warning per query); more than
 * QUERIES_MAX_SEEDS distinct seeds in a query is exit 3. */
#ifndef PROBEXPAN_QUERIES_H
#define PROBEXPAN_QUERIES_H

#include <stdint.h>

#include "base/cli.h"
#include "dataset/entitynames.h"

#define QUERIES_MAX_SEEDS 1000

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

/* Loads a dataset's query/ folder or a query file (see above), seeds as rows of names'
 * entity table; rows_path names that table's file in messages. */
void queries_load(query_list *ql, const char *path, const char *rows_path, const name_index *names);

/* Seeds as a person types them; the three sources may be combined, in this order:
 *   --seeds LIST       names, aliases or eids separated by commas
 *   --seed NAME        one name (commas kept), repeatable
 *   --seeds-file FILE  one name, alias or eid per line (names-file rules:
 *                      blank lines and '#' comments skipped, fields after a tab ignored)
 * and the same three for the rejected entities (--negative-seeds, --negative,
 * --negative-seeds-file) and the accepted ones (--accepted, --accept, --accepted-file):
 * SEED_CLI_OPTIONS declares the nine options of every program that takes seeds. */
typedef struct {
    const char *list;
    cli_list names;
    const char *file;
} seed_input;
typedef struct {
    seed_input seeds, negatives, accepted;
} seed_options;
#define SEED_CLI_OPTIONS(so)                                                                                   \
    {"seeds", OPT_STRING, &(so).seeds.list, "LIST", "seed entities: names or eids, comma-separated", 0, 0},    \
    {"seed", OPT_LIST, &(so).seeds.names, "NAME", "one seed entity: a name (may contain commas) or eid", 0, 0}, \
    {"seeds-file", OPT_INPUT, &(so).seeds.file, "FILE", "seed entities: names or eids, one per line", 0, 0},   \
    {"negative-seeds", OPT_STRING, &(so).negatives.list, "LIST",                                                 \
     "rejected entities, comma-separated: never returned (query: also the refinement's hard negatives)", 0, 0}, \
    {"negative", OPT_LIST, &(so).negatives.names, "NAME", "one rejected entity: a name (may contain commas) or eid", 0, 0}, \
    {"negative-seeds-file", OPT_INPUT, &(so).negatives.file, "FILE", "rejected entities, one per line", 0, 0},  \
    {"accepted", OPT_STRING, &(so).accepted.list, "LIST",                                                        \
     "accepted entities, comma-separated: they join the seeds, never returned (expand records them with the "   \
     "seeds; query: the refinement's only positives besides the seeds)", 0, 0},                                  \
    {"accept", OPT_LIST, &(so).accepted.names, "NAME", "one accepted entity: a name (may contain commas) or eid", 0, 0}, \
    {"accepted-file", OPT_INPUT, &(so).accepted.file, "FILE", "accepted entities, one per line", 0, 0}
int seed_input_given(const seed_input *si);
/* The entities given as typed, for a program whose resolver reports instead of exiting (query:
 * the engine): the items of list (commas separate, blank items skipped), each of names, then
 * the first field of each entry of file (read here: a bad file exits 3). */
typedef struct {
    int n;
    char **v; /* malloc'd, each malloc'd */
} seed_tokens;
void seed_input_tokens(const seed_input *si, seed_tokens *t);
void seed_tokens_free(seed_tokens *t);
/* Appends one query made of the seeds given, resolved to rows (exit 3 when none). */
void queries_add_seeds(query_list *ql, const char *class_name, const seed_input *si, const name_index *names);
/* The rejected entities (--negative-seeds, --negative, --negative-seeds-file), resolved to
 * rows (*n of them; malloc'd), each kept once (a warning when repeated); one that is also a
 * seed of a query of ql is a usage error (exit 2). */
int64_t *queries_resolve_negatives(const query_list *ql, const seed_input *si, const name_index *names, int *n);
/* The accepted entities (--accepted, --accept, --accepted-file) join the seeds of every
 * query of ql, each once (a warning when repeated); one that is also a seed of a query or
 * one of the nneg negatives is a usage error (exit 2). Returns how many. */
int queries_add_accepted(query_list *ql, const seed_input *si, const name_index *names, const int64_t *neg, int nneg);
void query_list_free(query_list *ql);
/* Distinct class names in first-appearance order (pointers into ql; malloc'd array). */
int queries_classes(const query_list *ql, const char ***classes);

#endif
