/* fileio: whole-file reading, writing and copying that report failure to the caller (-1
 * with errno set) instead of dying, for code that must go on after an I/O error (the
 * server edits and copies files while it serves). A program that dies on failure writes
 * through outfile and may still copy with fileio_copy_fd.
 *
 * Every function retries reads and writes interrupted by a signal (EINTR) and writes
 * short counts in full. A copy is fsynced before it is reported done, and a copy that
 * fails is removed: no partial file is ever left under the destination's name. */
#ifndef PROBEXPAN_FILEIO_H
#define PROBEXPAN_FILEIO_H

#include <stddef.h>

/* The whole file into a malloc'd buffer (*len bytes, not terminated); NULL with errno. */
char *fileio_read_all(const char *path, size_t *len);
/* Writes all n bytes of p to fd: 0, or -1 with errno. */
int fileio_write_all(int fd, const void *p, size_t n);
/* Copies from the descriptor in, until its end, to out: 0, or -1 with errno. Neither is
 * closed or synced. */
int fileio_copy_fd(int in, int out);
/* Copies the file src to dst, a new file: dst is created exclusively (O_EXCL: -1 with
 * errno EEXIST when it exists already, whatever it is), with src's permission bits, and
 * synced. 0, or -1 with errno (ENOENT: no src); on failure dst does not exist. */
int fileio_copy_new(const char *src, const char *dst);
/* Copies the file src over dst: into a new file beside dst (named dst ".tmp-XXXXXX",
 * with src's permission bits), synced, then renamed over dst. 0, or -1 with errno; on
 * failure dst is as it was and the temporary file is gone. */
int fileio_copy_replace(const char *src, const char *dst);

#endif
