/* mpjson: print msgpack objects as JSON (for `probexpan inspect` and --json outputs).
 * bin objects print as {"$bin": N} (their size); NaN and infinities print as null;
 * non-string map keys are printed as their JSON text in a string. */
#ifndef PROBEXPAN_MPJSON_H
#define PROBEXPAN_MPJSON_H

#include <msgpack.h>
#include <stdio.h>

void mpjson_print(FILE *f, const msgpack_object *o);
/* Prints a C string as a JSON string literal. */
void mpjson_print_string(FILE *f, const char *s, size_t n);
/* Prints a float as a JSON number (or null). */
void mpjson_print_number(FILE *f, double v);

#endif
