/* index: writer and validating reader of the `index` artifact. */
#include "artifacts/index.h"

#include <stdlib.h>
#include <string.h>

#include "artifacts/entities.h"
#include "base/error.h"
#include "format/lebin.h"

void index_write(const char *path, const entity_table *t, const int64_t *mentions, const int32_t *noun_slots,
                 int64_t samples, const char *samples_path, const pattern_config *c, const pattern_counts *k,
                 const located_pairs *lp) {
    artifact_writer *w = artifact_create(path, INDEX_KIND, INDEX_SCHEMA);
    artifact_param_str(w, "model", "patterns");
    artifact_param_options(w); /* the program's (index's) options; the payload holds the configuration */
    char *real = realpath(samples_path, NULL);
    artifact_add_input(w, real ? real : samples_path);
    free(real);
    char sha[65];
    input_sha256_hex(samples_path, sha);
    msgpack_packer *pk = artifact_payload(w);
    entities_pack(pk, t, NULL, 0);
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "samples", samples);
    mp_kv_str(pk, "samples_sha256", sha);
    mp_pack_le_bin(pk, "mentions", mentions, t->n, 8);
    mp_pack_le_bin(pk, "noun_slots", noun_slots, t->n, 4);
    msgpack_pack_map(pk, lp->n > 0 ? 21 : 18);
    mp_kv_str(pk, "model", "patterns");
    mp_kv_str(pk, "patterns", c->long_patterns ? "long" : "short");
    mp_kv_int(pk, "bag", c->bag);
    mp_kv_double(pk, "bag_weight", c->bag_weight);
    mp_kv_double(pk, "genus_weight", c->genus_weight);
    mp_kv_double(pk, "list_weight", c->list_weight);
    mp_kv_double(pk, "head_weight", c->head_weight);
    mp_kv_double(pk, "name_weight", c->name_weight);
    mp_kv_double(pk, "differentia_weight", c->differentia_weight);
    mp_kv_double(pk, "evidence", c->evidence);
    mp_kv_int(pk, "min_entities", c->min_entities);
    mp_kv_double(pk, "idf_power", c->idf_power);
    mp_kv_double(pk, "temperature", c->temperature);
    mp_kv_int(pk, "features", k->F);
    mp_pack_le_bin(pk, "key", k->key, k->F, 8);
    mp_pack_le_bin(pk, "foff", k->foff, k->F + 1, 8);
    mp_pack_le_bin(pk, "ent", k->ent, k->foff[k->F], 4);
    mp_pack_le_bin(pk, "cnt", k->cnt, k->foff[k->F], 4);
    if (lp->n > 0) { /* absent when none: a glossary's index stays as it was */
        mp_pack_le_bin(pk, "located_a", lp->a, lp->n, 4);
        mp_pack_le_bin(pk, "located_b", lp->b, lp->n, 4);
        mp_pack_le_bin(pk, "located_count", lp->count, lp->n, 4);
    }
    artifact_commit(w);
}

/* The counting settings of the model map (exit 3 outside the ranges pattern_model accepts). */
static void read_config(artifact_reader *r, const msgpack_object *o, pattern_config *c) {
    *c = pattern_config_defaults(PATTERN_SIMILARITY);
    char *model = mp_get_str(r, o, "model"), *patterns = mp_get_str(r, o, "patterns");
    if (strcmp(model, "patterns")) artifact_bad(r, "model \"%s\": expected \"patterns\"", model);
    if (strcmp(patterns, "long") && strcmp(patterns, "short"))
        artifact_bad(r, "patterns \"%s\": expected \"long\" or \"short\"", patterns);
    c->long_patterns = !strcmp(patterns, "long");
    free(model);
    free(patterns);
    int64_t bag = mp_get_int(r, o, "bag"), min_entities = mp_get_int(r, o, "min_entities");
    c->bag_weight = mp_get_double(r, o, "bag_weight");
    c->genus_weight = mp_get_double(r, o, "genus_weight");
    c->list_weight = mp_get_double(r, o, "list_weight");
    c->head_weight = mp_get_double(r, o, "head_weight");
    c->name_weight = mp_get_double(r, o, "name_weight");
    /* absent in an index built before the differentia features: it has none */
    const msgpack_object *differentia = mp_get(r, o, "differentia_weight", 0);
    c->differentia_weight = differentia ? mp_as_double(r, differentia, "differentia_weight") : 0;
    c->evidence = mp_get_double(r, o, "evidence");
    c->idf_power = mp_get_double(r, o, "idf_power");
    c->temperature = mp_get_double(r, o, "temperature");
    /* clamped into an int: pattern_config_check then refuses what is out of range */
    c->bag = (int)(bag < INT32_MIN ? INT32_MIN : bag > INT32_MAX ? INT32_MAX : bag);
    c->min_entities = (int)(min_entities < INT32_MIN ? INT32_MIN : min_entities > INT32_MAX ? INT32_MAX : min_entities);
    char err[200];
    if (!pattern_config_check(c, err, sizeof err)) artifact_bad(r, "model settings out of range: %s", err);
}

/* Offsets ascending from 0 to P, entities ascending within a feature and inside 0..E-1, at
 * least min_entities of them, counts >= 1. */
static void check_counts(artifact_reader *r, const pattern_counts *k, int min_entities) {
    for (int64_t f = 0; f < k->F; f++)
        if (k->foff[f] < 0 || k->foff[f + 1] < k->foff[f] || k->foff[f + 1] - k->foff[f] < min_entities)
            artifact_bad(r, "feature %lld has offsets %lld..%lld: expected offsets from 0 ascending by at least "
                         "min_entities %d", (long long)f, (long long)k->foff[f], (long long)k->foff[f + 1], min_entities);
    for (int64_t f = 0; f < k->F; f++) {
        int64_t a = k->foff[f], b = k->foff[f + 1];
        for (int64_t p = a; p < b; p++) {
            if (k->ent[p] < 0 || k->ent[p] >= k->E || (p > a && k->ent[p] <= k->ent[p - 1]))
                artifact_bad(r, "feature %lld: posting %lld has entity %d: expected rows ascending in 0..%lld",
                             (long long)f, (long long)p, k->ent[p], (long long)k->E - 1);
            if (k->cnt[p] < 1) artifact_bad(r, "posting %lld has count %d: expected >= 1", (long long)p, k->cnt[p]);
        }
    }
}

/* Names non-empty without a NUL byte (one would cut the name short), eids >= 0, as the datasets'
 * entity tables give them; `table` is the entity table object entities_unpack read t from. */
static void check_entities(artifact_reader *r, const msgpack_object *table, const entity_table *t) {
    const msgpack_object *names = mp_get(r, table, "name", 1);
    for (int64_t i = 0; i < t->n; i++) {
        const msgpack_object_str *s = &names->via.array.ptr[i].via.str;
        if (!s->size || memchr(s->ptr, 0, s->size))
            artifact_bad(r, "entity row %lld: %s name: expected a name without NUL bytes", (long long)i,
                         s->size ? "a NUL byte in its" : "an empty");
        if (t->eid[i] < 0) artifact_bad(r, "entity row %lld has eid %lld: expected >= 0", (long long)i, (long long)t->eid[i]);
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Each feature's key once and of a kind the settings count (bag words only with a bag window, the
 * other kinds only with a weight > 0); a posting's count at most what its entity's samples can
 * show (a sample shows at most PATTERN_MAX features). */
static void check_keys(artifact_reader *r, const pattern_counts *k, const pattern_config *c, const int64_t *mentions) {
    static const char *const kind_name[] = {"n-gram",    "bag word",  "genus word",      "list member",
                                            "head word", "name head", "differentia word"};
    for (int64_t f = 0; f < k->F; f++) {
        pattern_kind kind = pattern_key_kind(k->key[f]);
        if (kind == PATTERN_BAG ? c->bag == 0 : !(pattern_kind_weight(c, kind) > 0))
            artifact_bad(r, "feature %lld has a %s key, a kind these settings do not count", (long long)f, kind_name[kind]);
        for (int64_t p = k->foff[f]; p < k->foff[f + 1]; p++)
            if (k->cnt[p] > mentions[k->ent[p]] * PATTERN_MAX)
                artifact_bad(r, "feature %lld: posting %lld counts %d occurrences in entity row %d's %lld samples: "
                             "expected at most %d per sample", (long long)f, (long long)p, k->cnt[p], k->ent[p],
                             (long long)mentions[k->ent[p]], PATTERN_MAX);
    }
    uint64_t *sorted = xmalloc(sizeof(uint64_t) * (size_t)(k->F + 1));
    memcpy(sorted, k->key, sizeof(uint64_t) * (size_t)k->F);
    qsort(sorted, (size_t)k->F, sizeof *sorted, cmp_u64);
    for (int64_t f = 1; f < k->F; f++)
        if (sorted[f] == sorted[f - 1]) {
            uint64_t dup = sorted[f];
            free(sorted);
            artifact_bad(r, "feature key %#llx appears twice: expected each feature once", (unsigned long long)dup);
        }
    free(sorted);
}

/* The apposition pairs of map o, if it has them: three bins of n little-endian int32, (a, b)
 * rows strictly ascending, a != b, counts 1..mentions[a]. */
static void read_located(artifact_reader *r, const msgpack_object *o, int64_t E, const int64_t *mentions,
                         located_pairs *p) {
    memset(p, 0, sizeof *p);
    const msgpack_object *a = mp_get(r, o, "located_a", 0);
    if (!a) return;
    if (a->type != MSGPACK_OBJECT_BIN || a->via.bin.size % 4 != 0)
        artifact_bad(r, "'located_a': expected a bin of little-endian int32");
    p->n = (int64_t)(a->via.bin.size / 4);
    p->a = xmalloc(sizeof(int32_t) * (size_t)(p->n + 1));
    p->b = xmalloc(sizeof(int32_t) * (size_t)(p->n + 1));
    p->count = xmalloc(sizeof(int32_t) * (size_t)(p->n + 1));
    mp_read_le_bin(r, o, "located_a", p->n, 4, p->a);
    mp_read_le_bin(r, o, "located_b", p->n, 4, p->b);
    mp_read_le_bin(r, o, "located_count", p->n, 4, p->count);
    for (int64_t i = 0; i < p->n; i++) {
        if (p->a[i] < 0 || p->a[i] >= E || p->b[i] < 0 || p->b[i] >= E || p->a[i] == p->b[i])
            artifact_bad(r, "located pair %lld is (%d, %d): expected two different entity rows in 0..%lld", (long long)i,
                         p->a[i], p->b[i], (long long)E - 1);
        if (i > 0 && (p->a[i] < p->a[i - 1] || (p->a[i] == p->a[i - 1] && p->b[i] <= p->b[i - 1])))
            artifact_bad(r, "located pair %lld is (%d, %d): expected pairs strictly ascending", (long long)i, p->a[i], p->b[i]);
        if (p->count[i] < 1 || p->count[i] > mentions[p->a[i]])
            artifact_bad(r, "located pair %lld counts %d: expected 1..%lld, the mentions of entity row %d", (long long)i,
                         p->count[i], (long long)mentions[p->a[i]], p->a[i]);
    }
}

void index_read(corpus_index *x, const char *path) {
    memset(x, 0, sizeof *x);
    artifact_reader *r = artifact_open(path, INDEX_KIND, INDEX_SCHEMA);
    if (artifact_hdr(r)->schema < INDEX_SCHEMA)
        artifact_bad(r, "index schema %lld predates the list, head and name features: expected schema %d; rebuild it "
                        "with `index` (make -f pipelines/probexpan.mk DATA=... RUN=... index)",
                     (long long)artifact_hdr(r)->schema, INDEX_SCHEMA);
    artifact_verify(r); /* ~10 ms for 3.5 MB: a damaged index is refused, not ranked from */
    x->path = xstrdup(artifact_path(r));
    msgpack_object o;
    artifact_expect(r, &o, "the entity table {entities, eid, name}");
    entities_unpack(r, &o, 1, &x->ent, &x->row_of_eid);
    check_entities(r, &o, &x->ent);
    int64_t E = x->ent.n;
    artifact_expect(r, &o, "the mentions map {samples, samples_sha256, mentions}");
    if (o.type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected the mentions map");
    x->samples = mp_get_int(r, &o, "samples");
    mp_get_sha256(r, &o, "samples_sha256", x->samples_sha256);
    x->mentions = xmalloc(sizeof(int64_t) * (size_t)E);
    mp_read_le_bin(r, &o, "mentions", E, 8, x->mentions);
    int64_t total = 0;
    for (int64_t e = 0; e < E; e++) {
        if (x->mentions[e] < 1 || x->mentions[e] > x->samples)
            artifact_bad(r, "entity row %lld has %lld mentions: expected 1..samples (%lld)", (long long)e,
                         (long long)x->mentions[e], (long long)x->samples);
        total += x->mentions[e];
    }
    if (total != x->samples)
        artifact_bad(r, "the mentions sum to %lld: expected samples = %lld", (long long)total, (long long)x->samples);
    if (mp_get(r, &o, "noun_slots", 0)) { /* absent in an index built before them: the modifier rule is off */
        x->noun_slots = xmalloc(sizeof(int32_t) * (size_t)(E + 1));
        mp_read_le_bin(r, &o, "noun_slots", E, 4, x->noun_slots);
        for (int64_t e = 0; e < E; e++)
            if (x->noun_slots[e] < 0 || x->noun_slots[e] > x->mentions[e])
                artifact_bad(r, "entity row %lld has %d mentions in a noun's slot: expected 0..%lld, its mentions",
                             (long long)e, x->noun_slots[e], (long long)x->mentions[e]);
    }
    artifact_expect(r, &o, "the pattern model map {model, patterns, ..., key, foff, ent, cnt}");
    if (o.type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected the pattern model map");
    read_config(r, &o, &x->cfg);
    pattern_counts *k = &x->counts;
    k->E = E;
    k->F = mp_get_int(r, &o, "features");
    if (k->F < 0 || k->F > INT32_MAX) artifact_bad(r, "features = %lld: expected 0..%d", (long long)k->F, INT32_MAX);
    const msgpack_object *key = mp_get(r, &o, "key", 1);
    if (key->type != MSGPACK_OBJECT_BIN || key->via.bin.size != (uint64_t)k->F * 8)
        artifact_bad(r, "'key': expected a bin of features (%lld) little-endian uint64", (long long)k->F);
    k->key = xmalloc(sizeof(uint64_t) * (size_t)(k->F + 1));
    k->foff = xmalloc(sizeof(int64_t) * (size_t)(k->F + 1));
    mp_read_le_bin(r, &o, "key", k->F, 8, k->key);
    mp_read_le_bin(r, &o, "foff", k->F + 1, 8, k->foff);
    int64_t P = k->foff[k->F];
    const msgpack_object *ent = mp_get(r, &o, "ent", 1);
    if (k->foff[0] != 0 || P < 0 || ent->type != MSGPACK_OBJECT_BIN || ent->via.bin.size % 4 != 0 ||
        (uint64_t)P != ent->via.bin.size / 4) /* by division: P * 4 can wrap around */
        artifact_bad(r, "foff runs from %lld to %lld: expected 0 to the postings in 'ent'", (long long)k->foff[0],
                     (long long)P);
    k->ent = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    k->cnt = xmalloc(sizeof(int32_t) * (size_t)(P + 1));
    mp_read_le_bin(r, &o, "ent", P, 4, k->ent);
    mp_read_le_bin(r, &o, "cnt", P, 4, k->cnt);
    check_counts(r, k, x->cfg.min_entities);
    check_keys(r, k, &x->cfg, x->mentions);
    read_located(r, &o, E, x->mentions, &x->located);
    k->mentions = xmalloc(sizeof(int64_t) * (size_t)(E + 1));
    memcpy(k->mentions, x->mentions, sizeof(int64_t) * (size_t)E);
    artifact_expect_end(r);
    artifact_close(r);
}

void index_free(corpus_index *x) {
    free(x->path);
    entity_table_free(&x->ent);
    intmap_free(&x->row_of_eid);
    free(x->mentions);
    free(x->noun_slots);
    pattern_counts_free(&x->counts);
    located_pairs_free(&x->located);
    memset(x, 0, sizeof *x);
}
