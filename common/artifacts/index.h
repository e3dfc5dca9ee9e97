/* index: the `index` artifact (schemas/index.md) — what a corpus needs to answer any seed
 * set with the pattern model: the entity table, each entity's mention count, and the pattern
 * model's feature counts (features with their entity postings and counts) with the settings
 * they were counted with. Everything else (PMI profiles of any feature subset, rows r(e),
 * refinements) is derived from it. Size O(E + F + feature-entity pairs): linear in the corpus,
 * no E x E matrix.
 *
 * Written by `probexpan index` (index_write: a temporary file renamed on success, so an
 * interrupted build leaves nothing under the final name); read whole into memory by
 * index_read, which verifies the checksum trailer and checks every array against the others
 * (offsets, entity ranges, counts at most the entity's mentions, noun slots 0..mentions, settings, each feature key once
 * and of a kind the settings count, names non-empty without NUL bytes, eids >= 0, apposition
 * pairs inside the entities, ascending, counts 1..mentions) and exits 3
 * naming the file and byte on any defect, so a loaded index is safe to use unchecked and is
 * never written to again. */
#ifndef PROBEXPAN_INDEX_H
#define PROBEXPAN_INDEX_H

#include <stdint.h>

#include "base/hashmap.h"
#include "dataset/dataset.h"
#include "artifacts/pattern_settings.h"

#define INDEX_KIND "index"
#define INDEX_SCHEMA 3 /* 2: genus features (genus_weight); 3: list, head and name features, evidence */

typedef struct {
    char *path;
    entity_table ent;          /* row i <-> eid, name (the samples artifact's entity order) */
    intmap row_of_eid;
    int64_t *mentions;         /* [E] samples (mentions) of each entity */
    int32_t *noun_slots;       /* [E] of those in a noun's slot (model/noun_slots.h); NULL in an index without them */
    int64_t samples;           /* S */
    char samples_sha256[65];   /* the samples artifact it was built from */
    pattern_config cfg;        /* counting and model settings; feature_fraction 1 */
    pattern_counts counts;
    located_pairs located;     /* the appositions "A , B" per entity pair (none in a glossary) */
} corpus_index;

/* Writes the index of the entities of t (with their mention counts and those in a noun's
 * slot), the counts k made with config c from the samples artifact at samples_path (recorded
 * with its sha256 among the inputs) and the apposition pairs lp (written only when there are
 * any). */
void index_write(const char *path, const entity_table *t, const int64_t *mentions, const int32_t *noun_slots,
                 int64_t samples, const char *samples_path, const pattern_config *c, const pattern_counts *k,
                 const located_pairs *lp);
void index_read(corpus_index *x, const char *path);
void index_free(corpus_index *x);

#endif
