/* cli: GNU-style long-option parsing and --help for every program (docs/design.md §5).
 *
 * A stage declares its options in a table whose `dest` pointers already hold the
 * defaults; --help prints purpose, usage, an e.g. line, every option with its
 * default, and See also. Numeric options are range-checked (exit 2 when out of
 * range). Every program also gets --help, --quiet, --threads N, --catalog PATH. */
#ifndef PROBEXPAN_CLI_H
#define PROBEXPAN_CLI_H

/* OPT_INPUT, OPT_OUTPUT (a file) and OPT_OUTPUT_DIR (a folder written into) are string options
 * holding paths: cli_parse declares them to base/paths.h and checks them (an output
 * never replaces an input, the catalog or a non-regular file; exit 2 before any work). */
typedef enum { OPT_FLAG, OPT_INT, OPT_LONG, OPT_DOUBLE, OPT_STRING, OPT_LIST, OPT_INPUT, OPT_OUTPUT, OPT_OUTPUT_DIR } cli_opt_type;

/* Destination of an OPT_LIST option: every occurrence appends its value, in
 * command-line order (values point into argv; the array is malloc'd). */
typedef struct {
    int n;
    const char **v;
} cli_list;

typedef struct {
    const char *name;     /* long name without the leading "--" */
    cli_opt_type type;
    void *dest;           /* int* (FLAG, INT), long*, double*, const char** (STRING), cli_list* (LIST) */
    const char *metavar;  /* e.g. "N", "PATH"; NULL for flags */
    const char *help;
    double min, max;      /* inclusive range for numbers; min == max means unchecked */
} cli_option;

typedef struct {
    const char *name;      /* program name, e.g. "expand" */
    const char *purpose;   /* one line */
    const char *usage;     /* after the program name, e.g. "[options] --dists FILE" */
    const char *example;   /* a worked command */
    const char *see_also;  /* e.g. "rerank, evaluate" */
    const cli_option *options; /* terminated by an entry with name == NULL */
    int max_args;          /* positional arguments the usage declares: 0 (the default) = none,
                              CLI_ANY_ARGS = any number; more are a usage error */
} cli_spec;

#define CLI_ANY_ARGS (-1)

/* Global options, filled by cli_parse. */
extern int cli_quiet;
extern int cli_threads;          /* 0 = all cores */
extern const char *cli_catalog;  /* NULL = default beside the output */

/* Parses argv; returns the index of the first positional argument (argv is
 * permuted so positionals come last). Handles --help (exit 0) and errors (exit 2),
 * among them more positional arguments than spec->max_args. Positional arguments
 * are input paths ("LABEL=PATH": PATH when the whole is no file); with the path
 * options they go through paths_check(). Also sets the OpenBLAS thread count. Called with
 * main's own argv: first of all it may re-execute the program with the best OpenBLAS core
 * for the CPU (base/blas_core.h).
 * Records argv for the catalog. */
int cli_parse(const cli_spec *spec, int argc, char **argv);

/* One option of the program's table with its value after cli_parse, for recording the run
 * (artifact params, catalog run_params): the key is the option's name with '_' for '-'. */
typedef struct {
    const char *key;
    cli_opt_type type;
    long long i;          /* FLAG (0/1), INT, LONG */
    double d;             /* DOUBLE */
    const char *s;        /* STRING, INPUT, OUTPUT, OUTPUT_DIR */
    const cli_list *list; /* LIST */
} cli_value;
/* Calls fn for each option of the table given to cli_parse (not the global ones), in table
 * order; skipped: --out (the output itself: an artifact's params stay the same whatever its
 * name) and options without a value (a STRING never given and without default, an empty LIST). */
void cli_each_value(void (*fn)(void *ctx, const cli_value *v), void *ctx);

/* The command line as one shell-quoted string (for the catalog). */
const char *cli_argv_string(void);
/* Number of threads to use: --threads, else the number of online cores. */
int cli_num_threads(void);

#endif
