/* test_fileio: the copies hold the source's bytes and permission bits; a copy that cannot be
 * made (no source, a source that is no regular file, an existing destination for the
 * exclusive copy, a write that fails) reports errno and leaves no file under the destination's
 * name nor a temporary file beside it; the replacing copy leaves the old destination as it was
 * when it fails. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "base/fileio.h"
#include "check.h"

static char dir[] = "/tmp/probexpan-test-fileio-XXXXXX";

static char *path_in(const char *name) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_file(const char *path, const char *text, size_t len) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0 && !fileio_write_all(fd, text, len));
    if (fd >= 0) close(fd);
}

/* 1 when path holds exactly the len bytes of text. */
static int holds(const char *path, const char *text, size_t len) {
    size_t n;
    char *got = fileio_read_all(path, &n);
    int same = got && n == len && !memcmp(got, text, len);
    free(got);
    return same;
}

/* The number of entries of dir (not . and ..). */
static int entries(void) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

/* A file of 200,000 bytes (three reads of the copy's buffer), every byte value, NULs too. */
static char *big_text(size_t *len) {
    *len = 200000;
    char *t = malloc(*len);
    for (size_t i = 0; i < *len; i++) t[i] = (char)(i * 7 + i / 256);
    return t;
}

static void test_read_write_round_trip(void) {
    size_t len, n;
    char *text = big_text(&len);
    write_file(path_in("rw"), text, len);
    CHECK(holds(path_in("rw"), text, len));
    write_file(path_in("empty"), "", 0);
    char *got = fileio_read_all(path_in("empty"), &n);
    CHECK(got && n == 0);
    free(got);
    errno = 0;
    CHECK(!fileio_read_all(path_in("absent"), &n));
    CHECK_EQ_INT(errno, ENOENT);
    free(text);
    unlink(path_in("rw")), unlink(path_in("empty"));
}

static void test_copy_new(void) {
    size_t len;
    char *text = big_text(&len);
    write_file(path_in("src"), text, len);
    CHECK(!chmod(path_in("src"), 0640));
    CHECK_EQ_INT(fileio_copy_new(path_in("src"), path_in("dst")), 0);
    CHECK(holds(path_in("dst"), text, len));
    struct stat st;
    CHECK(!stat(path_in("dst"), &st) && (st.st_mode & 0777) == 0640);
    /* an empty source makes an empty copy */
    write_file(path_in("empty"), "", 0);
    CHECK_EQ_INT(fileio_copy_new(path_in("empty"), path_in("empty-copy")), 0);
    CHECK(holds(path_in("empty-copy"), "", 0));
    free(text);
    unlink(path_in("src")), unlink(path_in("dst")), unlink(path_in("empty")), unlink(path_in("empty-copy"));
    CHECK_EQ_INT(entries(), 0);
}

static void test_copy_new_existing_destination(void) {
    write_file(path_in("src"), "new\n", 4);
    write_file(path_in("dst"), "old\n", 4);
    errno = 0;
    CHECK_EQ_INT(fileio_copy_new(path_in("src"), path_in("dst")), -1);
    CHECK_EQ_INT(errno, EEXIST);
    CHECK(holds(path_in("dst"), "old\n", 4));
    /* a symlink, even a dangling one, is an existing name: never followed */
    CHECK(!symlink(path_in("nowhere"), path_in("link")));
    errno = 0;
    CHECK_EQ_INT(fileio_copy_new(path_in("src"), path_in("link")), -1);
    CHECK_EQ_INT(errno, EEXIST);
    CHECK(access(path_in("nowhere"), F_OK) && errno == ENOENT);
    unlink(path_in("src")), unlink(path_in("dst")), unlink(path_in("link"));
    CHECK_EQ_INT(entries(), 0);
}

static void test_copy_bad_source(void) {
    for (int replace = 0; replace < 2; replace++) {
        int (*copy)(const char *, const char *) = replace ? fileio_copy_replace : fileio_copy_new;
        errno = 0;
        CHECK_EQ_INT(copy(path_in("absent"), path_in("dst")), -1);
        CHECK_EQ_INT(errno, ENOENT);
        CHECK(!mkdir(path_in("folder"), 0755));
        errno = 0;
        CHECK_EQ_INT(copy(path_in("folder"), path_in("dst")), -1);
        CHECK_EQ_INT(errno, EISDIR);
        rmdir(path_in("folder"));
        /* a FIFO without a writer: refused at once, not waited on */
        CHECK(!mkfifo(path_in("fifo"), 0600));
        errno = 0;
        CHECK_EQ_INT(copy(path_in("fifo"), path_in("dst")), -1);
        CHECK_EQ_INT(errno, EINVAL);
        unlink(path_in("fifo"));
        CHECK_EQ_INT(entries(), 0);
    }
}

/* A write that fails part way (the file size limit, as on a full disk): the partial copy is
 * removed, and the replacing copy leaves the old destination whole. */
static void test_copy_write_fails(void) {
    size_t len;
    char *text = big_text(&len);
    write_file(path_in("src"), text, len);
    write_file(path_in("old"), "old\n", 4);
    struct rlimit was, small;
    CHECK(!getrlimit(RLIMIT_FSIZE, &was));
    small = was;
    small.rlim_cur = 4096;
    void (*handler)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(!setrlimit(RLIMIT_FSIZE, &small));
    errno = 0;
    int new_rc = fileio_copy_new(path_in("src"), path_in("dst")), new_errno = errno;
    errno = 0;
    int replace_rc = fileio_copy_replace(path_in("src"), path_in("old")), replace_errno = errno;
    CHECK(!setrlimit(RLIMIT_FSIZE, &was));
    signal(SIGXFSZ, handler);
    CHECK_EQ_INT(new_rc, -1);
    CHECK_EQ_INT(new_errno, EFBIG);
    CHECK(access(path_in("dst"), F_OK));
    CHECK_EQ_INT(replace_rc, -1);
    CHECK_EQ_INT(replace_errno, EFBIG);
    CHECK(holds(path_in("old"), "old\n", 4));
    free(text);
    unlink(path_in("src")), unlink(path_in("old"));
    CHECK_EQ_INT(entries(), 0);
}

static void test_copy_replace(void) {
    size_t len;
    char *text = big_text(&len);
    write_file(path_in("src"), text, len);
    CHECK(!chmod(path_in("src"), 0600));
    /* over an existing, longer file, and where there was none */
    char *longer = malloc(len + 100);
    memset(longer, 'x', len + 100);
    write_file(path_in("dst"), longer, len + 100);
    CHECK_EQ_INT(fileio_copy_replace(path_in("src"), path_in("dst")), 0);
    CHECK(holds(path_in("dst"), text, len));
    struct stat st;
    CHECK(!stat(path_in("dst"), &st) && (st.st_mode & 0777) == 0600);
    CHECK_EQ_INT(fileio_copy_replace(path_in("src"), path_in("fresh")), 0);
    CHECK(holds(path_in("fresh"), text, len));
    CHECK_EQ_INT(entries(), 3); /* no temporary file left beside them */
    /* into a folder that does not exist */
    errno = 0;
    CHECK_EQ_INT(fileio_copy_replace(path_in("src"), path_in("no-folder/dst")), -1);
    CHECK_EQ_INT(errno, ENOENT);
    free(text), free(longer);
    unlink(path_in("src")), unlink(path_in("dst")), unlink(path_in("fresh"));
    CHECK_EQ_INT(entries(), 0);
}

static void test_copy_fd_errors(void) {
    write_file(path_in("src"), "abc", 3);
    int in = open(path_in("src"), O_RDONLY), out = open(path_in("src"), O_RDONLY);
    errno = 0;
    CHECK_EQ_INT(fileio_copy_fd(in, out), -1); /* out is not open for writing */
    CHECK_EQ_INT(errno, EBADF);
    close(in), close(out);
    unlink(path_in("src"));
}

TEST_MAIN_BEGIN("test_fileio")
if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
RUN(test_read_write_round_trip);
RUN(test_copy_new);
RUN(test_copy_new_existing_destination);
RUN(test_copy_bad_source);
RUN(test_copy_write_fails);
RUN(test_copy_replace);
RUN(test_copy_fd_errors);
check_remove_dir(dir);
TEST_MAIN_END
