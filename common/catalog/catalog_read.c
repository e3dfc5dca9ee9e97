/* catalog_read: the catalog's reports (catalog_read.h). */
#include "catalog/catalog_read.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"

#define LINEAGE_MAX_DEPTH 64
#define LINEAGE_MAX_LINES 100000

struct catalog_reader {
    sqlite3 *db;
    const char *path;
    sqlite3_int64 lineage_path[LINEAGE_MAX_DEPTH + 1]; /* the artifacts above the one printed */
    long lineage_lines;
};


static sqlite3_stmt *prepare(catalog_reader *c, const char *sql) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) == SQLITE_OK) return st;
    int code = sqlite3_errcode(c->db);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT || code == SQLITE_ERROR) /* ERROR: e.g. no such table */
        die_input(c->path, NULL, "not a ProbExpan catalog (%s)", sqlite3_errmsg(c->db));
    die("cannot read the catalog %s: %s", c->path, sqlite3_errmsg(c->db));
}

catalog_reader *catalog_read_open(const char *path) {
    catalog_reader *c = xcalloc(1, sizeof *c);
    c->path = path;
    if (sqlite3_open_v2(c->path, &c->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        die_input(c->path, NULL, "cannot open catalog: %s", sqlite3_errmsg(c->db));
    sqlite3_busy_timeout(c->db, 30000);
    int rc = sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
    if ((rc & 0xff) != SQLITE_READONLY && (rc & 0xff) != SQLITE_CANTOPEN) return c;
    char *wal = xasprintf("%s-wal", c->path);
    struct stat st;
    int pending = stat(wal, &st) == 0 && st.st_size > 0;
    free(wal);
    if (pending)
        die("cannot read the catalog %s: %s — its folder is not writable, and SQLite must create %s-shm there "
            "to read the runs still in %s-wal (make the folder writable, or copy the catalog elsewhere)",
            c->path, sqlite3_errmsg(c->db), c->path, c->path);
    sqlite3_close(c->db);
    char *real = realpath(c->path, NULL);
    if (!real) die_errno("cannot resolve %s", c->path);
    size_t n = strlen(real);
    char *uri = xmalloc(3 * n + 32), *u = stpcpy(uri, "file:");
    for (size_t i = 0; i < n; i++) { /* percent-escape what a URI path cannot hold */
        if (strchr("%?#", real[i])) u += sprintf(u, "%%%02X", (unsigned char)real[i]);
        else *u++ = real[i];
    }
    strcpy(u, "?immutable=1");
    free(real);
    if (sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK)
        die("cannot read the catalog %s (its folder is not writable): %s", c->path, sqlite3_errmsg(c->db));
    free(uri);
    return c;
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

void catalog_read_ls(catalog_reader *c) {
    sqlite3_stmt *st = prepare(c, "SELECT a.id, a.kind, a.schema, a.bytes, a.created, a.path FROM artifacts a"
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

static void print_metrics(catalog_reader *c, sqlite3_int64 run_id, const char *indent) {
    sqlite3_stmt *st = prepare(c, "SELECT key, value, text FROM metrics WHERE run_id = ? ORDER BY rowid");
    sqlite3_bind_int64(st, 1, run_id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) printf("%s%s = %s\n", indent, col(st, 0), col(st, 2));
        else printf("%s%s = %.6g\n", indent, col(st, 0), sqlite3_column_double(st, 1));
    }
    sqlite3_finalize(st);
}

void catalog_read_runs(catalog_reader *c) {
    sqlite3_stmt *st = prepare(c, "SELECT id, stage, status, seconds, peak_rss_kb, started, argv FROM runs ORDER BY id");
    printf("%5s  %-14s %6s %9s %10s  %-20s  %s\n", "run", "stage", "status", "seconds", "peak RSS", "started", "argv");
    while (sqlite3_step(st) == SQLITE_ROW) {
        char rss[32];
        human_bytes(rss, sizeof rss, sqlite3_column_double(st, 4) * 1024);
        printf("%5lld  %-14s %6d %9.1f %10s  %-20s  %s\n", sqlite3_column_int64(st, 0), col(st, 1),
               sqlite3_column_int(st, 2), sqlite3_column_double(st, 3), rss, col(st, 5), col(st, 6));
        print_metrics(c, sqlite3_column_int64(st, 0), "         ");
    }
    sqlite3_finalize(st);
}

/* Artifact id for a path (newest record) or a numeric id. */
static sqlite3_int64 find_artifact(catalog_reader *c, const char *arg) {
    char *end;
    long long id = strtoll(arg, &end, 10);
    sqlite3_stmt *st;
    if (*arg && !*end) {
        st = prepare(c, "SELECT id FROM artifacts WHERE id = ?");
        sqlite3_bind_int64(st, 1, id);
    } else {
        char *real = realpath(arg, NULL);
        st = prepare(c, "SELECT MAX(id) FROM artifacts WHERE path = ? HAVING COUNT(*) > 0");
        sqlite3_bind_text(st, 1, real ? real : arg, -1, SQLITE_TRANSIENT);
        free(real);
    }
    sqlite3_int64 found = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    if (found < 0) die_input(c->path, NULL, "no artifact '%s' in this catalog", arg);
    return found;
}

void catalog_read_show(catalog_reader *c, const char *arg) {
    sqlite3_int64 id = find_artifact(c, arg);
    sqlite3_stmt *st = prepare(c, "SELECT a.path, a.kind, a.schema, a.bytes, a.sha256, a.created, r.id, r.stage,"
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
    st = prepare(c, "SELECT key, value FROM run_params WHERE run_id = ? ORDER BY rowid");
    sqlite3_bind_int64(st, 1, run_id);
    while (sqlite3_step(st) == SQLITE_ROW) printf("  %s = %s\n", col(st, 0), col(st, 1));
    sqlite3_finalize(st);
    printf("metrics:\n");
    print_metrics(c, run_id, "  ");
    st = prepare(c, "SELECT input_path, input_sha256, input_artifact_id FROM lineage WHERE artifact_id = ?");
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

static void lineage(catalog_reader *c, sqlite3_int64 id, const char *path, const char *kind, int depth) {
    if (++c->lineage_lines > LINEAGE_MAX_LINES || ferror(stdout)) return;
    int cycle = 0;
    for (int i = 0; i < depth && !cycle; i++) cycle = c->lineage_path[i] == id;
    printf("%*s%s%s [%s]%s\n", 2 * depth, "", depth ? "<- " : "", path, kind, cycle ? " (cycle: an ancestor of itself)" : "");
    if (cycle) return;
    if (depth == LINEAGE_MAX_DEPTH) {
        printf("%*s<- ... (deeper than %d levels)\n", 2 * depth + 2, "", LINEAGE_MAX_DEPTH);
        return;
    }
    c->lineage_path[depth] = id;
    sqlite3_stmt *st = prepare(c, "SELECT l.input_path, l.input_artifact_id, a.kind FROM lineage l"
                               " LEFT JOIN artifacts a ON a.id = l.input_artifact_id WHERE l.artifact_id = ?"
                               " ORDER BY l.rowid");
    sqlite3_bind_int64(st, 1, id);
    while (sqlite3_step(st) == SQLITE_ROW && c->lineage_lines <= LINEAGE_MAX_LINES) {
        if (sqlite3_column_type(st, 1) != SQLITE_NULL) lineage(c, sqlite3_column_int64(st, 1), col(st, 0), col(st, 2), depth + 1);
        else if (++c->lineage_lines <= LINEAGE_MAX_LINES) printf("%*s<- %s [input]\n", 2 * depth + 2, "", col(st, 0));
    }
    sqlite3_finalize(st);
    if (depth == 0 && c->lineage_lines > LINEAGE_MAX_LINES) printf("... (cut at %d lines)\n", LINEAGE_MAX_LINES);
}

void catalog_read_lineage(catalog_reader *c, const char *arg) {
    sqlite3_int64 id = find_artifact(c, arg);
    sqlite3_stmt *st = prepare(c, "SELECT path, kind FROM artifacts WHERE id = ?");
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        char *path = xstrdup(col(st, 0)), *kind = xstrdup(col(st, 1));
        sqlite3_finalize(st);
        c->lineage_lines = 0;
        lineage(c, id, path, kind, 0);
        free(path);
        free(kind);
    } else {
        sqlite3_finalize(st);
    }
}

void catalog_read_close(catalog_reader *c) {
    sqlite3_close(c->db);
    free(c);
}
