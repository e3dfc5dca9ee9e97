/* fuzz.h: shared plumbing of the libFuzzer targets in tests/fuzz/fuzz_*.c.
 *
 * Every parser under test reads files, so a target writes the input to a
 * per-process scratch path (fuzz_path, in memory when /dev/shm exists) and
 * calls the parser inside FUZZ_TRY, which traps die*() (common/base/error.h error_set_trap) and silences stderr while
 * the parser runs. Contract checked here: bad input ends in die_input (exit
 * code 3). A trapped die with any other code (1 = "I/O or internal error",
 * 2 = usage) on a file the fuzzer wrote is reported as a finding: the target
 * aborts, so libFuzzer saves the input as a crash. Set FUZZ_VERBOSE=1 to see
 * the parsers' messages (e.g. when replaying one input).
 *
 * Objects a parser fills must be static (or volatile) in the target so they
 * survive the longjmp. What the parser held when it died is abandoned by
 * design of the trap (a real program exits) unless its module releases it
 * itself (common/dataset/dataset.c does, at its next read). FUZZ_OPEN (FUZZ_TRY for
 * calls that open files) closes, after a trapped error, the file descriptors
 * and unmaps the mappings that still refer to the scratch files: without that
 * a long run ends in a false "crash" at the fd or mapping limit. So after a
 * trapped FUZZ_OPEN do not unmap through the object's own close function.
 * Leaked heap blocks stay: run.sh runs with detect_leaks=0 and -rss_limit_mb
 * catches leaks large enough to matter. */
#ifndef PROBEXPAN_FUZZ_H
#define PROBEXPAN_FUZZ_H

#include <dirent.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

/* Scratch files live in $FUZZ_TMPDIR, else /dev/shm (memory: an iteration
 * costs no disk I/O), else /tmp. */
static inline const char *fuzz_tmpdir(void) {
    static const char *dir;
    if (!dir) {
        dir = getenv("FUZZ_TMPDIR");
        if (!dir || !*dir) dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    }
    return dir;
}

/* "<tmpdir>/fuzz-<pid>-": every scratch path starts with it. */
static inline const char *fuzz_prefix(void) {
    static char buf[200];
    if (!buf[0]) snprintf(buf, sizeof buf, "%s/fuzz-%d-", fuzz_tmpdir(), (int)getpid());
    return buf;
}

/* fuzz_prefix() + name, in a static buffer that stays valid for the next
 * three calls (targets compute their paths once). */
static inline const char *fuzz_path(const char *name) {
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s%s", fuzz_prefix(), name);
    return buf[k];
}

static inline void fuzz_write(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); abort(); }
    if (size && fwrite(data, 1, size, f) != size) { perror(path); abort(); }
    if (fclose(f)) { perror(path); abort(); }
}

/* Writes the input to the target's scratch file `name` (the same path every iteration)
 * and returns that path. */
static inline const char *fuzz_input_file(const char *name, const uint8_t *data, size_t size) {
    static char path[256];
    if (!path[0]) snprintf(path, sizeof path, "%s", fuzz_path(name));
    fuzz_write(path, data, size);
    return path;
}

/* Creates directory `path` (and nothing above it) if missing. */
static inline void fuzz_mkdir(const char *path) {
    if (mkdir(path, 0700) && access(path, F_OK)) { perror(path); abort(); }
}

/* Lays the input out as a dataset folder "<tmpdir>/fuzz-<pid>-<name>" whose folder
 * `sub` (e.g. "gt") holds a.txt = the bytes before the first form feed and, when
 * there is one, b.txt = the bytes after it; returns the dataset folder. */
static inline const char *fuzz_write_two_members(const char *name, const char *sub, const uint8_t *data,
                                                 size_t size) {
    static char dir[256], subdir[300], fa[320], fb[320];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", fuzz_path(name));
        snprintf(subdir, sizeof subdir, "%s/%s", dir, sub);
        snprintf(fa, sizeof fa, "%s/a.txt", subdir);
        snprintf(fb, sizeof fb, "%s/b.txt", subdir);
        fuzz_mkdir(dir);
        fuzz_mkdir(subdir);
    }
    const uint8_t *ff = memchr(data, '\f', size);
    size_t na = ff ? (size_t)(ff - data) : size;
    fuzz_write(fa, data, na);
    if (ff) fuzz_write(fb, ff + 1, size - na - 1);
    else unlink(fb);
    return dir;
}

/* Swaps stderr for /dev/null (unless FUZZ_VERBOSE is set) and back. */
static inline FILE *fuzz_quiet_begin(void) {
    static FILE *null;
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (verbose) return NULL;
    if (!null) null = fopen("/dev/null", "w");
    FILE *saved = stderr;
    stderr = null;
    return saved;
}
static inline void fuzz_quiet_end(FILE *saved) {
    if (saved) stderr = saved;
}

/* Closes fds and unmaps mappings that refer to this process's scratch files. */
static inline void fuzz_release_scratch(void) {
    char link[512], path[64];
    const char *prefix = fuzz_prefix();
    ssize_t np = (ssize_t)strlen(prefix);
    DIR *d = opendir("/proc/self/fd");
    if (d) {
        int self = dirfd(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            int fd = atoi(e->d_name);
            if (e->d_name[0] == '.' || fd == self || fd <= 2) continue;
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            ssize_t n = readlink(path, link, sizeof link - 1);
            if (n > np && !strncmp(link, prefix, (size_t)np)) close(fd);
        }
        closedir(d);
    }
    FILE *m = fopen("/proc/self/maps", "r");
    if (!m) return;
    static uintptr_t lo[256], hi[256];
    int nmap = 0;
    char line[1024];
    while (fgets(line, sizeof line, m) && nmap < 256) {
        char *p = strstr(line, prefix);
        if (!p || p[-1] != ' ') continue;
        unsigned long a, b;
        if (sscanf(line, "%lx-%lx", &a, &b) == 2) lo[nmap] = a, hi[nmap++] = b;
    }
    fclose(m);
    for (int i = 0; i < nmap; i++) munmap((void *)lo[i], hi[i] - lo[i]);
}

/* Called with the trapped exit code (0 when nothing died). */
static inline void fuzz_check_code(int code) {
    if (code == 0 || code == EXIT_BADINPUT) return;
    dprintf(2, "fuzz: bad input ended in exit code %d instead of %d (die_input)\n", code, EXIT_BADINPUT);
    abort();
}

/* The trapped code of the last FUZZ_TRY (volatile: assigned around setjmp). */
static volatile int fuzz_rc;

/* Runs `body` with die*() trapped; afterwards `fuzz_rc` holds the exit code
 * (0 = returned normally; codes other than 2 and 3 read as 1) and the code
 * contract has been checked. setjmp sits in a switch, one of the contexts
 * where C allows it. */
#define FUZZ_TRY(body)                                         \
    do {                                                       \
        static jmp_buf fuzz_trap_;                             \
        FILE *fuzz_saved_ = fuzz_quiet_begin();                \
        switch (setjmp(fuzz_trap_)) {                          \
        case 0:                                                \
            error_set_trap(&fuzz_trap_);                       \
            body;                                              \
            fuzz_rc = 0;                                       \
            break;                                             \
        case EXIT_BADINPUT: fuzz_rc = EXIT_BADINPUT; break;    \
        case EXIT_USAGE: fuzz_rc = EXIT_USAGE; break;          \
        default: fuzz_rc = EXIT_FAIL; break;                   \
        }                                                      \
        error_set_trap(NULL);                                  \
        fuzz_quiet_end(fuzz_saved_);                           \
        fuzz_check_code(fuzz_rc);                              \
    } while (0)

/* FUZZ_TRY, then on a trapped error release what the dead call held. */
#define FUZZ_OPEN(body)                                        \
    do {                                                       \
        FUZZ_TRY(body);                                        \
        if (fuzz_rc) fuzz_release_scratch();                   \
    } while (0)

/* Invariant check that survives -DNDEBUG and names the failed condition (on
 * fd 2: stderr may be silenced inside FUZZ_TRY). */
#define FUZZ_ASSERT(cond)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            dprintf(2, "fuzz: %s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

#endif
