/* error: fatal-error reporting with the project's exit codes, temp-file cleanup,
 * and checked allocation. */
#include "base/error.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pe_progname = "probexpan";

#define MAX_TEMPFILES 64
/* Read by the signal handler: an entry is published (pointer store) only once its
 * string is complete, and cleared before its string is freed. */
static char *volatile tempfiles[MAX_TEMPFILES];
static volatile char tempfile_is_dir[MAX_TEMPFILES];
static void (*exit_hook)(int);
static jmp_buf *error_trap;

void error_set_trap(jmp_buf *trap) { error_trap = trap; }

void error_set_exit_hook(void (*hook)(int code)) { exit_hook = hook; }

static void register_path(const char *path, int is_dir) {
    for (int i = 0; i < MAX_TEMPFILES; i++)
        if (!tempfiles[i]) {
            tempfile_is_dir[i] = (char)is_dir;
            tempfiles[i] = xstrdup(path);
            return;
        }
    die("too many open temporary files (max %d)", MAX_TEMPFILES);
}
void tempfile_register(const char *path) { register_path(path, 0); }
void tempdir_register(const char *path) { register_path(path, 1); }

void tempfile_unregister(const char *path) {
    for (int i = 0; i < MAX_TEMPFILES; i++)
        if (tempfiles[i] && strcmp(tempfiles[i], path) == 0) {
            char *p = tempfiles[i];
            tempfiles[i] = NULL;
            free(p);
            return;
        }
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(p);
}

int remove_tree(const char *path) { return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* Removes every registered file and folder (not async-signal-safe: folders need nftw). */
static void remove_tempfiles(void) {
    for (int i = 0; i < MAX_TEMPFILES; i++) {
        char *p = tempfiles[i];
        if (!p) continue;
        if (tempfile_is_dir[i]) remove_tree(p);
        else unlink(p);
    }
}

/* Exit hook at most once, whichever of die*(), exit() and a signal comes first. */
static void run_exit_hook(int code) {
    void (*h)(int) = __atomic_exchange_n(&exit_hook, NULL, __ATOMIC_SEQ_CST);
    if (h) h(code); /* cleared first: a failure inside the hook must not recurse */
}

static void __attribute__((noreturn)) finish(int code) {
    remove_tempfiles();
    if (error_trap) longjmp(*error_trap, code);
    run_exit_hook(code);
    /* _exit: no atexit handlers (the run is already recorded by the hook) and no
     * leak report for memory a dying program had no reason to free. */
    fflush(NULL);
    _exit(code);
}

/* ---------------- signals ---------------- */

static int signal_pipe[2] = {-1, -1};

static void on_signal(int sig) {
    int saved = errno;
    for (int i = 0; i < MAX_TEMPFILES; i++) {
        char *p = tempfiles[i];
        if (p && !tempfile_is_dir[i]) unlink(p);
    }
    unsigned char b = (unsigned char)sig;
    if (signal_pipe[1] < 0 || write(signal_pipe[1], &b, 1) != 1) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    errno = saved;
}

/* Runs the exit hook (catalog: status 128+signal) and the folder cleanup outside the
 * signal handler, then dies of the signal. */
static void *signal_watcher(void *arg) {
    (void)arg;
    unsigned char b;
    while (read(signal_pipe[0], &b, 1) != 1)
        if (errno != EINTR) return NULL;
    remove_tempfiles();
    run_exit_hook(128 + b);
    fflush(stderr);
    signal(b, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, b);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(b);
    return NULL;
}

void error_catch_signals(void) {
    static int installed;
    if (installed++) return;
    signal(SIGPIPE, SIG_IGN);
    pthread_t th;
    if (pipe(signal_pipe) == 0 && pthread_create(&th, NULL, signal_watcher, NULL) == 0) {
        pthread_detach(th);
    } else {
        signal_pipe[1] = -1; /* no watcher: the handler re-raises itself */
    }
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

void stdout_flush(void) {
    if (fflush(stdout) == 0) return;
    if (errno == EPIPE) {
        run_exit_hook(EXIT_OK);
        _exit(EXIT_OK);
    }
    die_errno("cannot write to stdout");
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
