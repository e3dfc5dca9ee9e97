/* gen_seeds: writes the committed seed files of fuzz_dists with the project's own
 * writer (dists_create / dists_write_row / dists_commit): a 1-entity and a
 * 3-entity artifact (and, for fuzz_dists_rows, rows 0 and 2 of the 3-entity one); and two hand-made hostile row-matrix headers whose
 * rows * stride overflows 64 bits (rows = stride = 2^32; rows = 2^58 + 1 with
 * stride 64) and one whose cols * 4 does (cols = 2^62, stride 64). Run by `make -f tests/fuzz/build.mk seeds`; the corpus and
 * samples seeds come from bin/tokenize and bin/build-samples (see
 * /work/notes/readme-fuzz.md). Usage: gen_seeds DIR */
#include <stdio.h>

#include "artifacts/dists.h"
#include "format/artifact.h"

/* The n-entity artifact, or (rows != NULL) the dists-rows of its nrows rows. */
static void write_dists(const char *path, int n, const int64_t *rows, int nrows) {
    static char *names[] = {"Ohio", "Texas", "New York"};
    int64_t eids[] = {7, 0, 42};
    entity_table t = {n, eids, names};
    dists_writer *w = rows ? dists_create_rows(path, &t, rows, nrows) : dists_create(path, &t);
    float p[3];
    for (int i = 0; i < (rows ? nrows : n); i++) {
        int64_t e = rows ? rows[i] : i;
        for (int k = 0; k < n; k++) p[k] = (k == e ? 2.0f : 1.0f) / (float)(n + 1);
        dists_write_row(w, p);
    }
    dists_commit(w);
}

/* A 1-entity dists artifact whose first matrix descriptor claims rows x cols with
 * `stride`, followed by a correct alignment pad and two rows' worth of bytes. */
static void write_hostile_dists(const char *path, int64_t rows, int64_t cols, int64_t stride) {
    artifact_writer *w = artifact_create(path, "dists", 1);
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 3);
    mp_kv_int(pk, "entities", 1);
    mp_str(pk, "eid");
    msgpack_pack_array(pk, 1);
    msgpack_pack_int64(pk, 7);
    mp_str(pk, "name");
    msgpack_pack_array(pk, 1);
    mp_str(pk, "Ohio");
    msgpack_pack_map(pk, 5);
    mp_kv_str(pk, "matrix", "mean_prob");
    mp_kv_int(pk, "rows", rows);
    mp_kv_int(pk, "cols", cols);
    mp_kv_str(pk, "dtype", "f32");
    mp_kv_int(pk, "stride", stride);
    static const char zeros[128];
    uint32_t pad = (uint32_t)((64 - (artifact_bytes(w) + 10) % 64) % 64);
    /* raw bin32 headers (0xc6 + big-endian length), as schemas/row-matrix.md requires */
    uint32_t lens[3] = {pad, (uint32_t)(stride - 5), (uint32_t)(stride - 5)};
    for (int i = 0; i < 3; i++) {
        char h[5] = {(char)0xc6, (char)(lens[i] >> 24), (char)(lens[i] >> 16), (char)(lens[i] >> 8), (char)lens[i]};
        msgpack_pack_bin_body(pk, h, 5);
        msgpack_pack_bin_body(pk, zeros, i ? 59 : pad); /* the pad, then two rows' first bytes */
    }
    artifact_commit(w);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_seeds DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus-dists/one.mp", argv[1]);
    write_dists(path, 1, NULL, 0);
    snprintf(path, sizeof path, "%s/corpus-dists/three.mp", argv[1]);
    write_dists(path, 3, NULL, 0);
    const int64_t rows[] = {0, 2};
    snprintf(path, sizeof path, "%s/corpus-dists_rows/two-of-three.mp", argv[1]);
    write_dists(path, 3, rows, 2);
    snprintf(path, sizeof path, "%s/corpus-dists/rows-stride-2p32.mp", argv[1]);
    write_hostile_dists(path, INT64_C(1) << 32, 1, INT64_C(1) << 32);
    snprintf(path, sizeof path, "%s/corpus-dists/rows-2p58p1-stride-64.mp", argv[1]);
    write_hostile_dists(path, (INT64_C(1) << 58) + 1, 1, 64);
    snprintf(path, sizeof path, "%s/corpus-dists/cols-2p62-stride-64.mp", argv[1]);
    write_hostile_dists(path, 1, INT64_C(1) << 62, 64);
    return 0;
}
