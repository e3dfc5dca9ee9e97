/* names_file: the entity-names file a person writes or reviews (schemas/names.md):
 * one entity per line, its name then its aliases, separated by tabs
 *
 *   International Business Machines<TAB>IBM<TAB># 41 mentions<TAB>context<TAB>context
 *
 * Fields are trimmed of spaces; empty fields are skipped. A field that starts
 * with '#' begins a comment that runs to the end of the line (annotate
 * --discover writes the mention count and two example contexts there), so a
 * line whose first field starts with '#' is a comment line. annotate
 * --entities, expand --aliases and the names in query files read this format. */
#ifndef PROBEXPAN_NAMES_FILE_H
#define PROBEXPAN_NAMES_FILE_H

#include <stdint.h>

/* Longest line accepted (bytes); a longer one is bad input. */
#define NAMES_MAX_LINE (1 << 20)

/* Splits `line` (NUL-terminated; modified in place) into its name fields: returns
 * their count (0 for a blank or comment line) and points (*fields)[0..n) into
 * line; *fields is grown with realloc as needed (*cap entries; start with NULL/0). */
int names_line_split(char *line, char ***fields, int *cap);

/* Receives each entity line: fields[0] the name, fields[1..n) its aliases. */
typedef void (*names_entry_fn)(void *ctx, const char *file, int64_t lineno, char **fields, int n);

/* Streams the names file `path` (a file, archive or "-" read as in text_source.h:
 * invalid UTF-8 or a NUL byte dies with exit 3 naming file and line; so does a
 * line over NAMES_MAX_LINE bytes). Returns the number of entity lines. */
int64_t names_file_read(const char *path, names_entry_fn fn, void *ctx);

#endif
