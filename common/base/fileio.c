/* fileio: whole-file I/O that reports failure instead of dying (contract in fileio.h). */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

char *fileio_read_all(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t cap = 65536, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            free(buf), close(fd);
            errno = e;
            return NULL;
        }
        if (k == 0) break;
        if ((n += (size_t)k) == cap) buf = xrealloc(buf, cap *= 2);
    }
    close(fd);
    *len = n;
    return buf;
}

int fileio_write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

int fileio_copy_fd(int in, int out) {
    char buf[65536];
    for (;;) {
        ssize_t k = read(in, buf, sizeof buf);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) return 0;
        if (fileio_write_all(out, buf, (size_t)k)) return -1;
    }
}

/* Opens src for a copy: a regular file (a FIFO is opened without blocking and refused).
 * The descriptor with *st filled, or -1 with errno. */
static int open_source(const char *src, struct stat *st) {
    int in = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (in < 0) return -1;
    if (fstat(in, st)) {
        int e = errno;
        close(in);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(in);
        errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    return in;
}

/* Fills the new file `out`, named made, from in (permission bits from st), syncs and
 * closes both; on failure removes made. 0, or -1 with errno. */
static int fill(int in, const struct stat *st, int out, const char *made) {
    int rc = fchmod(out, st->st_mode & 0777) || fileio_copy_fd(in, out) || fsync(out) ? -1 : 0, e = errno;
    if (close(out) && !rc) rc = -1, e = errno;
    close(in);
    if (rc) unlink(made);
    errno = e;
    return rc;
}

int fileio_copy_new(const char *src, const char *dst) {
    struct stat st;
    int in = open_source(src, &st);
    if (in < 0) return -1;
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out >= 0) return fill(in, &st, out, dst);
    int e = errno;
    close(in);
    errno = e;
    return -1;
}

int fileio_copy_replace(const char *src, const char *dst) {
    struct stat st;
    int in = open_source(src, &st);
    if (in < 0) return -1;
    char *tmp = xasprintf("%s.tmp-XXXXXX", dst);
    int out = mkostemp(tmp, O_CLOEXEC), rc = -1, e = 0;
    if (out < 0) e = errno, close(in);
    else if ((rc = fill(in, &st, out, tmp))) e = errno;
    else if ((rc = rename(tmp, dst))) e = errno, unlink(tmp);
    free(tmp);
    if (rc) errno = e;
    return rc;
}
