/* cli: table-driven long-option parsing, range checks and --help output. */
#include "base/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/blas_core.h"
#include "base/error.h"
#include "base/paths.h"

extern void openblas_set_num_threads(int num_threads);

int cli_quiet;
int cli_threads;
const char *cli_catalog;
static char *argv_string;
static const cli_spec *parsed_spec; /* the program's table, for cli_each_value */

static const cli_option global_options[] = {
    {"quiet", OPT_FLAG, &cli_quiet, NULL, "no progress or summary on stderr", 0, 0},
    {"threads", OPT_INT, &cli_threads, "N", "threads for BLAS and parallel loops (0 = all cores; at most 64: each costs stack and BLAS buffer memory)", 0, 64},
    {"catalog", OPT_STRING, &cli_catalog, "PATH", "SQLite catalog (default: $PROBEXPAN_CATALOG, else catalog.sqlite beside the output)", 0, 0},
    {NULL, 0, NULL, NULL, NULL, 0, 0},
};

int cli_num_threads(void) {
    if (cli_threads > 0) return cli_threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static void print_default(const cli_option *o) {
    switch (o->type) {
    case OPT_FLAG: printf(" (default: %s)", *(int *)o->dest ? "on" : "off"); break;
    case OPT_INT: printf(" (default: %d)", *(int *)o->dest); break;
    case OPT_LONG: printf(" (default: %ld)", *(long *)o->dest); break;
    case OPT_DOUBLE: printf(" (default: %g)", *(double *)o->dest); break;
    case OPT_STRING:
    case OPT_INPUT:
    case OPT_OUTPUT:
    case OPT_OUTPUT_DIR: {
        const char *s = *(const char **)o->dest;
        if (s) printf(" (default: %s)", s);
        break;
    }
    case OPT_LIST: printf(" (repeatable)"); break;
    }
    if ((o->type == OPT_INT || o->type == OPT_LONG || o->type == OPT_DOUBLE) && o->min != o->max)
        printf(" [%g..%g]", o->min, o->max);
}

static void print_options(const cli_option *opts) {
    for (const cli_option *o = opts; o && o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
        printf("  %-26s %s", left, o->help);
        print_default(o);
        putchar('\n');
    }
}

static void print_help(const cli_spec *s) {
    printf("%s - %s\n\nUsage: %s %s\n\ne.g.:\n  %s\n\nOptions:\n", s->name, s->purpose, s->name,
           s->usage, s->example);
    print_options(s->options);
    print_options(global_options);
    printf("  %-26s %s\n", "--help", "print this help and exit");
    printf("\nExit status: 0 ok, 1 failure, 2 usage error, 3 bad input.\n");
    if (s->see_also) printf("See also: %s\n", s->see_also);
}

static const cli_option *find_option(const cli_option *opts, const char *name, size_t len) {
    for (const cli_option *o = opts; o && o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o;
    return NULL;
}

static void set_option(const cli_option *o, const char *val) {
    char *end = NULL;
    double d = 0;
    switch (o->type) {
    case OPT_FLAG: *(int *)o->dest = 1; return;
    case OPT_STRING:
    case OPT_INPUT:
    case OPT_OUTPUT:
    case OPT_OUTPUT_DIR: *(const char **)o->dest = val; return;
    case OPT_LIST: {
        cli_list *l = o->dest;
        l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 1));
        l->v[l->n++] = val;
        return;
    }
    case OPT_INT:
    case OPT_LONG:
        errno = 0;
        d = (double)strtoll(val, &end, 10);
        break;
    case OPT_DOUBLE:
        errno = 0;
        d = strtod(val, &end);
        break;
    }
    if (*val == '\0' || *end != '\0' || errno || !isfinite(d))
        die_usage("--%s: '%s' is not a %s", o->name, val, o->type == OPT_DOUBLE ? "number" : "whole number");
    if (o->min != o->max && (d < o->min || d > o->max))
        die_usage("--%s: %s is out of range [%g, %g]", o->name, val, o->min, o->max);
    if (o->type == OPT_INT) *(int *)o->dest = (int)d;
    else if (o->type == OPT_LONG) *(long *)o->dest = (long)d;
    else *(double *)o->dest = d;
}

static void record_argv(int argc, char **argv) {
    size_t cap = 1;
    for (int i = 0; i < argc; i++) cap += strlen(argv[i]) * 4 + 3;
    argv_string = xmalloc(cap);
    char *p = argv_string;
    for (int i = 0; i < argc; i++) {
        if (i) *p++ = ' ';
        if (argv[i][strcspn(argv[i], " \t'\"$\\;&|<>()*?")] == '\0' && argv[i][0]) {
            p = stpcpy(p, argv[i]);
        } else {
            *p++ = '\'';
            for (const char *c = argv[i]; *c; c++) {
                if (*c == '\'') p = stpcpy(p, "'\\''");
                else *p++ = *c;
            }
            *p++ = '\'';
        }
    }
    *p = '\0';
}

const char *cli_argv_string(void) { return argv_string ? argv_string : ""; }

void cli_each_value(void (*fn)(void *ctx, const cli_value *v), void *ctx) {
    for (const cli_option *o = parsed_spec ? parsed_spec->options : NULL; o && o->name; o++) {
        if (!strcmp(o->name, "out")) continue;
        char key[64];
        snprintf(key, sizeof key, "%s", o->name);
        for (char *c = key; *c; c++)
            if (*c == '-') *c = '_';
        cli_value v = {key, o->type, 0, 0, NULL, NULL};
        switch (o->type) {
        case OPT_FLAG: case OPT_INT: v.i = *(int *)o->dest; break;
        case OPT_LONG: v.i = *(long *)o->dest; break;
        case OPT_DOUBLE: v.d = *(double *)o->dest; break;
        case OPT_STRING: case OPT_INPUT: case OPT_OUTPUT: case OPT_OUTPUT_DIR: v.s = *(const char **)o->dest; break;
        case OPT_LIST: v.list = o->dest; break;
        }
        int is_text = o->type == OPT_STRING || o->type == OPT_INPUT || o->type == OPT_OUTPUT || o->type == OPT_OUTPUT_DIR;
        if ((is_text && !v.s) || (o->type == OPT_LIST && !v.list->n)) continue;
        fn(ctx, &v);
    }
}

/* Declares the path options that were given and the positional inputs, then checks them. */
static void declare_paths(const cli_option *opts, char **positional, int npos) {
    for (const cli_option *o = opts; o && o->name; o++) {
        int is_path = o->type == OPT_INPUT || o->type == OPT_OUTPUT || o->type == OPT_OUTPUT_DIR;
        const char *v = is_path ? *(const char **)o->dest : NULL;
        if (!v) continue;
        char what[80];
        snprintf(what, sizeof what, "--%s", o->name);
        if (o->type == OPT_INPUT) paths_input(v, what);
        else if (o->type == OPT_OUTPUT) paths_output(v, what);
        else paths_output_dir(v, what, 0);
    }
    for (int k = 0; k < npos; k++) {
        const char *p = positional[k], *eq = strchr(p, '=');
        if (eq && access(p, F_OK) != 0) p = eq + 1;
        char what[32];
        snprintf(what, sizeof what, "argument %d", k + 1);
        paths_input(p, what);
    }
    paths_check();
}

int cli_parse(const cli_spec *spec, int argc, char **argv) {
    blas_core_select(argv); /* may re-execute the program: before anything else happens */
    error_catch_signals();
    pe_progname = spec->name;
    parsed_spec = spec;
    record_argv(argc, argv);
    char **positional = xmalloc(sizeof(char *) * (size_t)(argc + 1));
    int npos = 0, i = 1;
    for (; i < argc; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) { i++; break; }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') { positional[npos++] = a; continue; }
        if (strcmp(a, "--help") == 0) { free(positional); print_help(spec); exit(0); }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const cli_option *o = find_option(spec->options, name, len);
        if (!o) o = find_option(global_options, name, len);
        if (!o) die_usage("unknown option '%s' (try '%s --help')", a, spec->name);
        const char *val = NULL;
        if (o->type == OPT_FLAG) {
            if (eq) die_usage("--%s takes no value", o->name);
        } else if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc) die_usage("--%s needs a value (%s)", o->name, o->metavar ? o->metavar : "VALUE");
            val = argv[++i];
        }
        set_option(o, val);
    }
    for (; i < argc; i++) positional[npos++] = argv[i];
    if (spec->max_args != CLI_ANY_ARGS && npos > spec->max_args)
        die_usage("unexpected argument '%s' (try '%s --help')", positional[spec->max_args], spec->name);
    declare_paths(spec->options, positional, npos);
    int first = argc - npos;
    for (int k = 0; k < npos; k++) argv[first + k] = positional[k];
    free(positional);
    /* BLAS threads beyond the cores only cost memory (a buffer each): never more than the cores */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = cli_num_threads();
    openblas_set_num_threads(cores > 0 && n > cores ? (int)cores : n);
    return first;
}
