/* entities: the entity table object the corpus, samples, dists and index artifacts carry
 * (schemas/corpus.md, samples.md, dists.md, index.md): a map {entities: n, eid: [n ints],
 * name: [n strings]}, row i <-> eid[i] and name[i], possibly followed by more fields of
 * the artifact's own (samples: `first`). One writer and one reader for every kind. */
#ifndef PROBEXPAN_ENTITIES_H
#define PROBEXPAN_ENTITIES_H

#include <msgpack.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "dataset/dataset.h"
#include "format/artifact.h"

/* Packs rows 0..n-1 of t (keep = NULL) or only the rows with keep[i] >= 0, in row order,
 * as a map of 3 + `extra` entries: the caller packs the `extra` key/value pairs next. */
void entities_pack(msgpack_packer *pk, const entity_table *t, const int64_t *keep, int extra);
/* Reads the table object `o` into t (copies; entity_table_free). Exit 3 through r when it is
 * not a map, its counts disagree, it has fewer than `min` entities or a name is not a string;
 * with row_of (NULL, or an intmap it initialises and fills eid -> row; intmap_free), also when
 * an eid appears twice. */
void entities_unpack(artifact_reader *r, const msgpack_object *o, int64_t min, entity_table *t, intmap *row_of);

#endif
