/* golden_io.h: helpers for tests that read ../shared/golden raw tensors (.f32/.i32,
 * little-endian, row-major, no header) and compare against them with
 * max|c − g| <= rel·max|g| + abs. Include after check.h. */
#ifndef PROBEXPAN_GOLDEN_IO_H
#define PROBEXPAN_GOLDEN_IO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Path of the golden dir or NULL. */
static inline const char *golden_dir(void) {
    static char buf[4200];
    const char *s = check_shared_dir();
    if (!s) return NULL;
    snprintf(buf, sizeof buf, "%s/golden", s);
    struct stat sb;
    return stat(buf, &sb) == 0 ? buf : NULL;
}

/* Reads golden/<rel> fully; *n = element count (4-byte elements). NULL if absent. */
static inline void *golden_read(const char *rel, long *n) {
    char path[8400];
    snprintf(path, sizeof path, "%s/%s", golden_dir(), rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "  missing golden file %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(sz ? (size_t)sz : 1);
    if (fread(p, 1, (size_t)sz, f) != (size_t)sz) sz = 0;
    fclose(f);
    if (n) *n = sz / 4;
    return p;
}

/* Compares n floats; prints the error figures; returns 1 when within tolerance. */
static inline int golden_cmp(const char *what, const float *got, const float *ref, long n,
                             double rel, double abs_) {
    double mx = 0, err = 0;
    long at = 0;
    for (long i = 0; i < n; i++) {
        double r = fabs(ref[i]), e = fabs((double)got[i] - ref[i]);
        if (r > mx) mx = r;
        if (!(e <= err)) { err = e; at = i; }
    }
    double tol = rel * mx + abs_;
    int ok = err <= tol;
    if (!ok || getenv("GOLDEN_VERBOSE"))
        fprintf(stderr, "  %s %s: max err %.3g at %ld (got %.9g ref %.9g), max|ref| %.3g, tol %.3g\n",
                ok ? "ok" : "MISMATCH", what, err, at, n ? got[at] : 0.0, n ? ref[at] : 0.0, mx, tol);
    return ok;
}

/* golden_cmp against golden/<rel> (CHECK-style failure on mismatch or missing file). */
#define GOLDEN_CHECK(rel_path, got, n, rel, abs_) do { long gn_; \
    float *gr_ = golden_read(rel_path, &gn_); CHECK_MSG(gr_ && gn_ == (long)(n), "%s: size %ld, expected %ld", rel_path, gr_ ? gn_ : -1L, (long)(n)); \
    if (gr_ && gn_ == (long)(n)) CHECK_MSG(golden_cmp(rel_path, got, gr_, (long)(n), rel, abs_), "%s differs", rel_path); \
    free(gr_); } while (0)

#endif
