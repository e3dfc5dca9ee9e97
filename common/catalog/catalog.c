/* catalog: records runs, their outputs and lineage in SQLite (WAL, busy timeout).
 * Everything of one run is written in a single transaction at catalog_finish(). */
#include "catalog/catalog.h"

#include <libgen.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/blas_core.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "base/paths.h"
#include "format/artifact.h"

typedef struct { char *key, *text; double value; int is_text; } kv;
typedef struct {
    char *path, *kind, *sha256, *created;
    long long mtime_ns;
    int schema;
    unsigned long long bytes;
    int ninputs;
    char **input_path, **input_sha256;
} output_rec;

static struct {
    int active, finished;
    char *default_dir, *db_path;
    char started[32];
    double t0;
    kv *params, *metrics;
    int nparams, nmetrics;
    output_rec *outputs;
    int noutputs;
} run;

static const char *SCHEMA_SQL =
    "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, stage TEXT NOT NULL, argv TEXT, cwd TEXT,"
    " started TEXT, ended TEXT, seconds REAL, status INTEGER, peak_rss_kb INTEGER);"
    "CREATE TABLE IF NOT EXISTS run_params(run_id INTEGER REFERENCES runs(id), key TEXT, value TEXT);"
    "CREATE TABLE IF NOT EXISTS metrics(run_id INTEGER REFERENCES runs(id), key TEXT, value REAL, text TEXT);"
    "CREATE TABLE IF NOT EXISTS artifacts(id INTEGER PRIMARY KEY, path TEXT NOT NULL, kind TEXT, schema INTEGER,"
    " bytes INTEGER, sha256 TEXT, created TEXT, run_id INTEGER REFERENCES runs(id), mtime_ns INTEGER);"
    "CREATE TABLE IF NOT EXISTS lineage(artifact_id INTEGER REFERENCES artifacts(id), input_path TEXT,"
    " input_sha256 TEXT, input_artifact_id INTEGER);"
    "CREATE INDEX IF NOT EXISTS artifacts_path ON artifacts(path);"
    "CREATE INDEX IF NOT EXISTS lineage_artifact ON lineage(artifact_id);";

static void utc_now(char out[32]) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* --catalog, else $PROBEXPAN_CATALOG, else catalog.sqlite in `dir` (malloc'd). */
static char *catalog_path_in(const char *dir) {
    const char *env = getenv("PROBEXPAN_CATALOG");
    if (cli_catalog) return xstrdup(cli_catalog);
    if (env && *env) return xstrdup(env);
    return xasprintf("%s/catalog.sqlite", dir);
}

static void at_exit_ok(void) { catalog_finish(0); }
static void at_die(int code) { catalog_finish(code); }

/* One option as run_params text (a repeatable option: one row per value). */
static void param_option(void *ctx, const cli_value *v) {
    (void)ctx;
    char num[40];
    switch (v->type) {
    case OPT_FLAG: case OPT_INT: case OPT_LONG: snprintf(num, sizeof num, "%lld", v->i); catalog_param(v->key, num); break;
    case OPT_DOUBLE:
        snprintf(num, sizeof num, "%.15g", v->d);
        if (strtod(num, NULL) != v->d) snprintf(num, sizeof num, "%.17g", v->d);
        catalog_param(v->key, num);
        break;
    case OPT_STRING: case OPT_INPUT: case OPT_OUTPUT: case OPT_OUTPUT_DIR: catalog_param(v->key, v->s); break;
    case OPT_LIST:
        for (int i = 0; i < v->list->n; i++) catalog_param(v->key, v->list->v[i]);
        break;
    }
}

static int catalog_known_sha256(const char *path, char out[65]);

void catalog_begin(const char *default_dir) {
    static const artifact_hooks hooks = {catalog_known_sha256, catalog_add_output};
    artifact_set_hooks(&hooks);
    cli_each_value(param_option, NULL);
    catalog_param("blas_core", blas_core_name()); /* the OpenBLAS kernels the run computed with */
    run.active = 1;
    run.default_dir = xstrdup(default_dir ? default_dir : ".");
    char *db = catalog_path_in(run.default_dir); /* where the catalog goes unless outputs say otherwise */
    paths_check_catalog(db);
    free(db);
    utc_now(run.started);
    run.t0 = now_seconds();
    error_set_exit_hook(at_die);
    atexit(at_exit_ok);
}

void catalog_begin_beside(const char *path) {
    char *copy = path ? xstrdup(path) : NULL;
    catalog_begin(copy ? dirname(copy) : NULL);
    free(copy);
}

static void add_kv(kv **arr, int *n, const char *key, const char *text, double value) {
    *arr = xrealloc(*arr, sizeof(kv) * (size_t)(*n + 1));
    (*arr)[*n] = (kv){xstrdup(key), text ? xstrdup(text) : NULL, value, text != NULL};
    (*n)++;
}
void catalog_param(const char *key, const char *value) { add_kv(&run.params, &run.nparams, key, value ? value : "", 0); }
void catalog_metric(const char *key, double value) { add_kv(&run.metrics, &run.nmetrics, key, NULL, value); }
void catalog_metric_str(const char *key, const char *value) { add_kv(&run.metrics, &run.nmetrics, key, value, 0); }

void catalog_add_output(const char *path, const char *kind, int schema, unsigned long long bytes, const char *sha256,
                    const char *created, int ninputs, char *const *input_paths, char *const *input_sha256) {
    run.outputs = xrealloc(run.outputs, sizeof(output_rec) * (size_t)(run.noutputs + 1));
    output_rec *o = &run.outputs[run.noutputs++];
    struct stat st;
    long long mtime = stat(path, &st) == 0 ? (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec : -1;
    *o = (output_rec){xstrdup(path), xstrdup(kind), xstrdup(sha256), xstrdup(created), mtime, schema, bytes, ninputs,
                      xcalloc((size_t)ninputs + 1, sizeof(char *)), xcalloc((size_t)ninputs + 1, sizeof(char *))};
    for (int i = 0; i < ninputs; i++) {
        char *real = realpath(input_paths[i], NULL);
        o->input_path[i] = real ? real : xstrdup(input_paths[i]);
        o->input_sha256[i] = xstrdup(input_sha256[i]);
    }
}

/* Catalog path that this run uses. */
static const char *catalog_path(void) {
    if (run.db_path) return run.db_path;
    if (run.noutputs) {
        char *copy = xstrdup(run.outputs[0].path);
        run.db_path = catalog_path_in(dirname(copy));
        free(copy);
    } else {
        run.db_path = catalog_path_in(run.default_dir ? run.default_dir : ".");
    }
    return run.db_path;
}

/* The sha256 recorded for an artifact at `path` whose size and modification time
 * still match the file on disk (so it was not changed since it was written): lets
 * stages skip re-hashing multi-GB inputs. Returns 1 and fills out, else 0. */
static int catalog_known_sha256(const char *path, char out[65]) {
    struct stat st;
    char *real = realpath(path, NULL);
    if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(real);
        return 0;
    }
    /* the explicit catalog, else the one beside the input (where its writer recorded it) */
    const char *env = getenv("PROBEXPAN_CATALOG");
    char *db_path;
    if (cli_catalog) db_path = xstrdup(cli_catalog);
    else if (env && *env) db_path = xstrdup(env);
    else {
        char *copy = xstrdup(real);
        db_path = xasprintf("%s/catalog.sqlite", dirname(copy));
        free(copy);
    }
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int found = 0;
    if (access(db_path, R_OK) == 0 && sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_busy_timeout(db, 30000) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT sha256 FROM artifacts WHERE path = ? AND bytes = ? AND mtime_ns = ?"
                               " ORDER BY id DESC LIMIT 1", -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_text(q, 1, real, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)st.st_size);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec);
        if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_bytes(q, 0) == 64) {
            memcpy(out, sqlite3_column_text(q, 0), 65);
            found = 1;
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    free(db_path);
    free(real);
    return found;
}

static int exec_step(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Writes the whole run; returns an SQLite error code (SQLITE_OK on success). */
static int write_run(sqlite3 *db, int status) {
    int rc = sqlite3_exec(db, SCHEMA_SQL, NULL, NULL, NULL);
    if (rc) return rc;
    /* catalogs from before schema 2 lack artifacts.mtime_ns: add it (an error = already there) */
    sqlite3_exec(db, "ALTER TABLE artifacts ADD COLUMN mtime_ns INTEGER", NULL, NULL, NULL);
    if ((rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL))) return rc;
    char ended[32], cwd[PATH_MAX];
    utc_now(ended);
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "?");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sqlite3_stmt *st;
    rc = sqlite3_prepare_v2(db, "INSERT INTO runs(stage,argv,cwd,started,ended,seconds,status,peak_rss_kb)"
                                " VALUES(?,?,?,?,?,?,?,?)", -1, &st, NULL);
    if (rc) goto fail;
    sqlite3_bind_text(st, 1, pe_progname, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, cli_argv_string(), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, cwd, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, run.started, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, ended, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 6, now_seconds() - run.t0);
    sqlite3_bind_int(st, 7, status);
    sqlite3_bind_int64(st, 8, ru.ru_maxrss);
    rc = exec_step(st);
    sqlite3_finalize(st);
    if (rc) goto fail;
    sqlite3_int64 run_id = sqlite3_last_insert_rowid(db);

    rc = sqlite3_prepare_v2(db, "INSERT INTO run_params(run_id,key,value) VALUES(?,?,?)", -1, &st, NULL);
    if (rc) goto fail;
    for (int i = 0; i < run.nparams && !rc; i++) {
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, run.params[i].key, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, run.params[i].text, -1, SQLITE_STATIC);
        rc = exec_step(st);
    }
    sqlite3_finalize(st);
    if (rc) goto fail;

    rc = sqlite3_prepare_v2(db, "INSERT INTO metrics(run_id,key,value,text) VALUES(?,?,?,?)", -1, &st, NULL);
    if (rc) goto fail;
    for (int i = 0; i < run.nmetrics && !rc; i++) {
        kv *m = &run.metrics[i];
        sqlite3_bind_int64(st, 1, run_id);
        sqlite3_bind_text(st, 2, m->key, -1, SQLITE_STATIC);
        if (m->is_text) sqlite3_bind_null(st, 3); else sqlite3_bind_double(st, 3, m->value);
        if (m->is_text) sqlite3_bind_text(st, 4, m->text, -1, SQLITE_STATIC); else sqlite3_bind_null(st, 4);
        rc = exec_step(st);
    }
    sqlite3_finalize(st);
    if (rc) goto fail;

    sqlite3_stmt *ins_art, *ins_lin;
    rc = sqlite3_prepare_v2(db, "INSERT INTO artifacts(path,kind,schema,bytes,sha256,created,run_id,mtime_ns)"
                                " VALUES(?,?,?,?,?,?,?,?)", -1, &ins_art, NULL);
    if (rc) goto fail;
    rc = sqlite3_prepare_v2(db, "INSERT INTO lineage(artifact_id,input_path,input_sha256,input_artifact_id)"
                                " VALUES(?,?,?,(SELECT id FROM artifacts WHERE path=?2 AND sha256=?3"
                                " ORDER BY id DESC LIMIT 1))", -1, &ins_lin, NULL);
    if (rc) { sqlite3_finalize(ins_art); goto fail; }
    for (int i = 0; i < run.noutputs && !rc; i++) {
        output_rec *o = &run.outputs[i];
        sqlite3_bind_text(ins_art, 1, o->path, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins_art, 2, o->kind, -1, SQLITE_STATIC);
        sqlite3_bind_int(ins_art, 3, o->schema);
        sqlite3_bind_int64(ins_art, 4, (sqlite3_int64)o->bytes);
        sqlite3_bind_text(ins_art, 5, o->sha256, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins_art, 6, o->created, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins_art, 7, run_id);
        sqlite3_bind_int64(ins_art, 8, o->mtime_ns);
        rc = exec_step(ins_art);
        sqlite3_int64 art_id = sqlite3_last_insert_rowid(db);
        for (int k = 0; k < o->ninputs && !rc; k++) {
            sqlite3_bind_int64(ins_lin, 1, art_id);
            sqlite3_bind_text(ins_lin, 2, o->input_path[k], -1, SQLITE_STATIC);
            sqlite3_bind_text(ins_lin, 3, o->input_sha256[k], -1, SQLITE_STATIC);
            rc = exec_step(ins_lin);
        }
    }
    sqlite3_finalize(ins_art);
    sqlite3_finalize(ins_lin);
    if (rc) goto fail;
    return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
fail:
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

void catalog_finish(int status) {
    if (!run.active || __atomic_exchange_n(&run.finished, 1, __ATOMIC_SEQ_CST)) return;
    const char *path = catalog_path();
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db, 30000);
        rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK) rc = write_run(db, status);
    }
    /* A catalog problem never turns a finished run into a failure: warn only. */
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s: warning: catalog %s not updated: %s\n", pe_progname, path,
                db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
}
