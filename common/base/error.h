/* error: exit codes and fatal-error reporting shared by every program.
 *
 * Contract (docs/design.md §5): exit 0 ok, 1 failure, 2 usage error, 3 bad input.
 * die_input() names the file and the position (line, byte offset, tensor, ...)
 * and what was expected. Before exiting, every registered temporary file is
 * unlinked, so a failing program never leaves a partial output behind. */
#ifndef PROBEXPAN_ERROR_H
#define PROBEXPAN_ERROR_H

#include <setjmp.h>
#include <stdint.h>
#include <stddef.h>

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_BADINPUT = 3 };

/* Program name used as the message prefix (set by cli_init). */
extern const char *pe_progname;

/* "PROG: FILE: WHERE: message" then exit 3. file/where may be NULL. */
void die_input(const char *file, const char *where, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
/* "PROG: message" then exit 2 (bad command line). */
void die_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* "PROG: message" then exit 1 (I/O failure, out of memory, internal error). */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Like die() with ": strerror(errno)" appended. */
void die_errno(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Hook run once just before any die*() exits (e.g. catalog records the failed run).
 * The exit code is passed in. */
void error_set_exit_hook(void (*hook)(int code));

/* For fuzz targets: while a trap is set, die*() longjmp()s to it with the exit
 * code as the value instead of exiting (NULL clears it). */
void error_set_trap(jmp_buf *trap);

/* Temporary files removed if the program dies or is killed by SIGTERM, SIGINT or SIGHUP
 * (artifact writers register theirs); a registered folder is removed with its contents. */
void tempfile_register(const char *path);
void tempdir_register(const char *path);
void tempfile_unregister(const char *path);
/* Removes a file, or a folder with everything in it (symlinks removed, not followed);
 * 0 on success. */
int remove_tree(const char *path);

/* Installs (once) the handling of SIGTERM, SIGINT and SIGHUP: the registered temporary
 * files are unlinked in the handler (async-signal-safe), then a watcher thread runs the
 * exit hook with status 128+signal (the catalog records the run as killed), removes
 * registered folders and re-raises the signal, so the process still dies of it. SIGPIPE
 * is ignored: a closed stdout shows up as EPIPE (see stdout_flush). cli_parse calls it. */
void error_catch_signals(void);
/* Flushes stdout: a reader that went away (EPIPE, e.g. `| head -1`) is a quiet normal
 * end (exit 0 through the exit hook); any other write error dies with exit 1. */
void stdout_flush(void);

/* Checked allocation: die() on failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Room for element n of an array of `size`-byte elements appended one at a time from
 * NULL (n = the count so far): the capacity doubles, reallocating only when n is 0 or a
 * power of two, so appending N elements costs O(N) even where realloc copies. */
static inline void *xgrow(void *p, int64_t n, size_t size) {
    if (n & (n - 1)) return p;
    return xrealloc(p, size * (size_t)(n ? 2 * n : 1));
}
char *xstrdup(const char *s);
/* malloc'd printf. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
