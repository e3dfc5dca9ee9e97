/* lexicon: what `probexpan serve` knows about entities besides the method — names, the
 * aliases people type, mention counts, prefix search for autocomplete, and example
 * sentences with the mention marked.
 *
 * Built once at start-up from the entity table of the method (the entities it can rank:
 * row i <-> eid, name; the corpus index's, which is the samples artifact's) and the dataset: its aliases.txt when present
 * (schemas/names.md: name or eid, then aliases), then its sentences.json in one streaming
 * pass (every mention is counted; its surface form, when it differs from the entity's
 * name, is an alias too; the first LEXICON_CONTEXTS sentences of each entity are kept).
 * Entities of the dataset without a row in the samples are ignored. Read-only afterwards, so every
 * query function is safe to call from many threads at once.
 *
 * Names and aliases are compared in normalised form (common/dataset/entitynames.h:
 * Unicode case folding, '_' as space, white space collapsed). Prefix search matches the
 * start of a name or alias, or the start of any word in it ("york" finds "New York").
 * Memory: O(entities + aliases + kept sentences); the kept sentences are at most
 * LEXICON_CONTEXTS per entity. */
#ifndef PROBEXPAN_SERVE_LEXICON_H
#define PROBEXPAN_SERVE_LEXICON_H

#include <stdint.h>

#include "dataset/dataset.h"

#define LEXICON_CONTEXTS 20 /* sentences kept per entity */
#define LEXICON_ALIASES 8   /* aliases kept per entity (the first seen) */

typedef struct lexicon lexicon;

/* Loads the entities of t (copied) and the aliases and sentences of the dataset (folder or
 * archive). Bad input dies with exit 3 naming the file and line. */
lexicon *lexicon_load(const entity_table *t, const char *dataset_path);
void lexicon_free(lexicon *x);

int64_t lexicon_entities(const lexicon *x);
int64_t lexicon_eid(const lexicon *x, int64_t row);
const char *lexicon_name(const lexicon *x, int64_t row);
int64_t lexicon_mentions(const lexicon *x, int64_t row);
int lexicon_alias_count(const lexicon *x, int64_t row);
const char *lexicon_alias(const lexicon *x, int64_t row, int i);
/* Row of an eid, or -1. */
int64_t lexicon_row_of_eid(const lexicon *x, int64_t eid);

/* Resolves a typed name or alias (normalised comparison) to a row. Returns the row; or -1
 * when unknown, with up to `nclose` closest names' rows in close[] (*nclosep of them; by
 * edit distance); or -2 when the text names several entities (their rows, up to nclose,
 * in close[]). */
int64_t lexicon_resolve(const lexicon *x, const char *text, int64_t *close, int nclose, int *nclosep);

/* Autocomplete: up to `limit` rows whose name or alias starts with `prefix` (or has a word
 * starting with it), best first: a match at the start of the name, then of an alias, then
 * of a later word; within each, more mentions first, then the name. An empty prefix lists
 * the most-mentioned entities. Returns the number written to rows[]; *total (may be NULL)
 * receives the number of matching entities. */
int lexicon_search(const lexicon *x, const char *prefix, int limit, int64_t *rows, int64_t *total);

/* Example sentences of row: up to `limit` of the kept ones, in corpus order. */
typedef struct {
    int64_t line;           /* 1-based line in sentences.json */
    int ntokens;
    const char *tokens;     /* ntokens NUL-terminated strings, back to back */
    int start, end;         /* the mention: tokens[start..end] (inclusive) */
} lexicon_context;
int lexicon_contexts(const lexicon *x, int64_t row, lexicon_context *out, int limit);

#endif
