/* catalog_read: the reports of a catalog (catalog.h writes it), as `probexpan catalog` prints
 * them on stdout: ls (artifacts, the newest record per path), runs (every run with status, time,
 * peak memory and metrics), show (one artifact, the run that made it, its inputs) and lineage
 * (the tree of inputs down to the raw files). An artifact is named by its path or its id; one
 * that is not recorded, or a file that is not a catalog, is exit 3 naming the catalog. */
#ifndef PROBEXPAN_CATALOG_READ_H
#define PROBEXPAN_CATALOG_READ_H

typedef struct catalog_reader catalog_reader;

/* Opens the catalog at path read-only. A catalog in WAL mode is read through a shared-memory
 * file PATH-shm that SQLite creates beside it; in a folder this user cannot write, the
 * database is opened as immutable instead when it has no pending write-ahead log (what every
 * finished run leaves), else the real cause is reported. */
catalog_reader *catalog_read_open(const char *path);
void catalog_read_close(catalog_reader *c);
void catalog_read_ls(catalog_reader *c);
void catalog_read_runs(catalog_reader *c);
void catalog_read_show(catalog_reader *c, const char *artifact);
void catalog_read_lineage(catalog_reader *c, const char *artifact);

#endif
