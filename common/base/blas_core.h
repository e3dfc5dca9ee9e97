/* blas_core: which OpenBLAS kernels (its "core") a program runs with (docs/blas.md).
 *
 * Debian's OpenBLAS is a DYNAMIC_ARCH build: a shared-library constructor, before main, picks
 * one core for the process from cpuid, or from $OPENBLAS_CORETYPE when that is set. Its table
 * misses CPUs newer than the library: 0.3.21 runs an Intel family-6 model it has no case for
 * (model 0xCF, a Xeon with AVX-512 and AVX512-BF16) on its Prescott (SSE3) kernels.
 * blas_core_select(), called first thing by cli_parse, works out the best core the library has
 * for the CPU's features; when the library picked another one and the user has not set
 * OPENBLAS_CORETYPE (set, even empty, is the user's: never overridden), it re-executes the
 * program with the variable set, so the constructor picks that core. Where the library's own
 * choice is right (this is the common case) nothing happens. */
#ifndef PROBEXPAN_BLAS_CORE_H
#define PROBEXPAN_BLAS_CORE_H

/* The CPU features the choice depends on; each "usable" one is also enabled by the OS (xgetbv). */
typedef struct {
    int amd;          /* vendor AuthenticAMD or HygonGenuine (OpenBLAS's Zen kernels) */
    int avx;          /* AVX usable */
    int avx2;         /* AVX2 and FMA usable */
    int avx512;       /* AVX512F and AVX512VL usable (zmm state enabled) */
    int avx512_bf16;  /* AVX512-BF16 on top of avx512 */
} blas_cpu;

/* The features of the CPU this runs on (all 0 on other architectures than x86-64). */
blas_cpu blas_cpu_detect(void);
/* The best core of OpenBLAS 0.3.21's table for a CPU with these features, or NULL when the
 * library's own detection is to be kept (no AVX: no faster kernel to ask for). */
const char *blas_core_for(const blas_cpu *cpu);
/* The feature level the choice came from, e.g. "AVX512-BF16", "AVX2" (for the log). */
const char *blas_cpu_level(const blas_cpu *cpu);

/* At the top of main (cli_parse calls it with its argv, before permuting it): re-executes the
 * program (/proc/self/exe, same argv and environment plus OPENBLAS_CORETYPE) when the core in
 * use is not blas_core_for(this CPU) and OPENBLAS_CORETYPE is unset. Returns otherwise; also
 * when the re-exec fails (then the library's core stays and blas_core_origin says why). */
void blas_core_select(char **argv);
/* Sets OPENBLAS_CORETYPE=core (marked as this module's choice) and re-executes the program
 * with argv; returns only on failure. blas_core_select's mechanism, for tests. */
void blas_core_reexec(const char *core, char **argv);

/* The core in use (openblas_get_corename()), e.g. "Zen", "Cooperlake", "Prescott". */
const char *blas_core_name(void);
/* Where it came from: "cpuid" (chosen here, by a re-exec), "OPENBLAS_CORETYPE" (the user's or
 * the environment's variable), "OpenBLAS" (the library's detection, the same as cpuid's
 * choice or no better one known), "OpenBLAS (re-exec failed)". */
const char *blas_core_origin(void);
/* "Zen (OpenBLAS; CPU level AVX2)": the core, its origin, the CPU's level and, when the core
 * is not the one chosen for that level, ", whose best core is Cooperlake" (a static buffer). */
const char *blas_core_summary(void);

#endif
