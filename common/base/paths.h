/* paths: the rules every program's input and output paths obey, checked in one place.
 *
 * A program declares what it reads and writes: cli_parse() does it for options
 * typed OPT_INPUT / OPT_OUTPUT / OPT_OUTPUT_DIR and for positional arguments (all
 * inputs; "LABEL=PATH" counts as PATH), then calls paths_check(). A program that
 * derives more paths adds them with paths_input() / paths_output() and calls
 * paths_check() again. paths_check() exits 2 (usage error) before any work when
 *   - an output path is empty;
 *   - an output is the same file or folder as an input or as another output
 *     (same device and inode after resolving links; a path that does not exist
 *     yet is compared by its resolved folder + name);
 *   - an output lies inside an input folder (e.g. a dataset's entity2id.txt), or an
 *     output folder that the program replaces as a whole holds an input;
 *   - an output file's path exists and is not a regular file: writers create a
 *     temporary file and rename it over the target, which would replace a symlink,
 *     device node (/dev/null), FIFO or socket instead of writing through it;
 *   - an output folder's path exists and is not a folder;
 * and exits 3 (bad input) when an input exists but is neither a regular file nor a
 * folder (a FIFO would block the reader, a device has no end). "-" (stdin) is no path.
 * catalog_begin() calls paths_check_catalog() with the catalog it will write.
 *
 * Writers call paths_check_target() for every final path they create, declared or
 * not, and readers open files with paths_open_input(), which never blocks on a FIFO. */
#ifndef PROBEXPAN_PATHS_H
#define PROBEXPAN_PATHS_H

#include <stdio.h>

/* `what` names the path in messages, e.g. "--out" or "argument 2"; it is copied. */
void paths_input(const char *path, const char *what);
void paths_output(const char *path, const char *what);
/* A folder the program writes into; `replaced`: it replaces the folder as a whole. */
void paths_output_dir(const char *path, const char *what, int replaced);
/* Applies the rules above to everything declared so far. */
void paths_check(void);
/* Exit 2 when the catalog database `db_path` is one of the declared inputs or outputs. */
void paths_check_catalog(const char *db_path);
/* Exit 2 when `path`, about to be written by temp file + rename, is an input, lies
 * inside an input folder, or exists and is not a regular file. */
void paths_check_target(const char *path);

/* Opens an input file for reading without blocking (a FIFO without a writer would
 * block open() forever) and checks that it is a regular file; exit 3 naming the path
 * otherwise. Returns a blocking descriptor, or -1 with errno when open() fails. */
int paths_open_input(const char *path);
/* The same as a stdio stream ("rb"); NULL with errno when open() fails. */
FILE *paths_fopen_input(const char *path);

#endif
