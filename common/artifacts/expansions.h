/* expansions: the per-query entity lists that expand writes (`expansions`,
 * schemas/expansions.md) and rerank writes (`ranked`, schemas/ranked.md).
 *
 * Payload: {queries: N, entities: V_e} then N query records
 *   {class, query, seeds: [eid], seed_names: [str], negatives: [eid],
 *    entities: [eid], names: [str], scores: [float64]}
 * and for `ranked` also order: [int] (1-based expansion order of each entity),
 * kl_rank: [int], kl_score: [float64]; `scores` are then the aggregate scores.
 * Entities are identified by eid (not dists row) so evaluate needs no dists. The reader refuses
 * (exit 3, naming the query and the position) a list naming an entity twice, a negative eid or a
 * NaN score. */
#ifndef PROBEXPAN_EXPANSIONS_H
#define PROBEXPAN_EXPANSIONS_H

#include <stdint.h>
#include <stdio.h>

#include "format/artifact.h"

#define EXPANSIONS_KIND "expansions"
#define RANKED_KIND "ranked"
#define EXPANSIONS_SCHEMA 1

/* Writers of an expansions or a ranked artifact at path (the caller adds params, inputs and
 * the payload: expansions_pack_begin, then a record per query). */
artifact_writer *expansions_create(const char *path);
artifact_writer *ranked_create(const char *path);

typedef struct {
    char *class_name;
    int query;                 /* index within the class, 0-based */
    int nseeds, nneg, n;
    int64_t *seeds, *negatives, *eids;
    char **seed_names, **names;
    double *scores;
    int *order, *kl_rank;      /* ranked only (NULL otherwise) */
    double *kl_score;
} expansion_record;

typedef struct {
    char *kind;
    char *queries;             /* header param "queries": the dataset or query file; NULL if none */
    int64_t entities;
    int n;
    expansion_record *r;
} expansion_set;

/* Writes the summary object; then call expansion_record_pack N times. */
void expansions_pack_begin(msgpack_packer *pk, int nqueries, int64_t entities);
void expansion_record_pack(msgpack_packer *pk, const expansion_record *r);
/* Reads an `expansions` or `ranked` artifact (exit 3 on any defect). */
void expansion_set_read(expansion_set *s, const char *path);
void expansion_set_free(expansion_set *s);
/* Allocates the ranked record's entity lists (eids, names, scores, order, kl_rank, kl_score)
 * for r->n entities; expansion_record_free_lists releases them only (the names they point to
 * are borrowed), for a writer that fills a record from its own data. */
void expansion_record_alloc_lists(expansion_record *r);
void expansion_record_free_lists(expansion_record *r);

/* The lists on stdout for the next tool (--format): LIST_TSV is one entity a
 * line, class<TAB>query<TAB>rank<TAB>eid<TAB>name<TAB>score after a header line
 * (query and rank 1-based; tabs or newlines in a name become spaces);
 * LIST_JSON one object a line with the same keys; LIST_TEXT the --names lines. */
typedef enum { LIST_NONE, LIST_TEXT, LIST_TSV, LIST_JSON } list_format;
/* The --names / --format options of expand and rerank (the table needs base/cli.h):
 * LIST_FORMAT_CLI_OPTIONS(o, "the expanded lists") for a list_format_options o. */
typedef struct {
    int names;
    const char *format;
} list_format_options;
#define LIST_FORMAT_CLI_OPTIONS(o, lists)                                                                    \
    {"names", OPT_FLAG, &(o).names, NULL, "print " lists " with entity names on stdout (= --format text)", 0, 0}, \
    {"format", OPT_STRING, &(o).format, "text|tsv|json",                                                         \
     "print the lists on stdout: text (a line per query), tsv or json (one entity a line: class, query, rank, eid, name, score)", 0, 0}
/* The format o asks for: --format's, else LIST_TEXT with --names, else LIST_NONE; a --format
 * other than text, tsv or json dies (usage). */
list_format list_format_chosen(const list_format_options *o);
/* Header line (tsv only); call once before the records. */
void expansion_list_begin(FILE *f, list_format fmt);
void expansion_record_write(FILE *f, const expansion_record *r, list_format fmt);

#endif
