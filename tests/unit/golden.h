/* golden.h: test helpers for the golden vectors in ../shared/golden (raw little-endian
 * .f32/.i32 files, row-major, no header; see golden/README.md). Header-only, for unit
 * tests that include check.h first.
 *
 *   const char *g = golden_dir();              NULL when ../shared/golden is absent (SKIP)
 *   float *v = golden_f32("cl/loss", 1);       malloc'd; CHECK-fails and returns NULL when
 *                                              the file is missing or has another size
 *   golden_close("cl/z", computed, n);         CHECKs max|c−g| <= 1e-4·max|g| + 1e-6
 *   golden_close_tol("x", c, n, rel, abs);     the same with a chosen bound
 * golden_close* return 1 when within the bound (and print the worst element when not). */
#ifndef PROBEXPAN_GOLDEN_H
#define PROBEXPAN_GOLDEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline const char *golden_dir(void) {
    static char buf[4096];
    const char *shared = check_shared_dir();
    if (!shared) return NULL;
    if (snprintf(buf, sizeof buf, "%s/golden", shared) >= (int)sizeof buf) return NULL;
    return access(buf, R_OK) == 0 ? buf : NULL;
}

/* Reads golden/<name><ext> holding exactly n elements of 4 bytes. */
static inline void *golden_read4_(const char *name, const char *ext, int64_t n) {
    char path[4096];
    const char *g = golden_dir();
    if (!g) { CHECK_MSG(0, "golden dir absent (reading %s)", name); return NULL; }
    if (snprintf(path, sizeof path, "%s/%s%s", g, name, ext) >= (int)sizeof path) {
        CHECK_MSG(0, "path too long for %s", name);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) { CHECK_MSG(0, "cannot open %s", path); return NULL; }
    void *buf = malloc((size_t)(n > 0 ? n : 1) * 4);
    size_t got = fread(buf, 4, (size_t)n, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != (size_t)n || extra) {
        CHECK_MSG(0, "%s: expected %lld values of 4 bytes", path, (long long)n);
        free(buf);
        return NULL;
    }
    return buf;
}
static inline float *golden_f32(const char *name, int64_t n) {
    return (float *)golden_read4_(name, ".f32", n);
}
static inline int32_t *golden_i32(const char *name, int64_t n) {
    return (int32_t *)golden_read4_(name, ".i32", n);
}

/* max|c − g| <= rel·max|g| + abs over n values; compares against golden/<name>.f32. */
static inline int golden_close_tol(const char *name, const float *c, int64_t n, double rel,
                                   double abs_tol) {
    float *g = golden_f32(name, n);
    if (!g) return 0;
    double gmax = 0, worst = -1;
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++)
        if (fabs((double)g[i]) > gmax) gmax = fabs((double)g[i]);
    for (int64_t i = 0; i < n; i++) {
        double d = fabs((double)c[i] - (double)g[i]);
        if (isnan(d)) { worst = d; at = i; break; }
        if (d > worst) { worst = d; at = i; }
    }
    const double bound = rel * gmax + abs_tol;
    const int ok = worst <= bound;
    CHECK_MSG(ok, "%s: max|c-g| = %.3g at [%lld] (c %.9g, g %.9g) > bound %.3g (max|g| %.3g)",
              name, worst, (long long)at, (double)c[at], (double)g[at], bound, gmax);
    free(g);
    return ok;
}
static inline int golden_close(const char *name, const float *c, int64_t n) {
    return golden_close_tol(name, c, n, 1e-4, 1e-6);
}

#endif
