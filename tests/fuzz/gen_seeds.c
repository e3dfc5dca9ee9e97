/* gen_seeds: writes the committed seed files of fuzz_dists with the project's own
 * writer (dists_create / dists_write_row / dists_commit): a 1-entity and a
 * 3-entity artifact. Run by `make -f tests/fuzz/build.mk seeds`; the corpus and
 * samples seeds come from bin/tokenize and bin/build-samples (see
 * /work/notes/readme-fuzz.md). Usage: gen_seeds DIR */
#include <stdio.h>

#include "artifacts/dists.h"

static void write_dists(const char *path, int n) {
    static char *names[] = {"Ohio", "Texas", "New York"};
    int64_t eids[] = {7, 0, 42};
    entity_table t = {n, eids, names};
    dists_writer *w = dists_create(path, &t);
    float p[3], l[3];
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < n; k++) p[k] = (k == i ? 2.0f : 1.0f) / (float)(n + 1), l[k] = -(float)(k + 1);
        dists_write_row(w, p, l);
    }
    dists_commit(w);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_seeds DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus-dists/one.mp", argv[1]);
    write_dists(path, 1);
    snprintf(path, sizeof path, "%s/corpus-dists/three.mp", argv[1]);
    write_dists(path, 3);
    return 0;
}
