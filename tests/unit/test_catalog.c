/* test_catalog: runs, outputs, metrics and lineage land in the SQLite catalog;
 * failed runs are recorded with their exit code; concurrent writer processes
 * lose nothing (WAL + busy timeout); the `catalog` tool prints ls/lineage/show. */
#include <sqlite3.h>
#include <signal.h>
#include <sys/wait.h>

#include "format/artifact.h"
#include "catalog/catalog.h"
#include "check.h"
#include "base/cli.h"
#include "base/error.h"

static char dir[] = "/tmp/probexpan-catalog-XXXXXX";
static char *db_path;

/* In a child process: one run that writes `out` from `input` (NULL = none). */
static void child_run(const char *out, const char *input, int fail) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) { waitpid(pid, NULL, 0); return; }
    pe_progname = "test-stage";
    cli_catalog = db_path;
    catalog_begin(dir);
    catalog_param("alpha", "1000");
    catalog_metric("loss", 0.25);
    catalog_metric_str("note", "ok");
    if (fail) die_input("data.json", "line 3", "simulated failure");
    artifact_writer *w = artifact_create(out, "thing", 1);
    if (input) artifact_add_input(w, input);
    msgpack_pack_nil(artifact_payload(w));
    artifact_commit(w);
    exit(0);
}

static long long query_int(const char *sql) {
    sqlite3 *db;
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_open(db_path, &db) == SQLITE_OK && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return v;
}

static void test_lineage_and_failed_runs(void) {
    char *raw = xasprintf("%s/raw.txt", dir), *a = xasprintf("%s/a.mp", dir), *b = xasprintf("%s/b.mp", dir);
    FILE *f = fopen(raw, "w");
    fputs("raw input\n", f);
    fclose(f);
    child_run(a, raw, 0);
    child_run(b, a, 0);
    child_run(b, a, 1);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM runs"), 3);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM artifacts"), 2);
    CHECK_EQ_INT(query_int("SELECT status FROM runs ORDER BY id DESC LIMIT 1"), 3);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM runs WHERE status = 0 AND peak_rss_kb > 0"), 2);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM metrics WHERE key = 'loss' AND value = 0.25"), 3);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM run_params WHERE key = 'alpha' AND value = '1000'"), 3);
    /* b's input is a's artifact record; a's input is a raw file (no record) */
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM lineage l JOIN artifacts b ON b.id = l.artifact_id"
                           " JOIN artifacts a ON a.id = l.input_artifact_id"
                           " WHERE b.path LIKE '%/b.mp' AND a.path LIKE '%/a.mp'"), 1);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM lineage WHERE input_path LIKE '%/raw.txt'"
                           " AND input_artifact_id IS NULL"), 1);
    /* the reading tool */
    const char *bin = getenv("PROBEXPAN_BIN");
    if (!bin) bin = "bin";
    char *cmd = xasprintf("%s/catalog --catalog %s lineage %s", bin, db_path, b);
    FILE *p = popen(cmd, "r");
    char out[4096] = {0};
    size_t n = fread(out, 1, sizeof out - 1, p);
    int rc = pclose(p);
    CHECK(n > 0 && rc == 0);
    CHECK(strstr(out, "b.mp [thing]") && strstr(out, "<- ") && strstr(out, "a.mp [thing]") &&
          strstr(out, "raw.txt [input]"));
    free(cmd);
    cmd = xasprintf("%s/catalog --catalog %s show %s/nope.mp 2>/dev/null", bin, db_path, dir);
    rc = system(cmd);
    CHECK(WIFEXITED(rc) && WEXITSTATUS(rc) == 3);
    free(cmd);
    free(raw); free(a); free(b);
}

static void test_concurrent_writers(void) {
    long long before = query_int("SELECT COUNT(*) FROM runs");
    enum { PROCS = 6, RUNS = 15 };
    fflush(stdout);
    for (int p = 0; p < PROCS; p++) {
        if (fork() == 0) {
            for (int k = 0; k < RUNS; k++) {
                char *out = xasprintf("%s/c%d-%d.mp", dir, p, k);
                child_run(out, NULL, 0);
                free(out);
            }
            _exit(0);
        }
    }
    for (int p = 0; p < PROCS; p++) wait(NULL);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM runs") - before, PROCS * RUNS);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM artifacts WHERE path LIKE '%/c%-%.mp'"), PROCS * RUNS);
}

/* A catalog made before artifacts.mtime_ns existed is upgraded, not refused. */
static void test_old_catalog_upgraded(void) {
    char *old = xasprintf("%s/old.sqlite", dir), *saved = db_path;
    sqlite3 *db;
    CHECK(sqlite3_open(old, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "CREATE TABLE artifacts(id INTEGER PRIMARY KEY, path TEXT NOT NULL, kind TEXT,"
                           " schema INTEGER, bytes INTEGER, sha256 TEXT, created TEXT, run_id INTEGER)",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    db_path = old;
    char *out = xasprintf("%s/upgraded.mp", dir);
    child_run(out, NULL, 0);
    CHECK_EQ_INT(query_int("SELECT COUNT(*) FROM artifacts WHERE path LIKE '%/upgraded.mp' AND mtime_ns > 0"), 1);
    db_path = saved;
    free(out);
    free(old);
}

/* Two artifacts recorded as each other's input (an old catalog where an output replaced
 * its input): lineage prints the cycle once and stops. */
static void test_lineage_cycle(void) {
    sqlite3 *db;
    CHECK(sqlite3_open(db_path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "INSERT INTO artifacts(id,path,kind,schema,bytes,sha256) VALUES"
                           " (9001,'/cyc/x.mp','dists',1,1,'x'), (9002,'/cyc/y.mp','dists',1,1,'y');"
                           "INSERT INTO lineage(artifact_id,input_path,input_sha256,input_artifact_id) VALUES"
                           " (9001,'/cyc/y.mp','y',9002), (9002,'/cyc/x.mp','x',9001), (9001,'/cyc/y.mp','y',9002);",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    const char *bin = getenv("PROBEXPAN_BIN");
    char *cmd = xasprintf("timeout 60 %s/catalog --catalog %s lineage 9001 | wc -l", bin ? bin : "bin", db_path);
    FILE *p = popen(cmd, "r");
    long lines = -1;
    CHECK(p && fscanf(p, "%ld", &lines) == 1);
    if (p) pclose(p);
    CHECK_EQ_INT(lines, 5); /* x, <- y, <- x (cycle), and again for x's second input row */
    free(cmd);
    cmd = xasprintf("%s/catalog --catalog %s lineage 9001 | grep -c 'x.mp \\[dists\\] (cycle' | grep -qx 2", bin ? bin : "bin",
                    db_path);
    CHECK(system(cmd) == 0);
    free(cmd);
}

/* A run killed by SIGTERM, SIGINT or SIGHUP while it writes an artifact: the process
 * still dies of the signal, its temp file is gone and the catalog records the run with
 * status 128+signal. */
static void test_killed_run_recorded(void) {
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (int k = 0; k < 3; k++) {
        char *out = xasprintf("%s/killed-%d.mp", dir, sigs[k]);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            pe_progname = "test-killed";
            cli_catalog = db_path;
            alarm(20); /* bound: a lost signal must not hang the suite */
            error_catch_signals();
            catalog_begin(dir);
            artifact_writer *w = artifact_create(out, "thing", 1);
            msgpack_pack_nil(artifact_payload(w));
            raise(sigs[k]);
            for (;;) pause(); /* the watcher thread ends the process */
        }
        int st = 0;
        waitpid(pid, &st, 0);
        CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k], "signal %d: child status 0x%x", sigs[k], st);
        char *cmd = xasprintf("ls %s | grep -c 'killed-%d.mp.tmp.' >/dev/null", dir, sigs[k]);
        CHECK_MSG(system(cmd) != 0, "signal %d: a temp file was left in %s", sigs[k], dir);
        CHECK(access(out, F_OK) != 0);
        char *sql = xasprintf("SELECT COUNT(*) FROM runs WHERE stage = 'test-killed' AND status = %d", 128 + sigs[k]);
        CHECK_EQ_INT(query_int(sql), 1);
        free(sql);
        free(cmd);
        free(out);
    }
}

TEST_MAIN_BEGIN("test_catalog")
    if (!mkdtemp(dir)) return 1;
    db_path = xasprintf("%s/catalog.sqlite", dir);
    RUN(test_lineage_and_failed_runs);
    RUN(test_concurrent_writers);
    RUN(test_old_catalog_upgraded);
    RUN(test_killed_run_recorded);
    RUN(test_lineage_cycle);
    char *cmd = xasprintf("rm -rf %s", dir);
    if (system(cmd)) return 1;
    free(cmd);
TEST_MAIN_END
