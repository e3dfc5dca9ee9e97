/* outfile: temp-file-then-rename output files, committed one at a time or together. */
#include "base/outfile.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "base/error.h"
#include "base/paths.h"
#include "base/tempname.h"

struct outfile {
    char *path, *tmp;
    FILE *f;
};

outfile *outfile_open(const char *path) {
    paths_check_target(path);
    outfile *o = xcalloc(1, sizeof *o);
    o->path = xstrdup(path);
    char *prefix = xasprintf("%s.tmp.", path);
    int fd;
    o->tmp = tempname_create_file(prefix, &fd);
    if (!o->tmp) die_errno("cannot create a temporary file %s*", prefix);
    free(prefix);
    if (fchmod(fd, 0644)) die_errno("cannot set the mode of %s", o->tmp);
    o->f = fdopen(fd, "wb");
    if (!o->f) die_errno("fdopen %s", o->tmp);
    setvbuf(o->f, NULL, _IOFBF, 1 << 20);
    return o;
}

FILE *outfile_stream(outfile *o) { return o->f; }
const char *outfile_temp(const outfile *o) { return o->tmp; }

void outfile_require_space(const outfile *o, uint64_t bytes) {
    char *copy = xstrdup(o->tmp);
    struct statvfs vfs;
    int ok = statvfs(dirname(copy), &vfs) == 0;
    free(copy);
    if (!ok) return; /* no figure to check against: the writes themselves will tell */
    uint64_t avail = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
    if (avail < bytes)
        die("%s needs %.1f MB of free space in its folder while it is written, only %.1f MB are available",
            o->path, (double)bytes / 1e6, (double)avail / 1e6);
}

static void complete(outfile *o) {
    if (fflush(o->f) || fsync(fileno(o->f))) die_errno("cannot write %s", o->tmp);
    int rc = fclose(o->f);
    o->f = NULL;
    if (rc) die_errno("cannot close %s", o->tmp);
}

static void rename_into_place(outfile *o) {
    if (rename(o->tmp, o->path)) die_errno("cannot rename %s to %s", o->tmp, o->path);
    tempfile_unregister(o->tmp);
    free(o->path);
    free(o->tmp);
    free(o);
}

void outfile_commit(outfile *o) { outfile_commit_all(&o, 1); }

void outfile_commit_all(outfile *const *o, int n) {
    for (int i = 0; i < n; i++) complete(o[i]);
    for (int i = 0; i < n; i++) rename_into_place(o[i]);
}
