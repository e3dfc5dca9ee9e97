/* entities: pack and validate the entity table object of row-per-entity artifacts. */
#include "artifacts/entities.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"

void entity_table_pack(msgpack_packer *pk, const entity_table *t) {
    msgpack_pack_map(pk, 3);
    mp_kv_int(pk, "entities", t->n);
    mp_str(pk, "eid");
    msgpack_pack_array(pk, (size_t)t->n);
    for (int64_t i = 0; i < t->n; i++) msgpack_pack_int64(pk, t->eid[i]);
    mp_str(pk, "name");
    msgpack_pack_array(pk, (size_t)t->n);
    for (int64_t i = 0; i < t->n; i++) mp_str(pk, t->name[i]);
}

void entity_table_unpack(artifact_reader *r, const msgpack_object *obj, entity_table *t, intmap *row_of_eid) {
    if (obj->type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected the entity table map");
    int64_t n = mp_get_int(r, obj, "entities");
    const msgpack_object *eids = mp_get_array(r, obj, "eid");
    const msgpack_object *names = mp_get_array(r, obj, "name");
    if (n < 1 || eids->via.array.size != (uint64_t)n || names->via.array.size != (uint64_t)n)
        artifact_bad(r, "entity table: entities=%lld but %u eids and %u names", (long long)n, eids->via.array.size,
                     names->via.array.size);
    t->n = n;
    t->eid = xmalloc(sizeof(int64_t) * (size_t)n);
    t->name = xmalloc(sizeof(char *) * (size_t)n);
    intmap_init(row_of_eid);
    for (int64_t i = 0; i < n; i++) {
        t->eid[i] = mp_as_int(r, &eids->via.array.ptr[i], "an eid");
        const msgpack_object *s = &names->via.array.ptr[i];
        if (s->type != MSGPACK_OBJECT_STR) artifact_bad(r, "entity table: name %lld is not a string", (long long)i);
        t->name[i] = strndup(s->via.str.ptr, s->via.str.size);
        if (!t->name[i]) die("out of memory");
        int64_t prev = intmap_put(row_of_eid, t->eid[i], i);
        if (prev >= 0)
            artifact_bad(r, "entity table: eid %lld appears in rows %lld and %lld", (long long)t->eid[i],
                         (long long)prev, (long long)i);
    }
}
