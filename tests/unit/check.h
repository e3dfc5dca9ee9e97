/* check.h: the tiny unit-test harness. A test program defines functions
 * `static void test_x(void)` and lists them in main() with RUN(test_x).
 * Each prints "PASS: prog/test_x", "FAIL: ..." or "SKIP: ... (reason)";
 * tests/run.sh counts those lines. CHECK* record a failure and go on. */
#ifndef PROBEXPAN_CHECK_H
#define PROBEXPAN_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/blas_core.h"

static int check_failures_, check_skipped_, check_any_failed_;
static char check_skip_reason_[256];
static const char *check_prog_ = "test";

#define CHECK(cond) do { if (!(cond)) { check_failures_++; \
    fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_MSG(cond, ...) do { if (!(cond)) { check_failures_++; \
    fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
    fputc('\n', stderr); } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) { check_failures_++; fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", \
    __FILE__, __LINE__, #a, a_, #b, b_); } } while (0)
#define CHECK_NEAR(a, b, tol) do { double a_ = (a), b_ = (b); \
    if (!(fabs(a_ - b_) <= (tol))) { check_failures_++; fprintf(stderr, \
    "  %s:%d: %s = %.9g, expected %.9g (tol %.3g)\n", __FILE__, __LINE__, #a, a_, b_, (double)(tol)); } } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_)) { check_failures_++; fprintf(stderr, \
    "  %s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)
/* Marks the current test skipped (visibly) and returns from it. */
#define SKIP(...) do { check_skipped_ = 1; snprintf(check_skip_reason_, sizeof check_skip_reason_, __VA_ARGS__); return; } while (0)

#define RUN(fn) do { check_failures_ = 0; check_skipped_ = 0; fn(); \
    if (check_failures_) { check_any_failed_ = 1; printf("FAIL: %s/%s\n", check_prog_, #fn); } \
    else if (check_skipped_) { printf("SKIP: %s/%s (%s)\n", check_prog_, #fn, check_skip_reason_); } \
    else { printf("PASS: %s/%s\n", check_prog_, #fn); } \
    fflush(stdout); } while (0)
/* CHECK_DIES(code, substring, statement): runs statement in a forked child with
 * stderr captured; checks that the child exits with `code` and that its stderr
 * contains `substring` (the die_input message). */
#include <sys/wait.h>
static inline int check_dies_run_(void (*fn)(void *), void *arg, int code, const char *needle) {
    char path[] = "/tmp/probexpan-check-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    fflush(stdout); fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) { dup2(fd, 2); fn(arg); _exit(0); }
    int status = 0;
    waitpid(pid, &status, 0);
    char buf[4096] = {0};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    close(fd);
    unlink(path);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == code && (!*needle || (n > 0 && strstr(buf, needle)));
    if (!ok) fprintf(stderr, "  child exited %d (expected %d), stderr: %s\n",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1, code, n > 0 ? buf : "(none)");
    return ok;
}
#define CHECK_DIES(code, needle, fn, arg) do { if (!check_dies_run_((fn), (arg), (code), (needle))) { \
    check_failures_++; fprintf(stderr, "  %s:%d: %s(%s) did not die with %d / \"%s\"\n", \
    __FILE__, __LINE__, #fn, #arg, (code), (needle)); } } while (0)

/* Removes a test's temporary folder and everything in it (a message when it cannot). */
static inline void check_remove_dir(const char *dir) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) fprintf(stderr, "cannot remove %s\n", dir);
}

/* A test program computes with the OpenBLAS core the programs would use (base/blas_core.h):
 * the one chosen for this CPU, or $OPENBLAS_CORETYPE's. */
#define TEST_MAIN_BEGIN(name) int main(int argc, char **argv) { (void)argc; blas_core_select(argv); \
    check_prog_ = name;
#define TEST_MAIN_END return check_any_failed_; }

/* Path of ../shared relative to the repository root, or NULL when absent. */
static inline const char *check_shared_dir(void) {
    static char buf[4096];
    const char *env = getenv("PROBEXPAN_SHARED");
    if (env && *env) return access(env, R_OK) == 0 ? env : NULL;
    const char *root = getenv("PROBEXPAN_ROOT");
    snprintf(buf, sizeof buf, "%s/../shared", root ? root : ".");
    return access(buf, R_OK) == 0 ? buf : NULL;
}

#endif
