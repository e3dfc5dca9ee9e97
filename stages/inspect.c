/* inspect: print an artifact as JSON lines — the header first, then each payload
 * object; row matrices as a summary line (shape and the first values of the first
 * rows) unless --full, which prints every row as a JSON array. For jq pipelines.
 * --verify instead checks the file against its checksum trailer, walks the whole
 * payload and, for dists, the values of every row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts/dists.h"
#include "format/artifact.h"
#include "base/cli.h"
#include "base/error.h"
#include "format/mpjson.h"

static void print_row(const float *row, int64_t n) {
    putchar('[');
    for (int64_t j = 0; j < n; j++) {
        if (j) putchar(',');
        mpjson_print_number(stdout, row[j]);
    }
    putchar(']');
}

/* --verify: checksum, payload structure and (dists) every row's values; prints one line. */
static void verify(artifact_reader *r) {
    const char *path = artifact_path(r);
    if (!artifact_verify(r))
        die_input(path, NULL, "no checksum trailer (written by a version before checksums): cannot verify");
    msgpack_object obj;
    while (artifact_next(r, &obj))
        if (artifact_is_matrix(&obj)) {
            row_matrix m;
            artifact_matrix_rows(r, &obj, &m);
        }
    if (!strcmp(artifact_hdr(r)->kind, DISTS_KIND)) {
        dists d;
        dists_open(&d, path);
        for (int64_t i = 0; i < dists_n(&d); i++) row_matrix_row(&d.prob, i);
        dists_close(&d);
    }
    printf("%s: ok (checksum matches%s)\n", path, !strcmp(artifact_hdr(r)->kind, DISTS_KIND) ? ", every row is a distribution" : "");
}

int main(int argc, char **argv) {
    int full = 0, header_only = 0, verify_only = 0;
    const cli_option opts[] = {
        {"full", OPT_FLAG, &full, NULL, "print every row of row matrices", 0, 0},
        {"header", OPT_FLAG, &header_only, NULL, "print the header line only", 0, 0},
        {"verify", OPT_FLAG, &verify_only, NULL, "check the file against its checksum (reads it all), its structure and, for dists, every row's values; exit 3 on any defect", 0, 0},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"inspect", "print an artifact as JSON lines (header, then payload objects)",
                           "[options] ARTIFACT", "probexpan inspect run/dists-1.mp | jq -c 'select(.matrix)'",
                           "catalog; every stage writes artifacts that inspect reads", opts, 1};
    int first = cli_parse(&spec, argc, argv);
    if (argc - first != 1) die_usage("expected exactly one ARTIFACT (try --help)");
    artifact_reader *r = artifact_open(argv[first], NULL, 1 << 30);
    if (verify_only) {
        verify(r);
        artifact_close(r);
        return 0;
    }
    const artifact_header *h = artifact_hdr(r);
    printf("{\"format\":\"probexpan\",\"kind\":");
    mpjson_print_string(stdout, h->kind, strlen(h->kind));
    printf(",\"schema\":%lld,\"producer\":{\"name\":", (long long)h->schema);
    mpjson_print_string(stdout, h->producer, strlen(h->producer));
    printf(",\"version\":");
    mpjson_print_string(stdout, h->producer_version, strlen(h->producer_version));
    printf("},\"created\":");
    mpjson_print_string(stdout, h->created, strlen(h->created));
    printf(",\"params\":");
    mpjson_print(stdout, &h->params);
    printf(",\"inputs\":");
    mpjson_print(stdout, &h->inputs);
    printf("}\n");
    msgpack_object obj;
    while (!header_only && artifact_next(r, &obj)) {
        if (!artifact_is_matrix(&obj)) {
            mpjson_print(stdout, &obj);
            putchar('\n');
            continue;
        }
        row_matrix m;
        char *name = mp_get_str(r, &obj, "matrix");
        artifact_matrix_rows(r, &obj, &m);
        printf("{\"matrix\":");
        mpjson_print_string(stdout, name, strlen(name));
        printf(",\"rows\":%lld,\"cols\":%lld", (long long)m.rows, (long long)m.cols);
        if (full) {
            printf("}\n");
            for (int64_t i = 0; i < m.rows; i++) {
                print_row(row_matrix_row(&m, i), m.cols);
                putchar('\n');
            }
        } else {
            printf(",\"head\":[");
            for (int64_t i = 0; i < m.rows && i < 3; i++) {
                if (i) putchar(',');
                print_row(row_matrix_row(&m, i), m.cols < 8 ? m.cols : 8);
            }
            printf("]}\n");
        }
        free(name);
    }
    stdout_flush();
    artifact_close(r);
    return 0;
}
