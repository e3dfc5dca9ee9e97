/* entities: pack and read the entity table object of corpus, samples and dists artifacts. */
#include "artifacts/entities.h"

#include <string.h>

#include "base/error.h"

void entities_pack(msgpack_packer *pk, const entity_table *t, const int64_t *keep, int extra) {
    int64_t n = 0;
    for (int64_t i = 0; i < t->n; i++) n += !keep || keep[i] >= 0;
    msgpack_pack_map(pk, 3 + (size_t)extra);
    mp_kv_int(pk, "entities", n);
    mp_str(pk, "eid");
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < t->n; i++)
        if (!keep || keep[i] >= 0) msgpack_pack_int64(pk, t->eid[i]);
    mp_str(pk, "name");
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < t->n; i++)
        if (!keep || keep[i] >= 0) mp_str(pk, t->name[i]);
}

void entities_unpack(artifact_reader *r, const msgpack_object *o, int64_t min, entity_table *t, intmap *row_of) {
    if (o->type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected the entity table map");
    int64_t n = mp_get_int(r, o, "entities"), ne, nn;
    if (n < min) artifact_bad(r, "entity table: %lld entities, expected at least %lld", (long long)n, (long long)min);
    int64_t *eid = mp_get_i64_array(r, o, "eid", n, &ne);
    char **name = mp_get_str_array(r, o, "name", n, &nn);
    *t = (entity_table){n, eid, name};
    if (row_of) intmap_init(row_of);
    for (int64_t i = 0; row_of && i < n; i++) {
        int64_t prev = intmap_put(row_of, eid[i], i);
        if (prev >= 0)
            artifact_bad(r, "entity table: eid %lld appears in rows %lld and %lld", (long long)eid[i], (long long)prev,
                         (long long)i);
    }
}
