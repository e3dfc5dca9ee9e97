/* names_file: the entity-names file a person writes or reviews (schemas/names.md):
 * one entity per line, its name then its aliases, separated by tabs
 *
 *   International Business Machines<TAB>IBM<TAB># 41 mentions<TAB>context<TAB>context
 *
 * Fields are trimmed of spaces; empty fields are skipped. A field that starts
 * with '#' begins a comment that runs to the end of the line (annotate
 * --discover writes the mention count and two example contexts there), so a
 * line whose first field starts with '#' is a comment line. annotate
 * --entities, expand --aliases and the names in query files read this format with
 * names_file_read; serve's review of names.tsv, which writes back what it does not edit
 * byte for byte, reads it from memory with names_text_lines. */
#ifndef PROBEXPAN_NAMES_FILE_H
#define PROBEXPAN_NAMES_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest line accepted (bytes); a longer one is bad input. */
#define NAMES_MAX_LINE (1 << 20)

/* Splits `line` (NUL-terminated, no newline; modified in place) into its name fields:
 * returns their count (0 for a blank or comment line) and points (*fields)[0..n) into
 * line; *fields is grown with realloc as needed (*cap entries; start with NULL/0). When
 * comment is not NULL, *comment points at the '#' that begins the line's comment, which
 * runs to the end of the line with its tabs (the line is not cut there), or is NULL. */
int names_line_split(char *line, char ***fields, int *cap, const char **comment);

/* Receives each entity line: fields[0] the name, fields[1..n) its aliases. */
typedef void (*names_entry_fn)(void *ctx, const char *file, int64_t lineno, char **fields, int n);

/* Streams the names file `path` (a file, archive or "-" read as in text_source.h:
 * invalid UTF-8 or a NUL byte dies with exit 3 naming file and line; so does a
 * line over NAMES_MAX_LINE bytes). Returns the number of entity lines. */
int64_t names_file_read(const char *path, names_entry_fn fn, void *ctx);

/* Receives each line of a names text: raw[0..rawlen) its bytes as in the text, its newline
 * included (the last line may have none), so that the lines written back from raw are the
 * text as read, and what names_line_split makes of the line as names_file_read reads it
 * (fields[0..n), comment). */
typedef void (*names_text_fn)(void *ctx, const char *raw, size_t rawlen, char **fields, int n, const char *comment);

/* Splits the names text text[0..len) (need not be NUL-terminated) into lines for fn with
 * the rules of names_file_read (a CR before a newline and a UTF-8 byte-order mark opening
 * the text are no part of a line), for a reader that keeps each line's bytes (serve's
 * review, common/serve/names_list.h). 0, or -1 with err "line N: ..." for invalid UTF-8,
 * a NUL byte or a line over NAMES_MAX_LINE bytes (the lines before it were delivered). */
int names_text_lines(const char *text, size_t len, names_text_fn fn, void *ctx, char *err, size_t errlen);

/* The comment annotate --discover writes after an entity's name fields:
 *
 *   # N mentions; merged: ALIAS (rule), ALIAS (rule)<TAB>context<TAB>context
 *
 * its first field the mention count and the rule that merged each alias, its further
 * fields example contexts. names_comment_write() writes the first field; the readers
 * take any comment and find what is there. */
void names_comment_write(FILE *f, int64_t mentions, const char *merged);
/* The list "ALIAS (rule), ..." with alias appended (malloc'd; frees merged, NULL = empty). */
char *names_merged_add(char *merged, const char *alias, const char *rule);
/* The count N of a comment whose first field is "# N mentions...", or -1. */
int64_t names_comment_mentions(const char *comment);
/* The same comment with total as its count (malloc'd; comment has a count). */
char *names_comment_with_mentions(const char *comment, int64_t total);
/* The rule after "ALIAS (" in the "merged: " list of the comment's first field, into rule
 * (empty when the alias is not listed; comment may be NULL). */
void names_comment_rule(const char *comment, const char *alias, char *rule, size_t cap);

#endif
