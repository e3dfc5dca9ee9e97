/* annotation: the entities annotate looks for in raw text, and what it finds (docs/design.md §2).
 *
 * The entities come from a list (a names file, schemas/names.md: name<TAB>alias..., or an
 * entity2id.txt, or a dataset folder/archive holding one) or from discover.h's names. Every
 * name and alias is tokenised as the text is (sentence_split.h) and matched by longest
 * match over a sentence's tokens (mention_matcher.h; an alias maps to its entity); a name
 * that belongs to two entities is bad input (exit 3 naming the line). With ignore_case the
 * match folds case; names that differ only in case are then one (the first listed wins,
 * with a warning). After the text is read, entities mentioned fewer than min_mentions times
 * are dropped and the others get their ids (the given eids, or 0, 1, ... in list order),
 * and the dataset's files are written: sentences.json (from the spooled sentences, their
 * mentions renumbered and those of dropped entities removed), entity2id.txt, aliases.txt
 * (when an entity has aliases) and, for discovered names, names.tsv. */
#ifndef PROBEXPAN_ANNOTATION_H
#define PROBEXPAN_ANNOTATION_H

#include <jansson.h>
#include <stdint.h>

#include "dataset/dataset_write.h"
#include "discover/discover.h"
#include "text/mention_matcher.h"

typedef struct {
    char **name;       /* canonical name of entity i */
    int64_t *eid;      /* given eid (entity2id input) or -1 */
    int64_t *count;    /* mentions found */
    int64_t *out_id;   /* id written, -1 when dropped */
    int64_t n, cap;
    mention_matcher *exact;  /* case-sensitive: duplicate detection (and matching by default) */
    mention_matcher *folded; /* ignore_case matching */
    int64_t fold_conflicts;
    char *fold_example;
    int64_t *line;     /* line of entity i in the list (0 for entity2id input) */
    char **aliases;    /* "\talias\talias" of entity i, or NULL */
    char *(*context)[2]; /* discovered names: two example contexts of entity i (NULL until seen) */
    char **merged;     /* discovered names: "alias (rule), ..." of entity i's aliases and the rules that merged them, or NULL */
} annotation;

void annotation_init(annotation *a, int ignore_case);
/* The entity list at `path`: a names file or an entity2id.txt (or a dataset holding one). */
void annotation_load_list(annotation *a, const char *path);
/* Discovered names; an alias that is already a name is skipped. */
void annotation_load_discovered(annotation *a, const discovered_name *names, int64_t n);
/* The entity a name (tokenised) names, or -1. */
int32_t annotation_lookup(const annotation *a, char *const *tokens, int n);
/* The mentions of one sentence, longest match first, as sentences.json's "entityMentions"
 * (entityId: the entity's index), each counted; NULL when there is none. */
json_t *annotation_match(annotation *a, char *const *tokens, int n);
/* Gives the entities with at least min_mentions mentions their ids; returns how many are
 * kept, *dropped the others. */
int64_t annotation_assign_ids(annotation *a, int min_mentions, int64_t *dropped);
/* sentences.json from the spool of pass 1 (one JSON line per sentence, as annotation_match
 * made its mentions): *sentences and *mentions written. */
void annotation_write_sentences(const annotation *a, dataset_writer *w, const char *spool_path, int64_t *sentences,
                                int64_t *mentions);
/* entity2id.txt, aliases.txt, names.tsv of the kept entities. */
void annotation_write_entities(const annotation *a, dataset_writer *w, int64_t kept);
void annotation_free(annotation *a);
/* qsort_r comparators of entity indices (ctx: the annotation): by id; by mentions (most
 * first), then id. */
int annotation_cmp_by_id(const void *x, const void *y, void *ctx);
int annotation_cmp_by_count(const void *x, const void *y, void *ctx);

#endif
