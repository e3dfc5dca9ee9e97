/* dataset_write: a dataset folder written in a temporary folder, then renamed or packed
 * into place (dataset_write.h). */
#include "dataset/dataset_write.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/paths.h"
#include "base/tempname.h"
#include "text/text_source.h"

struct dataset_writer {
    char *out;
    char *tmp_dir, *tmp_archive;
};

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static char *parent_dir(const char *p) {
    char *c = xstrdup(p), *d = xstrdup(dirname(c));
    free(c);
    return d;
}

int dataset_out_is_archive(const char *p) {
    size_t n = strlen(p);
    return (n > 7 && strcmp(p + n - 7, ".tar.gz") == 0) || (n > 4 && strcmp(p + n - 4, ".tgz") == 0);
}

/* True when `dir` may be replaced: it is empty or a dataset writer wrote it (DATASET_MARKER). */
static int replaceable_folder(const char *dir) {
    char *marker = xasprintf("%s/" DATASET_MARKER, dir);
    struct stat st;
    int ours = lstat(marker, &st) == 0 && S_ISREG(st.st_mode);
    free(marker);
    if (ours) return 1;
    char **names;
    int64_t n = text_source_list_folder(dir, NULL, &names); /* visible entries */
    for (int64_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return n == 0;
}

char *dataset_out_check(const char *out, int force) {
    char *out_parent = parent_dir(out);
    if (!is_dir(out_parent)) die_usage("--out: folder %s does not exist", out_parent);
    if (dataset_out_is_archive(out)) paths_output(out, "--out");
    else paths_output_dir(out, "--out", 1);
    paths_check(); /* never an input, nor a folder holding one, nor a non-regular file */
    if (!dataset_out_is_archive(out) && is_dir(out) && !force && !replaceable_folder(out))
        die_usage("--out %s is a folder with files annotate did not write (no %s in it): choose another folder, "
                  "or pass --force to replace it", out, DATASET_MARKER);
    return out_parent;
}

dataset_writer *dataset_writer_begin(const char *out) {
    dataset_writer *w = xcalloc(1, sizeof *w);
    w->out = xstrdup(out);
    char *copy = xstrdup(out), *dir = parent_dir(out);
    char *prefix = xasprintf("%s/.%s.tmp-", dir, basename(copy));
    w->tmp_dir = tempname_create_dir(prefix);
    if (!w->tmp_dir) die_errno("cannot create a temporary folder in %s", dir);
    free(prefix);
    free(dir);
    free(copy);
    return w;
}

void dataset_writer_fail(dataset_writer *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    va_end(ap);
    if (w->tmp_dir) remove_tree(w->tmp_dir);
    if (w->tmp_archive) unlink(w->tmp_archive);
    die("%s", msg ? msg : "cannot write the output");
}

FILE *dataset_writer_open(dataset_writer *w, const char *rel) {
    char *p = xasprintf("%s/%s", w->tmp_dir, rel);
    FILE *f = fopen(p, "w");
    if (!f) dataset_writer_fail(w, "cannot create %s: %s", p, strerror(errno));
    free(p);
    return f;
}

void dataset_writer_close(dataset_writer *w, FILE *f, const char *rel) {
    if (ferror(f) | fclose(f)) dataset_writer_fail(w, "cannot write %s/%s: %s", w->tmp_dir, rel, strerror(errno));
}

void dataset_writer_mkdir(dataset_writer *w, const char *rel) {
    char *p = xasprintf("%s/%s", w->tmp_dir, rel);
    if (mkdir(p, 0777)) dataset_writer_fail(w, "cannot create %s: %s", p, strerror(errno));
    free(p);
}

/* ---------------- committing as an archive ---------------- */

static void add_file_to_archive(dataset_writer *w, struct archive *a, const char *top, const char *rel) {
    char *p = xasprintf("%s/%s", w->tmp_dir, rel);
    FILE *f = fopen(p, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st)) dataset_writer_fail(w, "cannot read %s: %s", p, strerror(errno));
    struct archive_entry *e = archive_entry_new();
    char *name = xasprintf("%s/%s", top, rel);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, st.st_size);
    archive_entry_set_mtime(e, st.st_mtime, 0);
    if (archive_write_header(a, e) != ARCHIVE_OK)
        dataset_writer_fail(w, "cannot write the archive: %s", archive_error_string(a));
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (archive_write_data(a, buf, got) < 0)
            dataset_writer_fail(w, "cannot write the archive: %s", archive_error_string(a));
    fclose(f);
    archive_entry_free(e);
    free(name);
    free(p);
}

static void add_folder_to_archive(dataset_writer *w, struct archive *a, const char *top, const char *sub) {
    char *p = xasprintf("%s/%s", w->tmp_dir, sub), **names;
    int64_t n = text_source_list_folder(p, NULL, &names); /* -1: not written (no classes) */
    free(p);
    for (int64_t i = 0; i < n; i++) {
        char *rel = xasprintf("%s/%s", sub, names[i]);
        add_file_to_archive(w, a, top, rel);
        free(rel);
        free(names[i]);
    }
    free(names);
}

/* Packs the temporary folder as out (.tar.gz, one top folder named after it): the
 * files of the dataset that were written, in this order, then gt/ and query/. */
static void commit_archive(dataset_writer *w) {
    static const char *const files[] = {"entity2id.txt", "sentences.json", "names.tsv", "aliases.txt"};
    char *copy = xstrdup(w->out), *top = xstrdup(basename(copy));
    size_t tl = strlen(top);
    top[tl - (strcmp(top + tl - 4, ".tgz") == 0 ? 4 : 7)] = 0;
    char *dir = parent_dir(w->out);
    char *prefix = xasprintf("%s/.%s.tmp-", dir, top);
    int fd;
    w->tmp_archive = tempname_create_file(prefix, &fd);
    if (!w->tmp_archive) dataset_writer_fail(w, "cannot create a temporary file in %s: %s", dir, strerror(errno));
    free(prefix);
    struct archive *a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    if (archive_write_open_fd(a, fd) != ARCHIVE_OK)
        dataset_writer_fail(w, "cannot write %s: %s", w->tmp_archive, archive_error_string(a));
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *p = xasprintf("%s/%s", w->tmp_dir, files[i]);
        if (access(p, F_OK) == 0) add_file_to_archive(w, a, top, files[i]);
        free(p);
    }
    add_folder_to_archive(w, a, top, "gt");
    add_folder_to_archive(w, a, top, "query");
    if (archive_write_close(a) != ARCHIVE_OK)
        dataset_writer_fail(w, "cannot write %s: %s", w->tmp_archive, archive_error_string(a));
    archive_write_free(a);
    if (fchmod(fd, 0644) || fsync(fd) || close(fd))
        dataset_writer_fail(w, "cannot write %s: %s", w->tmp_archive, strerror(errno));
    if (rename(w->tmp_archive, w->out))
        dataset_writer_fail(w, "cannot rename %s to %s: %s", w->tmp_archive, w->out, strerror(errno));
    tempfile_unregister(w->tmp_archive);
    free(w->tmp_archive);
    w->tmp_archive = NULL;
    remove_tree(w->tmp_dir);
    free(copy);
    free(top);
    free(dir);
}

/* Marks the temporary folder as a dataset writer's, then renames it to out (an
 * existing folder is replaced; dataset_out_check checked that it may be). */
static void commit_folder(dataset_writer *w) {
    dataset_writer_close(w, dataset_writer_open(w, DATASET_MARKER), DATASET_MARKER);
    struct stat st;
    char *old = NULL;
    if (lstat(w->out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) dataset_writer_fail(w, "--out %s exists and is not a folder", w->out);
        old = xasprintf("%s.old", w->tmp_dir);
        if (rename(w->out, old)) dataset_writer_fail(w, "cannot move the old %s aside: %s", w->out, strerror(errno));
    }
    if (chmod(w->tmp_dir, 0755) || rename(w->tmp_dir, w->out)) {
        int err = errno;
        if (old && rename(old, w->out)) log_warn("the previous %s is left at %s", w->out, old);
        dataset_writer_fail(w, "cannot rename %s to %s: %s", w->tmp_dir, w->out, strerror(err));
    }
    if (old) remove_tree(old);
    free(old);
}

void dataset_writer_commit(dataset_writer *w) {
    if (dataset_out_is_archive(w->out)) commit_archive(w);
    else commit_folder(w);
    tempfile_unregister(w->tmp_dir);
    free(w->tmp_dir);
    free(w->out);
    free(w);
}
