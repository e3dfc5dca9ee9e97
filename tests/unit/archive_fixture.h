/* archive_fixture.h: test helper — copy one file into an archive being written
 * with libarchive (so tests build .tar.gz/.zip datasets without external tools). */
#ifndef PROBEXPAN_ARCHIVE_FIXTURE_H
#define PROBEXPAN_ARCHIVE_FIXTURE_H

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>

/* Adds file `path` as member `name`; returns 0 when the file cannot be read. */
static inline int archive_add_file(struct archive *a, const char *path, const char *name) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t cap = 1 << 16, n = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += r) == cap) buf = realloc(buf, cap *= 2);
    fclose(f);
    if (!buf) return 0;
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, name);
    archive_entry_set_size(e, (la_int64_t)n);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, buf, n);
    archive_entry_free(e);
    free(buf);
    return 1;
}

#endif
