/* entities: the entity table object that opens the payload of the artifacts holding one row
 * per entity (`dists`, `index`): {entities: int n, eid: [int x n], name: [str x n]}; row i is
 * entity eid[i] named name[i] (schemas/dists.md). */
#ifndef PROBEXPAN_ENTITIES_H
#define PROBEXPAN_ENTITIES_H

#include "base/hashmap.h"
#include "dataset/dataset.h"
#include "format/artifact.h"

void entity_table_pack(msgpack_packer *pk, const entity_table *t);
/* Decodes the table map `obj` into t and the eid -> row map (both owned by the caller:
 * entity_table_free, intmap_free). Exit 3 naming file and byte on a wrong shape, n < 1 or a
 * duplicate eid. */
void entity_table_unpack(artifact_reader *r, const msgpack_object *obj, entity_table *t, intmap *row_of_eid);

#endif
