/* log: stderr messages, progress meters and the closing summary line. */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/error.h"

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double start_time;
__attribute__((constructor)) static void log_init(void) { start_time = now_seconds(); }
/* Seconds since the program started (monotonic clock). */
static double elapsed_seconds(void) { return now_seconds() - start_time; }

static void vlog(const char *tag, const char *fmt, va_list ap) {
    fprintf(stderr, "%s: %s", pe_progname, tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void log_info(const char *fmt, ...) {
    if (cli_quiet) return;
    va_list ap;
    va_start(ap, fmt);
    vlog("", fmt, ap);
    va_end(ap);
}

void log_warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vlog("warning: ", fmt, ap);
    va_end(ap);
}

void log_done(const char *fmt, ...) {
    if (cli_quiet) return;
    va_list ap;
    fprintf(stderr, "%s: done: ", pe_progname);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ", %.1f s\n", elapsed_seconds());
}

const char *fmt_count(char *buf, int64_t n) {
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%lld", (long long)(n < 0 ? -n : n));
    char *o = buf;
    if (n < 0) *o++ = '-';
    for (int i = 0; i < len; i++) {
        *o++ = tmp[i];
        if ((len - i - 1) % 3 == 0 && i != len - 1) *o++ = ',';
    }
    *o = '\0';
    return buf;
}

void progress_start(progress *p, const char *label, const char *unit, int64_t total) {
    p->label = label;
    p->unit = unit;
    p->total = total;
    p->done = 0;
    p->start = p->last_print = now_seconds();
    p->extra[0] = '\0';
}

static void progress_draw(progress *p, int final) {
    double t = now_seconds() - p->start;
    double rate = t > 0 ? p->done / t : 0;
    int tty = isatty(2);
    char a[32], b[32];
    fprintf(stderr, "%s%s: %s: %s", tty ? "\r" : "", pe_progname, p->label, fmt_count(a, p->done));
    if (p->total > 0) {
        double frac = (double)p->done / p->total;
        fprintf(stderr, "/%s %s ", fmt_count(b, p->total), p->unit);
        if (tty) {
            int w = 24, f = (int)(frac * w);
            fputc('[', stderr);
            for (int i = 0; i < w; i++) fputc(i < f ? '#' : '.', stderr);
            fputc(']', stderr);
        } else {
            fprintf(stderr, "(%.0f%%)", 100 * frac);
        }
    } else {
        fprintf(stderr, " %s", p->unit);
    }
    fprintf(stderr, ", %.1f %s/s", rate, p->unit);
    if (p->total > 0 && !final && rate > 0) fprintf(stderr, ", ETA %.0f s", (p->total - p->done) / rate);
    fprintf(stderr, "%s%s%s", p->extra[0] ? ", " : "", p->extra, tty ? "\033[K" : "");
    if (!tty || final) fputc('\n', stderr);
    p->last_print = now_seconds();
}

void progress_update(progress *p, int64_t done) {
    p->done = done;
    if (cli_quiet) return;
    double now = now_seconds();
    if (now - p->last_print >= (isatty(2) ? 0.2 : 5.0)) progress_draw(p, 0);
}

void progress_end(progress *p) {
    if (cli_quiet) return;
    if (now_seconds() - p->start >= 1.0 || isatty(2)) progress_draw(p, 1);
}
