/* test_dists: the dists artifact writer/reader (round trip, entity-table checks, the
 * dists-rows kind (rows of some entities) and its row-list checks,
 * schema 1 files with their second matrix still read, rows that are no distribution
 * refused by reader and writer, the checksum trailer). Also a fixture tool for the
 * stage tests:
 *   test_dists --write OUT.mp < SPEC
 * SPEC: "N", then N lines "eid<TAB>name", then N rows of N probabilities. */
#include <math.h>
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
 * writer would refuse to produce). */
static void poke_value(const char *path, int64_t row, int64_t col, float v) {
    dists d;
    dists_open(&d, path);
    const row_matrix *m = &d.prob;
    if (row < 0 || row >= m->rows || col < 0 || col >= m->cols) die("poke: no cell %lld,%lld", (long long)row, (long long)col);
    uint64_t off = row_matrix_offset(m, row) + (uint64_t)col * sizeof(float);
    dists_close(&d);
    FILE *f = fopen(path, "r+b");
    if (!f || fseek(f, (long)off, SEEK_SET) || fwrite(&v, sizeof v, 1, f) != 1 || fclose(f)) die_errno("poke %s", path);
}

/* test_dists --poke FILE mean_prob ROW COL VALUE */
static int poke_fixture(char **argv) {
    pe_progname = "test_dists";
    if (strcmp(argv[1], "mean_prob")) die("poke: only mean_prob can be poked");
    poke_value(argv[0], strtoll(argv[2], NULL, 10), strtoll(argv[3], NULL, 10), strtof(argv[4], NULL));
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

static void open_rows(void *arg) {
    dists_rows d;
    dists_rows_open(&d, arg);
}

/* A 3-entity dists-rows holding `rows` (nrows of them) and an m x 3 matrix of uniform rows. */
static char *write_raw_rows(const char *name, const int64_t *rows, int nrows, int m) {
    char *path = xasprintf("%s/%s", tmpdir, name);
    artifact_writer *w = artifact_create(path, DISTS_ROWS_KIND, DISTS_ROWS_SCHEMA);
    msgpack_packer *pk = artifact_payload(w);
    int64_t eids[3] = {5, 6, 7};
    char *names[3] = {"a", "b", "c"};
    entity_table t = {3, eids, names};
    msgpack_pack_map(pk, 4);
    mp_kv_int(pk, "entities", t.n);
    mp_kv_i64_array(pk, "eid", t.eid, t.n);
    mp_kv_str_array(pk, "name", t.name, t.n);
    mp_kv_i64_array(pk, "rows", rows, nrows);
    const float row[3] = {1.0f / 3, 1.0f / 3, 1.0f / 3};
    artifact_matrix_begin(w, "mean_prob", m, 3);
    for (int i = 0; i < m; i++) artifact_matrix_row(w, row);
    artifact_commit(w);
    return path;
}

/* dists-rows: the writer's file read back (rows, the table, the values); rows out of order,
 * repeated or outside the table, and a matrix of another row count, are exit 3; a dists is
 * not a dists-rows (and dists_is_rows tells them apart). */
static void test_dists_rows(void) {
    char *path = xasprintf("%s/rows.mp", tmpdir);
    entity_table t;
    make_table(&t, 4, 10, "e");
    const int64_t keep[2] = {1, 3};
    dists_writer *w = dists_create_rows(path, &t, keep, 2);
    const float p[4] = {0.1f, 0.2f, 0.3f, 0.4f}, q[4] = {0.4f, 0.3f, 0.2f, 0.1f};
    dists_write_row(w, p);
    dists_write_row(w, q);
    dists_commit(w);
    dists_rows d;
    dists_rows_open(&d, path);
    CHECK_EQ_INT(d.nrows, 2);
    CHECK_EQ_INT(d.ent.n, 4);
    CHECK_EQ_INT(d.rows[1], 3);
    CHECK_STR(d.ent.name[3], "e 3");
    CHECK_NEAR(row_matrix_row(&d.prob, 1)[0], 0.4, 1e-7);
    dists_rows_close(&d);
    CHECK(dists_is_rows(path));
    char *full = write_dists("full.mp", 3, 1, "f");
    CHECK(!dists_is_rows(full));
    CHECK_EQ_INT(child_status(open_rows, full), 3); /* wrong kind */
    CHECK_EQ_INT(child_status(open_one, path), 3);
    const int64_t ok[2] = {0, 2}, down[2] = {2, 0}, twice[2] = {1, 1}, outside[2] = {0, 3};
    char *good = write_raw_rows("r-ok.mp", ok, 2, 2), *bad_order = write_raw_rows("r-down.mp", down, 2, 2);
    char *bad_twice = write_raw_rows("r-twice.mp", twice, 2, 2), *bad_out = write_raw_rows("r-out.mp", outside, 2, 2);
    char *bad_shape = write_raw_rows("r-shape.mp", ok, 2, 3);
    CHECK_EQ_INT(child_status(open_rows, good), 0);
    CHECK_EQ_INT(child_status(open_rows, bad_order), 3);
    CHECK_EQ_INT(child_status(open_rows, bad_twice), 3);
    CHECK_EQ_INT(child_status(open_rows, bad_out), 3);
    CHECK_EQ_INT(child_status(open_rows, bad_shape), 3); /* 2 rows listed, 3 in the matrix */
    free(good), free(bad_order), free(bad_twice), free(bad_out), free(bad_shape), free(full), free(path);
    entity_table_free(&t);
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

/* A 3-entity dists whose rows are {0.5, 0.25, 0.25}, then row 1 overwritten with `bad`
 * (the writers refuse such rows: the file is damaged after it was written). */
static char *write_damaged(const char *name, const float bad[3]) {
    char *path = write_dists(name, 3, 1, "v");
    for (int j = 0; j < 3; j++) poke_value(path, 1, j, bad[j]);
    return path;
}

typedef struct {
    const char *path;
    int64_t row;
} row_ref;

static void touch_row(void *arg) {
    row_ref *r = arg;
    dists d;
    dists_open(&d, r->path);
    volatile float x = row_matrix_row(&d.prob, r->row)[0];
    (void)x;
    dists_close(&d);
}

/* Rows that are no distribution are refused where they are used (exit 3 naming file,
 * row and defect); a good row of the same file is used. */
static void test_rows_not_distributions(void) {
    struct {
        float bad[3];
        const char *needle;
    } cases[] = {
        {{0.5f, 0.25f, 0.f}, "mean_prob row 1: sums to 0.75"},
        {{0.f, 0.f, 0.f}, "mean_prob row 1: sums to 0"},
        {{0.5f, 0.25f, 0.25f + 0.02f}, "mean_prob row 1: sums to 1.02"},
        {{NAN, 0.5f, 0.5f}, "mean_prob row 1: column 0 is nan"},
        {{0.5f, INFINITY, 0.f}, "mean_prob row 1: column 1 is inf"},
        {{0.5f, 0.5f, -INFINITY}, "mean_prob row 1: column 2 is -inf"},
        {{1.5f, -0.5f, 0.f}, "mean_prob row 1: column 1 is -0.5"},
        {{1e30f, 0.f, 0.f}, "mean_prob row 1: sums to 1e+30"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char name[32];
        snprintf(name, sizeof name, "values-%zu.mp", c);
        char *path = write_damaged(name, cases[c].bad);
        row_ref bad = {path, 1}, good = {path, 2};
        CHECK_DIES(3, cases[c].needle, touch_row, &bad);
        CHECK_DIES(0, "", touch_row, &good);
        free(path);
    }
    /* within the tolerance: accepted */
    float close[3] = {0.5f, 0.25f, 0.255f};
    char *path = write_damaged("values-close.mp", close);
    row_ref ok = {path, 1};
    CHECK_DIES(0, "", touch_row, &ok);
    free(path);
}

static void write_one_row(void *arg) {
    const float *row = arg;
    entity_table t;
    make_table(&t, 3, 1, "w");
    char *path = xasprintf("%s/refused.mp", tmpdir);
    dists_writer *w = dists_create(path, &t);
    dists_write_row(w, row);
    dists_write_row(w, row);
    dists_write_row(w, row);
    dists_commit(w);
}

/* The writer refuses a row that is no distribution (exit 1) and leaves no file. */
static void test_writer_refuses(void) {
    float good[3] = {0.25f, 0.25f, 0.5f}, nan_row[3] = {NAN, 0.5f, 0.5f}, neg[3] = {-0.25f, 0.75f, 0.5f};
    float inf_row[3] = {INFINITY, 0.f, 0.f}, half[3] = {0.25f, 0.25f, 0.f};
    char *path = xasprintf("%s/refused.mp", tmpdir);
    CHECK_DIES(1, "mean_prob row 0 (entity \"w 0\") column 0 is nan", write_one_row, nan_row);
    CHECK_DIES(1, "column 0 is -0.25", write_one_row, neg);
    CHECK_DIES(1, "column 0 is inf", write_one_row, inf_row);
    CHECK_DIES(1, "sums to 0.5", write_one_row, half);
    CHECK(access(path, F_OK) != 0);
    CHECK_DIES(0, "", write_one_row, good);
    CHECK(access(path, F_OK) == 0);
    free(path);
}

static void verify_one(void *arg) {
    dists d;
    dists_open(&d, arg);
    int has = artifact_verify(d.r);
    dists_close(&d);
    exit(has ? 0 : 4);
}

static long file_size_of(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static void flip_byte(const char *path, long at) {
    FILE *f = fopen(path, "r+b");
    if (!f) return;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x01, f);
    fclose(f);
}

static char *copy_of(const char *src, const char *name) {
    char *dst = xasprintf("%s/%s", tmpdir, name), *cmd = xasprintf("cp '%s' '%s'", src, dst);
    CHECK(system(cmd) == 0);
    free(cmd);
    return dst;
}

/* The checksum trailer: an intact file verifies; a changed payload byte (a name, a
 * probability that still leaves the row a distribution) is a mismatch; a truncated
 * trailer or bytes appended after it make the file unreadable; a file without any
 * trailer (written before checksums) is read and says it cannot be verified. */
static void test_checksum_trailer(void) {
    char *good = write_dists("sum.mp", 4, 1, "q");
    long size = file_size_of(good), trailer = 105;
    CHECK_DIES(0, "", verify_one, good);

    dists d;
    dists_open(&d, good);
    long name_at = -1, prob_at = (long)row_matrix_offset(&d.prob, 3);
    dists_close(&d);
    FILE *f = fopen(good, "rb");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (size_t i = 0; i + 3 < n; i++)
        if (!memcmp(buf + i, "q 2", 3)) name_at = (long)i + 2;
    CHECK(name_at > 0);
    char *renamed = copy_of(good, "sum-name.mp");
    flip_byte(renamed, name_at); /* "q 2" -> "q 3": still a valid file, but not the one written */
    CHECK_DIES(3, "checksum mismatch", verify_one, renamed);
    char *lowbit = copy_of(good, "sum-prob.mp");
    flip_byte(lowbit, prob_at); /* the lowest mantissa bit of one probability */
    CHECK_DIES(3, "checksum mismatch", verify_one, lowbit);
    char *inside = copy_of(good, "sum-trailer.mp");
    flip_byte(inside, size - 30); /* a hex digit of the recorded sha256 */
    CHECK_DIES(3, "", verify_one, inside);

    char *cut = copy_of(good, "sum-cut.mp");
    CHECK(truncate(cut, size - 10) == 0);
    CHECK_DIES(3, "sum-cut.mp: byte", verify_one, cut);
    char *cut_half = copy_of(good, "sum-cut-half.mp");
    CHECK(truncate(cut_half, size - trailer / 2) == 0);
    CHECK_DIES(3, "sum-cut-half.mp: byte", verify_one, cut_half);
    char *appended = copy_of(good, "sum-appended.mp");
    f = fopen(appended, "ab");
    fputs("x", f);
    fclose(f);
    CHECK_DIES(3, "sum-appended.mp: byte", verify_one, appended);
    char *none = copy_of(good, "sum-none.mp");
    CHECK(truncate(none, size - trailer) == 0);
    CHECK_DIES(4, "", verify_one, none); /* readable, no trailer to check */
    free(good), free(renamed), free(lowbit), free(inside), free(cut), free(cut_half), free(appended), free(none);
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
    RUN(test_dists_rows);
    RUN(test_schema_versions);
    RUN(test_rows_not_distributions);
    RUN(test_writer_refuses);
    RUN(test_checksum_trailer);
    char *cmd = xasprintf("rm -rf %s", tmpdir);
    if (system(cmd)) return 1;
    free(cmd);
    return check_any_failed_;
}
