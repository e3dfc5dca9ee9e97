/* patmodel: writer and validating reader of the `patmodel` artifact. */
#include "artifacts/patmodel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "format/lebin.h"

artifact_writer *patmodel_create(const char *path) { return artifact_create(path, PATMODEL_KIND, PATMODEL_SCHEMA); }

void patmodel_pack(artifact_writer *w, const corpus_index *x, const patmodel_member *m, int n) {
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 4);
    mp_kv_str(pk, "index_samples_sha256", x->samples_sha256);
    mp_kv_int(pk, "entities", x->ent.n);
    mp_kv_int(pk, "features", x->counts.F);
    mp_str(pk, "members");
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) {
        msgpack_pack_map(pk, 3);
        mp_kv_double(pk, "feature_fraction", m[i].feature_fraction);
        mp_kv_int(pk, "seed", (int64_t)m[i].seed);
        if (!m[i].nweights) {
            mp_str(pk, "weights");
            msgpack_pack_nil(pk);
            continue;
        }
        uint32_t *bits = xmalloc(sizeof(uint32_t) * (size_t)m[i].nweights);
        memcpy(bits, m[i].weights, sizeof(uint32_t) * (size_t)m[i].nweights);
        mp_pack_le_bin(pk, "weights", bits, m[i].nweights, 4);
        free(bits);
    }
}

static void read_member(artifact_reader *r, const msgpack_object *o, int64_t F, patmodel_member *m) {
    if (o->type != MSGPACK_OBJECT_MAP) artifact_bad(r, "a member: expected a map {feature_fraction, seed, weights}");
    m->feature_fraction = mp_get_double(r, o, "feature_fraction");
    if (!(m->feature_fraction > 0 && m->feature_fraction <= 1))
        artifact_bad(r, "feature_fraction %g: expected (0, 1]", m->feature_fraction);
    int64_t seed = mp_get_int(r, o, "seed");
    if (seed < 0) artifact_bad(r, "seed %lld: expected >= 0", (long long)seed);
    m->seed = (uint64_t)seed;
    const msgpack_object *w = mp_get(r, o, "weights", 1);
    if (w->type == MSGPACK_OBJECT_NIL) return;
    if (w->type != MSGPACK_OBJECT_BIN || w->via.bin.size % 4 || w->via.bin.size / 4 > (uint64_t)F)
        artifact_bad(r, "'weights': expected nil or a bin of at most features (%lld) little-endian float32",
                     (long long)F);
    m->nweights = (int64_t)(w->via.bin.size / 4);
    m->weights = xmalloc(sizeof(float) * (size_t)(m->nweights + 1));
    mp_read_le_bin(r, o, "weights", m->nweights, 4, m->weights);
    for (int64_t f = 0; f < m->nweights; f++)
        if (!isfinite(m->weights[f]) || !(m->weights[f] > 0))
            artifact_bad(r, "weight %lld is %g: expected a finite value > 0", (long long)f, (double)m->weights[f]);
}

void patmodel_read(patmodel *p, const char *path) {
    memset(p, 0, sizeof *p);
    artifact_reader *r = artifact_open(path, PATMODEL_KIND, PATMODEL_SCHEMA);
    p->path = xstrdup(artifact_path(r));
    msgpack_object o;
    artifact_expect(r, &o, "the model map {index_samples_sha256, entities, features, members}");
    if (o.type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected the model map");
    mp_get_sha256(r, &o, "index_samples_sha256", p->samples_sha256);
    p->entities = mp_get_int(r, &o, "entities");
    p->features = mp_get_int(r, &o, "features");
    if (p->entities < 1 || p->features < 0 || p->features > INT32_MAX)
        artifact_bad(r, "entities %lld, features %lld: expected >= 1 and 0..%d", (long long)p->entities,
                     (long long)p->features, INT32_MAX);
    const msgpack_object *a = mp_get_array(r, &o, "members");
    if (a->via.array.size < 1 || a->via.array.size > PATMODEL_MAX_MEMBERS)
        artifact_bad(r, "%u members: expected 1..%d", a->via.array.size, PATMODEL_MAX_MEMBERS);
    p->n = (int)a->via.array.size;
    for (int i = 0; i < p->n; i++) read_member(r, &a->via.array.ptr[i], p->features, &p->m[i]);
    artifact_expect_end(r);
    artifact_close(r);
}

void patmodel_check_index(const patmodel *p, const corpus_index *x) {
    if (strcmp(p->samples_sha256, x->samples_sha256) || p->entities != x->ent.n || p->features != x->counts.F)
        die_input(p->path, "header",
                  "made over another index (samples sha256 %.12s..., %lld entities, %lld features): %s has %.12s..., "
                  "%lld entities, %lld features", p->samples_sha256, (long long)p->entities, (long long)p->features,
                  x->path, x->samples_sha256, (long long)x->ent.n, (long long)x->counts.F);
}

void patmodel_free(patmodel *p) {
    for (int i = 0; i < p->n; i++) free(p->m[i].weights);
    free(p->path);
    memset(p, 0, sizeof *p);
}
