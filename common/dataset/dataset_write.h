/* dataset_write: a dataset folder (docs/design.md §2) written whole or not at all.
 *
 * The files are written into a temporary folder beside OUT (base/tempname: a later
 * run removes it if this one was killed) and, at the end, renamed into place as OUT
 * or packed as OUT when it ends in .tar.gz/.tgz (one top folder named after it). A
 * folder written here holds the marker file DATASET_MARKER; an existing OUT folder
 * is replaced only when it has the marker or is empty (or with force), and never
 * when it holds an input. Bad input shows up before the writer begins; its I/O
 * errors go through dataset_writer_fail(), which removes what was written first
 * (exit 1). */
#ifndef PROBEXPAN_DATASET_WRITE_H
#define PROBEXPAN_DATASET_WRITE_H

#include <stdio.h>

#define DATASET_MARKER ".probexpan-dataset"

/* Checks OUT before any work (exit 2): its folder exists, it is no input (base/paths),
 * and a folder OUT may be replaced (see above; `force` replaces any folder).
 * Returns OUT's parent folder (malloc'd). */
char *dataset_out_check(const char *out, int force);
/* OUT ends in .tar.gz or .tgz: packed as an archive. */
int dataset_out_is_archive(const char *out);

typedef struct dataset_writer dataset_writer;

/* Creates the temporary folder beside out. */
dataset_writer *dataset_writer_begin(const char *out);
/* A file or folder of the dataset, `rel` relative to its root ("gt/cities.txt"). */
FILE *dataset_writer_open(dataset_writer *w, const char *rel);
void dataset_writer_close(dataset_writer *w, FILE *f, const char *rel);
void dataset_writer_mkdir(dataset_writer *w, const char *rel);
/* Removes what was written, then dies (exit 1) with the message. */
void dataset_writer_fail(dataset_writer *w, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Renames the folder into place as out, or packs it as out (an archive); frees w. */
void dataset_writer_commit(dataset_writer *w);

#endif
