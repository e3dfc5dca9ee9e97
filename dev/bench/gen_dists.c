/* gen_dists: a synthetic `dists` artifact for `make bench-expand`.
 *   gen_dists OUT.mp V [CLASS_SIZE]
 * V entities in V/CLASS_SIZE interleaved classes (class of row i = i mod
 * (V/CLASS_SIZE)); row i before normalisation: 1 + a hashed noise in [0, 1),
 * +8 on the entities of its class, +50 on itself (the noise has 16 levels, looked
 * up), so generating is cheap next to writing the file. Entity i has eid i and name
 * "entity i". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/cli.h"
#include "artifacts/dists.h"
#include "base/error.h"
#include "base/log.h"

static unsigned level(uint32_t i, uint32_t j) {
    uint32_t h = i * 0x9E3779B1u ^ (j + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h & 15;
}

int main(int argc, char **argv) {
    pe_progname = "gen_dists";
    if (argc < 3) die_usage("usage: gen_dists OUT.mp V [CLASS_SIZE]");
    int64_t n = atoll(argv[2]), cs = argc > 3 ? atoll(argv[3]) : 100;
    if (n < 2 || cs < 1 || cs > n) die_usage("bad V or CLASS_SIZE");
    int64_t nclass = n / cs;
    entity_table t = {n, xmalloc(sizeof(int64_t) * (size_t)n), xmalloc(sizeof(char *) * (size_t)n)};
    for (int64_t i = 0; i < n; i++) {
        t.eid[i] = i;
        t.name[i] = xasprintf("entity %lld", (long long)i);
    }
    dists_writer *w = dists_create(argv[1], &t);
    artifact_param_int(dists_artifact(w), "class_size", cs);
    artifact_param_str(dists_artifact(w), "generator", "dev/bench/gen_dists.c");
    float *p = xmalloc(sizeof(float) * (size_t)n);
    double value[2][16];
    for (int c = 0; c < 2; c++)
        for (int l = 0; l < 16; l++) value[c][l] = 1 + l / 16.0 + 8 * c;
    progress pr;
    progress_start(&pr, "generate", "rows", n);
    for (int64_t i = 0; i < n; i++) {
        double sum = 0;
        for (int64_t j = 0; j < n; j++) sum += value[j % nclass == i % nclass][level((uint32_t)i, (uint32_t)j)];
        sum += 50;
        double inv = 1 / sum;
        for (int64_t j = 0; j < n; j++) p[j] = (float)(value[j % nclass == i % nclass][level((uint32_t)i, (uint32_t)j)] * inv);
        p[i] = (float)((value[1][level((uint32_t)i, (uint32_t)i)] + 50) * inv);
        dists_write_row(w, p);
        progress_update(&pr, i + 1);
    }
    progress_end(&pr);
    dists_commit(w);
    free(p);
    entity_table_free(&t);
    return 0;
}
