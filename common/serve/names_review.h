/* names_review: the names file (names.tsv) of the discovered dataset `serve` was started over,
 * held in memory for review (common/serve/names_list.h) and written back on each accepted edit:
 * atomically (a temporary file beside it, fsync, rename, fsync of the folder) after the previous
 * version is kept as NAMES.bak.N (N = 1, 2, …: the first free number; a hard link, or a copy
 * where links fail). Edits are refused (409) while a rebuild holds the file, and when it was changed
 * on disk since it was read (then it is read again, so the next list shows what is there now).
 *
 *   GET  /api/names?q=&offset=0&limit=50   the entities of the file (api_names)
 *   POST /api/names/edit  {"edits": [...]} delete, rename, merge (api_names_edit)
 *
 * Thread-safe: one mutex guards the list and the file. */
#ifndef PROBEXPAN_SERVE_NAMES_REVIEW_H
#define PROBEXPAN_SERVE_NAMES_REVIEW_H

typedef struct names_review names_review;

/* Reads the names file at path; bad input (a NUL byte, invalid UTF-8, a line over 1 MiB) dies
 * with exit 3 naming the file and line. */
names_review *names_review_open(const char *path);
void names_review_free(names_review *r);
const char *names_review_path(const names_review *r);
/* While held (a rebuild reads the file), edits are refused with 409. Holding waits for an edit
 * being saved, so a rebuild started after it reads it. */
void names_review_hold(names_review *r, int held);

#endif
