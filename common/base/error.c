/* error: fatal-error reporting with the project's exit codes, temp-file cleanup,
 * and checked allocation. */
#include "base/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pe_progname = "probexpan";

#define MAX_TEMPFILES 64
static char *tempfiles[MAX_TEMPFILES];
static void (*exit_hook)(int);
static jmp_buf *error_trap;

void error_set_trap(jmp_buf *trap) { error_trap = trap; }

void error_set_exit_hook(void (*hook)(int code)) { exit_hook = hook; }

void tempfile_register(const char *path) {
    for (int i = 0; i < MAX_TEMPFILES; i++)
        if (!tempfiles[i]) { tempfiles[i] = xstrdup(path); return; }
    die("too many open temporary files (max %d)", MAX_TEMPFILES);
}

void tempfile_unregister(const char *path) {
    for (int i = 0; i < MAX_TEMPFILES; i++)
        if (tempfiles[i] && strcmp(tempfiles[i], path) == 0) {
            free(tempfiles[i]);
            tempfiles[i] = NULL;
            return;
        }
}

static void __attribute__((noreturn)) finish(int code) {
    for (int i = 0; i < MAX_TEMPFILES; i++)
        if (tempfiles[i]) unlink(tempfiles[i]);
    if (error_trap) longjmp(*error_trap, code);
    if (exit_hook) {
        void (*h)(int) = exit_hook;
        exit_hook = NULL; /* a failure inside the hook must not recurse */
        h(code);
    }
    /* _exit: no atexit handlers (the run is already recorded by the hook) and no
     * leak report for memory a dying program had no reason to free. */
    fflush(NULL);
    _exit(code);
}

void die_input(const char *file, const char *where, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", pe_progname);
    if (file) fprintf(stderr, "%s: ", file);
    if (where) fprintf(stderr, "%s: ", where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    finish(EXIT_BADINPUT);
}

#define DIE_BODY(code, with_errno)                                  \
    do {                                                            \
        int saved = errno;                                          \
        va_list ap;                                                 \
        fprintf(stderr, "%s: ", pe_progname);                       \
        va_start(ap, fmt);                                          \
        vfprintf(stderr, fmt, ap);                                  \
        va_end(ap);                                                 \
        if (with_errno) fprintf(stderr, ": %s", strerror(saved));   \
        fputc('\n', stderr);                                        \
        finish(code);                                               \
    } while (0)

void die_usage(const char *fmt, ...) { DIE_BODY(EXIT_USAGE, 0); }
void die(const char *fmt, ...) { DIE_BODY(EXIT_FAIL, 0); }
void die_errno(const char *fmt, ...) { DIE_BODY(EXIT_FAIL, 1); }

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory allocating %zu bytes", n);
    return p;
}
void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}
void *xrealloc(void *p, size_t n) {
    p = realloc(p, n ? n : 1);
    if (!p) die("out of memory reallocating %zu bytes", n);
    return p;
}
char *xstrdup(const char *s) {
    char *d = strdup(s);
    if (!d) die("out of memory");
    return d;
}
char *xasprintf(const char *fmt, ...) {
    va_list ap;
    char *s;
    va_start(ap, fmt);
    int r = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (r < 0) die("out of memory");
    return s;
}
