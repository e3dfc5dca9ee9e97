/* names_list: the names file of a discovered dataset (names.tsv, schemas/names.md) as `serve`
 * reviews it — parsed from its text, listed, edited (delete, rename, merge) and written back —
 * with no file or socket here, so that every function can be fuzzed (tests/fuzz/fuzz_names_list.c).
 *
 * The lines, their name fields and their comment are read as annotate reads them
 * (common/dataset/names_file.h, names_text_lines): a line is an entity when it has a name field;
 * other lines (comments, blank lines) are kept as they are. Reading the comment is tolerant of
 * what annotate --discover writes there and of what it may add later: `mentions` is the number
 * of a first comment field "# N mentions…" (else unknown), each alias's rule is the word in
 * parentheses after it in "merged: ALIAS (rule), …" (else none), and the contexts are the
 * comment's further fields. The lines nobody edits are written back byte for byte (a CR
 * before a newline, a byte-order mark opening the file, no newline ending it, all kept); an
 * edited entity as its name fields joined by tabs, then its comment and a newline.
 *
 * Edits (a JSON list, applied in order; on a copy of the list, to keep all or none):
 *   {"op": "delete", "name": N}            the entity named N is dropped
 *   {"op": "rename", "name": N, "to": M}  M becomes the name and N an alias (its mentions in the
 *                                          text stay found); M an alias of N: the two swap
 *   {"op": "merge",  "name": N, "into": T} N and its aliases become aliases of T; N's line goes;
 *                                          T's mention count becomes the sum when both have one
 * Entities are named by their name exactly. Errors name the field: 400 malformed edits (not JSON,
 * unknown op or key, wrong type, a name with a tab, newline or NUL, starting with '#' or empty),
 * 422 a name that is no entity or a merge into itself, 409 a rename onto a name or alias another
 * entity has (compared as common/dataset/entitynames.h normalises names). */
#ifndef PROBEXPAN_SERVE_NAMES_LIST_H
#define PROBEXPAN_SERVE_NAMES_LIST_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define NAMES_LIST_MAX_NAME 512   /* bytes of a name an edit gives */
#define NAMES_LIST_MAX_EDITS 4096 /* edits in one request */

typedef struct {
    char *raw;      /* the line as read with its newline, if any, while unedited; NULL once edited */
    int nnames;     /* 0: not an entity (raw holds the line) */
    char **names;   /* [0] the name, then the aliases */
    char **norm;    /* their normalised forms */
    char *comment;  /* from the '#' of the first comment field to the end of the line, or NULL */
} names_line;

typedef struct {
    names_line *lines;
    int64_t n, cap;
    int64_t entities;
} names_list;

/* Parses text[0..len) (need not be NUL-terminated). 0, or -1 with err naming the line
 * ("line N: ...") for a NUL byte, invalid UTF-8 or a line over 1 MiB. */
int names_list_parse(const char *text, size_t len, names_list *out, char *err, size_t errlen);
void names_list_free(names_list *l);
/* A copy of l (through its text). */
void names_list_copy(const names_list *l, names_list *out);
/* The file's text (malloc'd, *len bytes, NUL-terminated). */
char *names_list_text(const names_list *l, size_t *len);

/* Entities matching q (the normalised q found in a normalised name or alias; NULL or "" =
 * all): their total, and from the offset-th match on at most limit of them, in file order,
 * as {"name", "aliases", "mentions" (null when unknown), "rules": [{"alias", "rule"}],
 * "note" (the first comment field without '#'), "contexts": [up to 2 strings]}. */
json_t *names_list_json(const names_list *l, const char *q, int64_t offset, int limit, int64_t *total);

/* Applies the edits of a JSON body {"edits": [...]} (len bytes) to l in order. 0 with *nedits
 * set, or a status (400, 409, 422) with err naming the edit and field: l then holds the edits
 * before the refused one (edit a names_list_copy and keep it only on 0). */
int names_list_edit_json(names_list *l, const char *body, size_t len, int *nedits, char *err, size_t errlen);

#endif
