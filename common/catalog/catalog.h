/* catalog: the SQLite record of runs, artifacts and lineage (docs/design.md §4).
 *
 * Every program calls catalog_begin() after parsing its options; artifact_commit()
 * adds outputs; catalog_metric*() adds metrics; catalog_finish() (called automatically
 * at exit, including failures via die*) writes one transaction: the run row
 * (stage, argv, params, start, end, status, peak RSS), each output's artifact
 * row and its lineage to the inputs. The database is `--catalog PATH`, else
 * $PROBEXPAN_CATALOG, else catalog.sqlite in the first output's directory (or
 * `default_dir` for runs that write nothing). WAL mode, busy timeout 30 s. */
#ifndef PROBEXPAN_CATALOG_H
#define PROBEXPAN_CATALOG_H

/* Starts the run record with the program's options as its params (cli_each_value) and the
 * OpenBLAS core in use (param blas_core, base/blas_core.h);
 * default_dir is where catalog.sqlite goes when no output gets committed (NULL =
 * current directory). Registers an exit hook. */
void catalog_begin(const char *default_dir);
/* catalog_begin with default_dir = the folder of the output file `path` (NULL: the current
 * directory) — what every stage that writes one artifact wants. */
void catalog_begin_beside(const char *path);
/* A param beyond the options (catalog_begin records those). */
void catalog_param(const char *key, const char *value);
void catalog_metric(const char *key, double value);
void catalog_metric_str(const char *key, const char *value);
/* An output with its inputs (n paths already hashed); artifact_commit() reports it through artifact_hooks. */
void catalog_add_output(const char *path, const char *kind, int schema, unsigned long long bytes,
                    const char *sha256, const char *created, int ninputs, char *const *input_paths,
                    char *const *input_sha256);
/* Writes the run with the exit status. Called automatically at exit with 0
 * (normal exit) or the die*() code; calling it explicitly is allowed. */
void catalog_finish(int status);

#endif
