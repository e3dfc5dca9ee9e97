/* log: messages and progress on stderr (docs/design.md §5).
 *
 * log_info() prints "PROG: message" unless --quiet. A progress meter draws a bar
 * with rate and ETA when stderr is a terminal and otherwise prints a line every
 * few seconds. log_done() prints the closing summary line ("done: ..."). */
#ifndef PROBEXPAN_LOG_H
#define PROBEXPAN_LOG_H

#include <stdint.h>

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: done: <message>, <elapsed> s" — the last stderr line of a program. */
void log_done(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

double now_seconds(void);

typedef struct {
    const char *label;
    const char *unit;    /* e.g. "samples" */
    int64_t total;       /* 0 = unknown */
    int64_t done;
    double start, last_print;
    char extra[96];      /* e.g. "loss 3.21" shown after the rate */
} progress;

void progress_start(progress *p, const char *label, const char *unit, int64_t total);
/* Sets the count done so far and redraws when due. */
void progress_update(progress *p, int64_t done);
void progress_end(progress *p);

/* Formats n with thousands separators into buf (returns buf). */
const char *fmt_count(char *buf, int64_t n);

#endif
