/* blas_core: the best OpenBLAS core for this CPU, chosen from cpuid before the library's
 * constructor reads OPENBLAS_CORETYPE (by re-executing the program), and reported. */
#include "base/blas_core.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

extern char *openblas_get_corename(void);
extern char *openblas_get_config(void);

/* Set beside OPENBLAS_CORETYPE by the re-exec: the variable then is this module's choice. */
#define CHOSEN_VAR "PROBEXPAN_BLAS_CORE"

static int reexec_failed;

#if defined(__x86_64__) || defined(__i386__)
static unsigned long long xgetbv0(void) {
    unsigned int lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}
#endif

blas_cpu blas_cpu_detect(void) {
    blas_cpu c = {0};
#if defined(__x86_64__) || defined(__i386__)
    unsigned int a, b, cx, d, max = __get_cpuid_max(0, NULL);
    if (max < 1) return c;
    char vendor[13] = {0};
    __cpuid(0, a, b, cx, d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &cx, 4);
    c.amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
    __cpuid(1, a, b, cx, d);
    int osxsave = (cx >> 27) & 1, avx = (cx >> 28) & 1, fma = (cx >> 12) & 1;
    if (!osxsave || !avx) return c;
    unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return c; /* the OS saves no ymm state */
    c.avx = 1;
    if (max < 7) return c;
    __cpuid_count(7, 0, a, b, cx, d);
    c.avx2 = ((b >> 5) & 1) && fma;
    /* AVX512F and AVX512VL (what OpenBLAS's SkylakeX kernels use), opmask and zmm state saved */
    c.avx512 = c.avx2 && ((b >> 16) & 1) && ((b >> 31) & 1) && (xcr0 & 0xe6) == 0xe6;
    if (c.avx512 && a >= 1) {
        __cpuid_count(7, 1, a, b, cx, d);
        c.avx512_bf16 = (a >> 5) & 1;
    }
#endif
    return c;
}

/* OpenBLAS 0.3.21's x86-64 cores for these levels (driver/others/dynamic.c): Cooperlake is
 * SkylakeX plus the bf16 kernels; Zen and Haswell share the AVX2 kernels with their own
 * blocking. Without AVX the library's detection stands (its older cores differ by vendor). */
const char *blas_core_for(const blas_cpu *cpu) {
    if (cpu->avx512_bf16) return "Cooperlake";
    if (cpu->avx512) return "SkylakeX";
    if (cpu->avx2) return cpu->amd ? "Zen" : "Haswell";
    if (cpu->avx && !cpu->amd) return "Sandybridge";
    return NULL;
}

const char *blas_cpu_level(const blas_cpu *cpu) {
    return cpu->avx512_bf16 ? "AVX512-BF16" : cpu->avx512 ? "AVX512" : cpu->avx2 ? "AVX2" : cpu->avx ? "AVX" : "SSE";
}

const char *blas_core_name(void) { return openblas_get_corename(); }

void blas_core_reexec(const char *core, char **argv) {
    char self[PATH_MAX];
    /* the path, not /proc/self/exe itself: under valgrind that link is valgrind's own binary,
     * while readlink is answered with the program's path */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        setenv("OPENBLAS_CORETYPE", core, 1);
        setenv(CHOSEN_VAR, core, 1);
        fflush(stdout);
        fflush(stderr);
        execv(self, argv);
        unsetenv("OPENBLAS_CORETYPE");
        unsetenv(CHOSEN_VAR);
    }
    reexec_failed = 1;
}

void blas_core_select(char **argv) {
    if (getenv("OPENBLAS_CORETYPE")) return; /* the user's (or the environment's) choice */
    const char *config = openblas_get_config();
    if (!config || !strstr(config, "DYNAMIC_ARCH")) return; /* one core built in: nothing to pick */
    blas_cpu cpu = blas_cpu_detect();
    const char *want = blas_core_for(&cpu);
    if (!want || !strcasecmp(want, blas_core_name())) return;
    blas_core_reexec(want, argv);
}

const char *blas_core_origin(void) {
    const char *set = getenv("OPENBLAS_CORETYPE"), *chosen = getenv(CHOSEN_VAR);
    if (set) return chosen && !strcmp(set, chosen) ? "cpuid" : "OPENBLAS_CORETYPE";
    return reexec_failed ? "OpenBLAS (re-exec failed)" : "OpenBLAS";
}

const char *blas_core_summary(void) {
    static char buf[160];
    blas_cpu cpu = blas_cpu_detect();
    const char *want = blas_core_for(&cpu), *used = blas_core_name();
    int n = snprintf(buf, sizeof buf, "%s (%s; CPU level %s", used, blas_core_origin(), blas_cpu_level(&cpu));
    if (want && strcasecmp(want, used)) snprintf(buf + n, sizeof buf - (size_t)n, ", whose best core is %s)", want);
    else snprintf(buf + n, sizeof buf - (size_t)n, ")");
    return buf;
}
