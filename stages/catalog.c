/* catalog: read the SQLite catalog that every stage writes. Subcommands:
 *   ls                 artifacts (newest record per path)
 *   show ARTIFACT      one artifact, the run that made it (argv, params, metrics), inputs
 *   lineage ARTIFACT   the tree of inputs down to the raw files
 *   runs               every run with status, time, peak memory and metrics
 * ARTIFACT is a path or an artifact id. */
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cli.h"
#include "base/error.h"

static sqlite3 *db;
static const char *db_path;

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) return st;
    int code = sqlite3_errcode(db);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT || code == SQLITE_ERROR) /* ERROR: e.g. no such table */
        die_input(db_path, NULL, "not a ProbExpan catalog (%s)", sqlite3_errmsg(db));
    die("cannot read the catalog %s: %s", db_path, sqlite3_errmsg(db));
}

/* Opens the catalog read-only. A catalog in WAL mode is read through a shared-memory
 * file PATH-shm that SQLite creates beside it; in a folder this user cannot write,
 * the database is opened as immutable instead when it has no pending write-ahead log
 * (what every finished run leaves), else the real cause is reported. */
static void open_catalog(void) {
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die_input(db_path, NULL, "cannot open catalog: %s", sqlite3_errmsg(db));
    sqlite3_busy_timeout(db, 30000);
    int rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN) return;
    char *wal = xasprintf("%s-wal", db_path);
    struct stat st;
    int pending = stat(wal, &st) == 0 && st.st_size > 0;
    free(wal);
    if (pending)
        die("cannot read the catalog %s: %s — its folder is not writable, and SQLite must create %s-shm there "
            "to read the runs still in %s-wal (make the folder writable, or copy the catalog elsewhere)",
            db_path, sqlite3_errmsg(db), db_path, db_path);
    sqlite3_close(db);
    char *real = realpath(db_path, NULL);
    if (!real) die_errno("cannot resolve %s", db_path);
    size_t n = strlen(real);
    char *uri = xmalloc(3 * n + 32), *u = stpcpy(uri, "file:");
    for (size_t i = 0; i < n; i++) { /* percent-escape what a URI path cannot hold */
        if (strchr("%?#", real[i])) u += sprintf(u, "%%%02X", (unsigned char)real[i]);
        else *u++ = real[i];
    }
    strcpy(u, "?immutable=1");
    free(real);
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
        die("cannot read the catalog %s (its folder is not writable): %s", db_path, sqlite3_errmsg(db));
    free(uri);
}

static const char *col(sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

static void human_bytes(char *buf, size_t n, double b) {
    const char *u[] = {"B", "KB", "MB", "GB", "TB"};
    int k = 0;
    while (b >= 1024 && k < 4) { b /= 1024; k++; }
    snprintf(buf, n, k ? "%.1f %s" : "%.0f %s", b, u[k]);
}

static void cmd_ls(void) {
    sqlite3_stmt *st = prepare("SELECT a.id, a.kind, a.schema, a.bytes, a.created, a.path FROM artifacts a"
                               " WHERE a.id = (SELECT MAX(id) FROM artifacts b WHERE b.path = a.path) ORDER BY a.id");
    printf("%5s  %-12s %6s %10s  %-20s  %s\n", "id", "kind", "schema", "size", "created", "path");
    while (sqlite3_step(st) == SQLITE_ROW) {
        char size[32];
        human_bytes(size, sizeof size, sqlite3_column_double(st, 3));
        printf("%5lld  %-12s %6d %10s  %-20s  %s\n", sqlite3_column_int64(st, 0), col(st, 1),
               sqlite3_column_int(st, 2), size, col(st, 4), col(st, 5));
    }
    sqlite3_finalize(st);
}

static void print_metrics(sqlite3_int64 run_id, const char *indent) {
    sqlite3_stmt *st = prepare("SELECT key, value, text FROM metrics WHERE run_id = ? ORDER BY rowid");
    sqlite3_bind_int64(st, 1, run_id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) printf("%s%s = %s\n", indent, col(st, 0), col(st, 2));
        else printf("%s%s = %.6g\n", indent, col(st, 0), sqlite3_column_double(st, 1));
    }
    sqlite3_finalize(st);
}

static void cmd_runs(void) {
    sqlite3_stmt *st = prepare("SELECT id, stage, status, seconds, peak_rss_kb, started, argv FROM runs ORDER BY id");
    printf("%5s  %-14s %6s %9s %10s  %-20s  %s\n", "run", "stage", "status", "seconds", "peak RSS", "started", "argv");
    while (sqlite3_step(st) == SQLITE_ROW) {
        char rss[32];
        human_bytes(rss, sizeof rss, sqlite3_column_double(st, 4) * 1024);
        printf("%5lld  %-14s %6d %9.1f %10s  %-20s  %s\n", sqlite3_column_int64(st, 0), col(st, 1),
               sqlite3_column_int(st, 2), sqlite3_column_double(st, 3), rss, col(st, 5), col(st, 6));
        print_metrics(sqlite3_column_int64(st, 0), "         ");
    }
    sqlite3_finalize(st);
}

/* Artifact id for a path (newest record) or a numeric id. */
static sqlite3_int64 find_artifact(const char *arg) {
    char *end;
    long long id = strtoll(arg, &end, 10);
    sqlite3_stmt *st;
    if (*arg && !*end) {
        st = prepare("SELECT id FROM artifacts WHERE id = ?");
        sqlite3_bind_int64(st, 1, id);
    } else {
        char *real = realpath(arg, NULL);
        st = prepare("SELECT MAX(id) FROM artifacts WHERE path = ? HAVING COUNT(*) > 0");
        sqlite3_bind_text(st, 1, real ? real : arg, -1, SQLITE_TRANSIENT);
        free(real);
    }
    sqlite3_int64 found = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (found < 0) die_input(db_path, NULL, "no artifact '%s' in this catalog", arg);
    return found;
}

static void cmd_show(const char *arg) {
    sqlite3_int64 id = find_artifact(arg);
    sqlite3_stmt *st = prepare("SELECT a.path, a.kind, a.schema, a.bytes, a.sha256, a.created, r.id, r.stage,"
                               " r.argv, r.status, r.seconds, r.peak_rss_kb, r.cwd FROM artifacts a"
                               " LEFT JOIN runs r ON r.id = a.run_id WHERE a.id = ?");
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW) die("artifact %lld vanished", (long long)id);
    printf("artifact %lld: %s\n  kind %s, schema %d, %lld bytes, created %s\n  sha256 %s\n", (long long)id,
           col(st, 0), col(st, 1), sqlite3_column_int(st, 2), sqlite3_column_int64(st, 3), col(st, 5), col(st, 4));
    sqlite3_int64 run_id = sqlite3_column_int64(st, 6);
    printf("made by run %lld: %s (exit %d, %.1f s, peak RSS %lld KB)\n  in %s\n  $ %s\n", (long long)run_id,
           col(st, 7), sqlite3_column_int(st, 9), sqlite3_column_double(st, 10), sqlite3_column_int64(st, 11),
           col(st, 12), col(st, 8));
    sqlite3_finalize(st);
    printf("params:\n");
    st = prepare("SELECT key, value FROM run_params WHERE run_id = ? ORDER BY rowid");
    sqlite3_bind_int64(st, 1, run_id);
    while (sqlite3_step(st) == SQLITE_ROW) printf("  %s = %s\n", col(st, 0), col(st, 1));
    sqlite3_finalize(st);
    printf("metrics:\n");
    print_metrics(run_id, "  ");
    st = prepare("SELECT input_path, input_sha256, input_artifact_id FROM lineage WHERE artifact_id = ?");
    sqlite3_bind_int64(st, 1, id);
    printf("inputs:\n");
    while (sqlite3_step(st) == SQLITE_ROW)
        printf("  %s  (sha256 %.12s…%s)\n", col(st, 0), col(st, 1),
               sqlite3_column_type(st, 2) == SQLITE_NULL ? ", not made by a recorded run" : "");
    sqlite3_finalize(st);
}

/* The lineage tree: each artifact's inputs below it. An artifact that is its own ancestor
 * (a catalog written before outputs were kept apart from inputs) is printed once more with
 * "(cycle)" and not followed; at most LINEAGE_MAX_DEPTH levels and LINEAGE_MAX_LINES lines. */
#define LINEAGE_MAX_DEPTH 64
#define LINEAGE_MAX_LINES 100000
static sqlite3_int64 lineage_path[LINEAGE_MAX_DEPTH + 1];
static long lineage_lines;

static void lineage(sqlite3_int64 id, const char *path, const char *kind, int depth) {
    if (++lineage_lines > LINEAGE_MAX_LINES || ferror(stdout)) return;
    int cycle = 0;
    for (int i = 0; i < depth && !cycle; i++) cycle = lineage_path[i] == id;
    printf("%*s%s%s [%s]%s\n", 2 * depth, "", depth ? "<- " : "", path, kind, cycle ? " (cycle: an ancestor of itself)" : "");
    if (cycle) return;
    if (depth == LINEAGE_MAX_DEPTH) {
        printf("%*s<- ... (deeper than %d levels)\n", 2 * depth + 2, "", LINEAGE_MAX_DEPTH);
        return;
    }
    lineage_path[depth] = id;
    sqlite3_stmt *st = prepare("SELECT l.input_path, l.input_artifact_id, a.kind FROM lineage l"
                               " LEFT JOIN artifacts a ON a.id = l.input_artifact_id WHERE l.artifact_id = ?"
                               " ORDER BY l.rowid");
    sqlite3_bind_int64(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW && lineage_lines <= LINEAGE_MAX_LINES) {
        if (sqlite3_column_type(st, 1) != SQLITE_NULL) lineage(sqlite3_column_int64(st, 1), col(st, 0), col(st, 2), depth + 1);
        else if (++lineage_lines <= LINEAGE_MAX_LINES) printf("%*s<- %s [input]\n", 2 * depth + 2, "", col(st, 0));
    }
    sqlite3_finalize(st);
    if (depth == 0 && lineage_lines > LINEAGE_MAX_LINES) printf("... (cut at %d lines)\n", LINEAGE_MAX_LINES);
}

static void cmd_lineage(const char *arg) {
    sqlite3_int64 id = find_artifact(arg);
    sqlite3_stmt *st = prepare("SELECT path, kind FROM artifacts WHERE id = ?");
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        char *path = xstrdup(col(st, 0)), *kind = xstrdup(col(st, 1));
        sqlite3_finalize(st);
        lineage(id, path, kind, 0);
        free(path);
        free(kind);
    } else {
        sqlite3_finalize(st);
    }
}

int main(int argc, char **argv) {
    const cli_option opts[] = {{NULL, 0, NULL, NULL, NULL, 0, 0}};
    const cli_spec spec = {"catalog", "show the artifacts, runs and lineage recorded in a catalog",
                           "[--catalog PATH] ls | runs | show ARTIFACT | lineage ARTIFACT",
                           "probexpan catalog --catalog run/catalog.sqlite lineage run/report.mp",
                           "inspect", opts, 2};
    int first = cli_parse(&spec, argc, argv);
    int nargs = argc - first;
    if (nargs < 1) die_usage("expected a subcommand: ls, runs, show ARTIFACT, lineage ARTIFACT");
    const char *cmd = argv[first];
    const char *env = getenv("PROBEXPAN_CATALOG");
    db_path = cli_catalog ? cli_catalog : env && *env ? env : "catalog.sqlite";
    open_catalog();
    int needs_arg = !strcmp(cmd, "show") || !strcmp(cmd, "lineage");
    if (nargs != 1 + needs_arg) die_usage("'%s' takes %s", cmd, needs_arg ? "one ARTIFACT" : "no argument");
    if (!strcmp(cmd, "ls")) cmd_ls();
    else if (!strcmp(cmd, "runs")) cmd_runs();
    else if (!strcmp(cmd, "show")) cmd_show(argv[first + 1]);
    else if (!strcmp(cmd, "lineage")) cmd_lineage(argv[first + 1]);
    else die_usage("unknown subcommand '%s'", cmd);
    sqlite3_close(db);
    stdout_flush();
    return 0;
}
