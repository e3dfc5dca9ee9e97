/* test_blas_core: the OpenBLAS core choice (base/blas_core.h). The table from CPU features to
 * cores; cpuid's features agree with the kernel's /proc/cpuinfo flags; and, through real
 * re-executions of this program: the re-exec makes the library run the core asked for, a
 * user's OPENBLAS_CORETYPE (set, even empty) is never overridden, and with none set the
 * program ends up on the core chosen for this CPU.
 *
 * `test_blas_core --report` runs blas_core_select and prints "CORE ORIGIN" (the children). */
#include <sys/wait.h>

#include "check.h"

/* In a child with OPENBLAS_CORETYPE set to `coretype` (NULL: unset): mode "--report" execs this
 * program (`self`) in its report mode; "--reexec-prescott" calls blas_core_reexec("Prescott")
 * with the report mode's argv. The report's line goes to out. Returns 1 when it exited 0. */
static const char *self;
static int run_child(const char *coretype, const char *mode, char out[128]) {
    int fd[2];
    if (pipe(fd)) return 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        unsetenv("PROBEXPAN_BLAS_CORE");
        if (coretype) setenv("OPENBLAS_CORETYPE", coretype, 1);
        else unsetenv("OPENBLAS_CORETYPE");
        char *argv[] = {(char *)self, (char *)mode, NULL};
        if (!strcmp(mode, "--reexec-prescott")) blas_core_reexec("Prescott", (char *[]){(char *)self, "--report", NULL});
        else execv(self, argv);
        _exit(127);
    }
    close(fd[1]);
    ssize_t n = read(fd[0], out, 127);
    close(fd[0]);
    out[n > 0 ? n : 0] = '\0';
    char *nl = strchr(out, '\n');
    if (nl) *nl = '\0';
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int any_core_set_by_environment(void) { return getenv("OPENBLAS_CORETYPE") != NULL; }

static void test_core_table(void) {
    const struct { blas_cpu cpu; const char *core; } cases[] = {
        {{0, 1, 1, 1, 1}, "Cooperlake"},  /* an Intel Xeon with AVX512-BF16 (e.g. model 0xCF) */
        {{0, 1, 1, 1, 0}, "SkylakeX"},
        {{1, 1, 1, 1, 1}, "Cooperlake"},  /* AMD Zen 4 */
        {{0, 1, 1, 0, 0}, "Haswell"},
        {{1, 1, 1, 0, 0}, "Zen"},
        {{0, 1, 0, 0, 0}, "Sandybridge"},
        {{1, 1, 0, 0, 0}, NULL},          /* AMD with AVX only: the library's Bulldozer family */
        {{0, 0, 0, 0, 0}, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = blas_core_for(&cases[i].cpu);
        CHECK_MSG((!got && !cases[i].core) || (got && cases[i].core && !strcmp(got, cases[i].core)),
                  "case %zu: %s, expected %s", i, got ? got : "NULL", cases[i].core ? cases[i].core : "NULL");
    }
    CHECK_STR(blas_cpu_level(&cases[0].cpu), "AVX512-BF16");
    CHECK_STR(blas_cpu_level(&cases[4].cpu), "AVX2");
}

/* Whether /proc/cpuinfo's first flags line has `flag` as a whole word. */
static int cpuinfo_has(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    static char line[8192];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5)) continue;
        for (char *t = strtok(strchr(line, ':') + 1, " \n"); t; t = strtok(NULL, " \n")) found |= !strcmp(t, flag);
        break;
    }
    fclose(f);
    return found;
}

static void test_detect_matches_cpuinfo(void) {
#if defined(__x86_64__)
    if (cpuinfo_has("fpu") != 1) SKIP("no x86 /proc/cpuinfo flags");
    blas_cpu c = blas_cpu_detect();
    CHECK_EQ_INT(c.avx, cpuinfo_has("avx"));
    CHECK_EQ_INT(c.avx2, cpuinfo_has("avx2") && cpuinfo_has("fma"));
    CHECK_EQ_INT(c.avx512, cpuinfo_has("avx512f") && cpuinfo_has("avx512vl"));
    CHECK_EQ_INT(c.avx512_bf16, c.avx512 && cpuinfo_has("avx512_bf16"));
    printf("# CPU level %s, best OpenBLAS core %s\n", blas_cpu_level(&c), blas_core_for(&c) ? blas_core_for(&c) : "(the library's)");
#else
    SKIP("not x86-64");
#endif
}

/* The re-exec sets the variable before the library's constructor: it then runs that core,
 * and the origin says the choice was this module's. */
static void test_reexec_takes_effect(void) {
    char out[128];
    CHECK(run_child(NULL, "--reexec-prescott", out));
    CHECK_STR(out, "Prescott cpuid");
}

static void test_user_variable_kept(void) {
    char out[128];
    CHECK(run_child("Prescott", "--report", out));
    CHECK_STR(out, "Prescott OPENBLAS_CORETYPE");
    /* set but empty is the user's too: not replaced (OpenBLAS then falls back on its own) */
    CHECK(run_child("", "--report", out));
    CHECK_MSG(strstr(out, " OPENBLAS_CORETYPE") != NULL, "empty OPENBLAS_CORETYPE: '%s'", out);
}

/* With no variable the program runs the core chosen for this CPU (by the library already, or
 * after the re-exec). */
static void test_default_is_best_core(void) {
    blas_cpu c = blas_cpu_detect();
    const char *want = blas_core_for(&c);
    if (!want) SKIP("no core known to be better than the library's own for this CPU");
    char out[128], expect_cpuid[64], expect_lib[64];
    CHECK(run_child(NULL, "--report", out));
    snprintf(expect_cpuid, sizeof expect_cpuid, "%s cpuid", want);
    snprintf(expect_lib, sizeof expect_lib, "%s OpenBLAS", want);
    CHECK_MSG(!strcmp(out, expect_cpuid) || !strcmp(out, expect_lib), "'%s', expected '%s' or '%s'", out, expect_cpuid,
              expect_lib);
    printf("# with OPENBLAS_CORETYPE unset: %s\n", out);
    if (any_core_set_by_environment()) printf("# (this test's own environment sets OPENBLAS_CORETYPE=%s)\n", getenv("OPENBLAS_CORETYPE"));
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--report")) {
        blas_core_select(argv);
        printf("%s %s\n", blas_core_name(), blas_core_origin());
        return 0;
    }
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    self = path;
    check_prog_ = "test_blas_core";
    RUN(test_core_table);
    RUN(test_detect_matches_cpuinfo);
    RUN(test_reexec_takes_effect);
    RUN(test_user_variable_kept);
    RUN(test_default_is_best_core);
    return check_any_failed_;
}
