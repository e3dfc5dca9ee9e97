/* test_dists: the dists artifact writer/reader (round trip, entity-table checks,
 * schema 1 files with their second matrix still read). Also a fixture tool for the
 * stage tests:
 *   test_dists --write OUT.mp < SPEC
 * SPEC: "N", then N lines "eid<TAB>name", then N rows of N probabilities. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "base/cli.h"
#include "artifacts/dists.h"
#include "base/error.h"

static int write_fixture(const char *out) {
    pe_progname = "test_dists";
    long long n;
    if (scanf("%lld", &n) != 1 || n < 1) die("fixture: expected N");
    entity_table t = {n, xmalloc(sizeof(int64_t) * (size_t)n), xmalloc(sizeof(char *) * (size_t)n)};
    char line[512];
    if (!fgets(line, sizeof line, stdin)) die("fixture: truncated");
    for (long long i = 0; i < n; i++) {
        if (!fgets(line, sizeof line, stdin)) die("fixture: expected eid<TAB>name");
        line[strcspn(line, "\n")] = 0;
        char *tab = strchr(line, '\t');
        if (!tab) die("fixture: expected eid<TAB>name, got '%s'", line);
        t.eid[i] = strtoll(line, NULL, 10);
        t.name[i] = xstrdup(tab + 1);
    }
    dists_writer *w = dists_create(out, &t);
    float *p = xmalloc(sizeof(float) * (size_t)n);
    for (long long i = 0; i < n; i++) {
        for (long long j = 0; j < n; j++)
            if (scanf("%f", &p[j]) != 1) die("fixture: row %lld: expected %lld numbers", i, n);
        dists_write_row(w, p);
    }
    dists_commit(w);
    free(p);
    entity_table_free(&t);
    return 0;
}

/* Overwrites mean_prob[row][col] of the dists at path (a damaged or hand-made file the
 * writer would refuse to produce): test_dists --poke FILE mean_prob ROW COL VALUE. */
static int poke_fixture(char **argv) {
    pe_progname = "test_dists";
    const char *path = argv[0];
    int64_t row = strtoll(argv[2], NULL, 10), col = strtoll(argv[3], NULL, 10);
    float v = strtof(argv[4], NULL);
    if (strcmp(argv[1], "mean_prob")) die("poke: only mean_prob can be poked");
    dists d;
    dists_open(&d, path);
    const row_matrix *m = &d.prob;
    if (row < 0 || row >= m->rows || col < 0 || col >= m->cols) die("poke: no cell %lld,%lld", (long long)row, (long long)col);
    uint64_t off = row_matrix_offset(m, row) + (uint64_t)col * sizeof(float);
    dists_close(&d);
    FILE *f = fopen(path, "r+b");
    if (!f || fseek(f, (long)off, SEEK_SET) || fwrite(&v, sizeof v, 1, f) != 1 || fclose(f)) die_errno("poke %s", path);
    return 0;
}

static char tmpdir[] = "/tmp/test_dists.XXXXXX";

static void make_table(entity_table *t, int n, int64_t eid0, const char *prefix) {
    t->n = n;
    t->eid = xmalloc(sizeof(int64_t) * (size_t)n);
    t->name = xmalloc(sizeof(char *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        t->eid[i] = eid0 + 10 * i;
        t->name[i] = xasprintf("%s %d", prefix, i);
    }
}

/* Writes an n-entity dists where prob[i][j] = (i*n + j + 1) / (the row's sum). */
static char *write_dists(const char *name, int n, int64_t eid0, const char *prefix) {
    char *path = xasprintf("%s/%s", tmpdir, name);
    entity_table t;
    make_table(&t, n, eid0, prefix);
    dists_writer *w = dists_create(path, &t);
    artifact_param_str(dists_artifact(w), "note", "unit test");
    float *p = xmalloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < n; j++) sum += i * n + j + 1;
        for (int j = 0; j < n; j++) p[j] = (float)((i * n + j + 1) / sum);
        dists_write_row(w, p);
    }
    dists_commit(w);
    free(p);
    entity_table_free(&t);
    return path;
}

static void test_round_trip(void) {
    char *path = write_dists("a.mp", 5, 100, "ent");
    dists d;
    dists_open(&d, path);
    CHECK_EQ_INT(dists_n(&d), 5);
    CHECK_EQ_INT(d.ent.eid[3], 130);
    CHECK_STR(d.ent.name[4], "ent 4");
    CHECK_EQ_INT(dists_row_of(&d, 120), 2);
    CHECK_EQ_INT(dists_row_of(&d, 121), -1);
    CHECK_NEAR(row_matrix_row(&d.prob, 2)[3], 14.0 / 65, 1e-7);
    CHECK_NEAR(row_matrix_row(&d.prob, 4)[4], 25.0 / 115, 1e-7);
    CHECK(((uintptr_t)row_matrix_row(&d.prob, 1)) % 64 == 0);
    CHECK_EQ_INT(artifact_hdr(d.r)->schema, 2);
    dists_close(&d);
    free(path);
}

/* Runs fn in a child; returns its exit status (-1 when it did not exit). */
static int child_status(void (*fn)(void *), void *arg) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        fn(arg);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void compare_tables(void *arg) {
    char **paths = arg;
    dists a, b;
    dists_open(&a, paths[0]);
    dists_open(&b, paths[1]);
    dists_check_same_entities(&a, &b);
}

static void test_entity_tables(void) {
    char *a = write_dists("t1.mp", 4, 7, "x"), *same = write_dists("t2.mp", 4, 7, "x");
    char *other_eid = write_dists("t3.mp", 4, 8, "x"), *other_name = write_dists("t4.mp", 4, 7, "y");
    char *other_n = write_dists("t5.mp", 3, 7, "x");
    char *p1[] = {a, same}, *p2[] = {a, other_eid}, *p3[] = {a, other_name}, *p4[] = {a, other_n};
    CHECK_EQ_INT(child_status(compare_tables, p1), 0);
    CHECK_EQ_INT(child_status(compare_tables, p2), 3);
    CHECK_EQ_INT(child_status(compare_tables, p3), 3);
    CHECK_EQ_INT(child_status(compare_tables, p4), 3);
    free(a), free(same), free(other_eid), free(other_name), free(other_n);
}

static void open_one(void *arg) {
    dists d;
    dists_open(&d, arg);
}

static void test_truncated_and_wrong_kind(void) {
    char *a = write_dists("trunc.mp", 6, 1, "z");
    FILE *f = fopen(a, "r+");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    CHECK(truncate(a, size - 100) == 0);
    CHECK_EQ_INT(child_status(open_one, a), 3);
    char *notdists = xasprintf("%s/plain.mp", tmpdir);
    artifact_writer *w = artifact_create(notdists, "expansions", 1);
    artifact_commit(w);
    CHECK_EQ_INT(child_status(open_one, notdists), 3);
    free(a);
    free(notdists);
}

/* A dists-kind artifact of `schema` whose table has `n` entities (eids from `eids`,
 * `neid` of them), followed by `nmat` m x m matrices (mean_prob, mean_log_prob). */
static char *write_raw(const char *name, int schema, int n, const int64_t *eids, int neid, int m, int nmat) {
    char *path = xasprintf("%s/%s", tmpdir, name);
    artifact_writer *w = artifact_create(path, DISTS_KIND, schema);
    msgpack_packer *pk = artifact_payload(w);
    msgpack_pack_map(pk, 3);
    mp_kv_int(pk, "entities", n);
    mp_str(pk, "eid");
    msgpack_pack_array(pk, (size_t)neid);
    for (int i = 0; i < neid; i++) msgpack_pack_int64(pk, eids[i]);
    mp_str(pk, "name");
    msgpack_pack_array(pk, (size_t)n);
    for (int i = 0; i < n; i++) mp_str(pk, "x");
    float row[8] = {0};
    for (int k = 0; k < nmat; k++) {
        artifact_matrix_begin(w, k ? "mean_log_prob" : "mean_prob", m, m);
        for (int i = 0; i < m; i++) artifact_matrix_row(w, row);
    }
    artifact_commit(w);
    return path;
}

static void test_bad_tables(void) {
    int64_t eids[3] = {5, 6, 5};
    char *dup = write_raw("dup.mp", 2, 3, eids, 3, 3, 1), *shape = write_raw("shape.mp", 2, 3, eids, 2, 3, 1);
    char *small = write_raw("small.mp", 2, 2, eids, 2, 3, 1), *ok = write_raw("ok.mp", 2, 2, eids, 2, 2, 1);
    CHECK_EQ_INT(child_status(open_one, dup), 3);   /* eid 5 in rows 0 and 2 */
    CHECK_EQ_INT(child_status(open_one, shape), 3); /* 3 entities, 2 eids */
    CHECK_EQ_INT(child_status(open_one, small), 3); /* 2 entities, 3 x 3 matrices */
    CHECK_EQ_INT(child_status(open_one, ok), 0);
    free(dup), free(shape), free(small), free(ok);
}

/* Schema 1 files hold mean_log_prob after mean_prob: still read (the second matrix checked,
 * not used); schema 2 holds mean_prob alone; anything else is exit 3. */
static void test_schema_versions(void) {
    int64_t eids[2] = {5, 6};
    char *old = write_raw("v1.mp", 1, 2, eids, 2, 2, 2), *old_short = write_raw("v1-short.mp", 1, 2, eids, 2, 2, 1);
    char *old_bad = write_raw("v1-bad.mp", 1, 2, eids, 2, 2, 0), *extra = write_raw("v2-extra.mp", 2, 2, eids, 2, 2, 2);
    char *future = write_raw("v3.mp", 3, 2, eids, 2, 2, 1);
    CHECK_EQ_INT(child_status(open_one, old), 0);
    CHECK_EQ_INT(child_status(open_one, old_short), 3); /* schema 1 without mean_log_prob */
    CHECK_EQ_INT(child_status(open_one, old_bad), 3);
    CHECK_EQ_INT(child_status(open_one, extra), 3);     /* schema 2 with a second matrix */
    CHECK_EQ_INT(child_status(open_one, future), 3);
    free(old), free(old_short), free(old_bad), free(extra), free(future);
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--write")) return write_fixture(argv[2]);
    if (argc == 7 && !strcmp(argv[1], "--poke")) return poke_fixture(argv + 2);
    check_prog_ = "test_dists";
    pe_progname = "test_dists";
    if (!mkdtemp(tmpdir)) return 1;
    RUN(test_round_trip);
    RUN(test_entity_tables);
    RUN(test_truncated_and_wrong_kind);
    RUN(test_bad_tables);
    RUN(test_schema_versions);
    char *cmd = xasprintf("rm -rf %s", tmpdir);
    if (system(cmd)) return 1;
    free(cmd);
    return check_any_failed_;
}
