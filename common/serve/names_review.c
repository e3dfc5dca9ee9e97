/* names_review: the names file under review and its two routes (contract in names_review.h). */
#include "serve/names_review.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/fileio.h"
#include "base/log.h"
#include "serve/api.h"
#include "serve/names_list.h"

struct names_review {
    pthread_mutex_t lock;
    char *path;
    names_list list;
    struct stat seen; /* the file as last read or written: a change on disk is noticed */
    int held;         /* a rebuild reads the file: no edit */
};

/* Reads r->path into r->list: 0, or -1 with err. */
static int load(names_review *r, char *err, size_t errlen) {
    size_t len;
    struct stat st;
    if (stat(r->path, &st)) return snprintf(err, errlen, "%s", strerror(errno)), -1;
    char *text = fileio_read_all(r->path, &len);
    if (!text) return snprintf(err, errlen, "%s", strerror(errno)), -1;
    names_list l;
    int rc = names_list_parse(text, len, &l, err, errlen);
    free(text);
    if (rc) return -1;
    names_list_free(&r->list);
    r->list = l;
    r->seen = st;
    return 0;
}

names_review *names_review_open(const char *path) {
    names_review *r = xcalloc(1, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    r->path = xstrdup(path);
    char err[256];
    if (load(r, err, sizeof err)) {
        if (!strncmp(err, "line ", 5)) {
            char where[32];
            snprintf(where, sizeof where, "%.*s", (int)strcspn(err, ":"), err);
            die_input(path, where, "%s", err + strcspn(err, ":") + 2);
        }
        die_input(path, NULL, "cannot read the names file: %s", err);
    }
    return r;
}

void names_review_free(names_review *r) {
    if (!r) return;
    names_list_free(&r->list);
    pthread_mutex_destroy(&r->lock);
    free(r->path);
    free(r);
}

const char *names_review_path(const names_review *r) { return r->path; }

void names_review_hold(names_review *r, int held) {
    pthread_mutex_lock(&r->lock);
    r->held = held;
    pthread_mutex_unlock(&r->lock);
}

static int changed_on_disk(const names_review *r) {
    struct stat st;
    if (stat(r->path, &st)) return 1;
    return st.st_ino != r->seen.st_ino || st.st_size != r->seen.st_size || st.st_mtim.tv_sec != r->seen.st_mtim.tv_sec ||
           st.st_mtim.tv_nsec != r->seen.st_mtim.tv_nsec;
}

/* Keeps the current file as PATH.bak.N (its name into backup): 0, or -1 with errno set. */
static int keep_backup(const char *path, char *backup, size_t cap) {
    for (int k = 1; k < 100000; k++) {
        snprintf(backup, cap, "%s.bak.%d", path, k);
        if (!link(path, backup)) return 0;
        if (errno == EEXIST) continue;
        /* no hard links here: a copy, removed again unless it is written in full */
        if (!fileio_copy_new(path, backup)) return 0;
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Writes l to r->path atomically after a backup of the current file: 0, or -1 with err. */
static int save(names_review *r, const names_list *l, char *backup, size_t bcap, char *err, size_t errlen) {
    size_t len;
    char *text = names_list_text(l, &len), *tmp = xasprintf("%s.tmp-XXXXXX", r->path);
    int fd = mkostemp(tmp, O_CLOEXEC), rc = -1;
    const char *what = "create a temporary file beside it";
    if (fd >= 0) {
        what = "write it";
        if (!fileio_write_all(fd, text, len) && !fchmod(fd, r->seen.st_mode & 0777) && !fsync(fd)) {
            what = "keep a backup of it";
            if (!keep_backup(r->path, backup, bcap)) {
                what = "rename the new version into place";
                rc = rename(tmp, r->path);
            }
        }
        int e = errno;
        close(fd);
        if (rc) unlink(tmp);
        errno = e;
    }
    if (rc) snprintf(err, errlen, "cannot %s: %s", what, strerror(errno));
    else {
        char *copy = xstrdup(r->path);
        int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) fsync(dfd), close(dfd);
        free(copy);
        stat(r->path, &r->seen);
    }
    free(tmp);
    free(text);
    return rc;
}

static int no_names(const serve_ctx *c, api_response *out) {
    if (c->names) return 0;
    api_error(out, 404, "this server has no names file to review: start serve over a dataset made by annotate --discover "
                        "(its names.tsv), or give --names FILE");
    return 1;
}

void api_names(const serve_ctx *c, const query_param *p, int n, api_response *out) {
    static const char *const allowed[] = {"q", "offset", "limit", NULL};
    char err[REQUEST_ERR];
    int offset, limit, rc = request_params_check(p, n, allowed, err, sizeof err);
    if (!rc) rc = request_param_int(p, n, "offset", 0, 0, 1 << 30, &offset, err, sizeof err);
    if (!rc) rc = request_param_int(p, n, "limit", 50, 1, 1000, &limit, err, sizeof err);
    const char *q = request_param_get(p, n, "q");
    if (!rc && q && strlen(q) > REQUEST_MAX_NAME) rc = 400, snprintf(err, sizeof err, "q: longer than %d bytes", REQUEST_MAX_NAME);
    if (rc) { api_error(out, rc, err); return; }
    if (no_names(c, out)) return;
    names_review *r = c->names;
    int64_t total;
    pthread_mutex_lock(&r->lock);
    json_t *root = json_object();
    json_object_set_new(root, "file", json_string(r->path));
    json_object_set_new(root, "entities", json_integer(r->list.entities));
    json_object_set_new(root, "names", names_list_json(&r->list, q, offset, limit, &total));
    pthread_mutex_unlock(&r->lock);
    json_object_set_new(root, "q", json_string(q ? q : ""));
    json_object_set_new(root, "total", json_integer(total));
    json_object_set_new(root, "offset", json_integer(offset));
    api_respond_json(out, 200, root);
}

void api_names_edit(const serve_ctx *c, const char *body, size_t len, api_response *out) {
    if (no_names(c, out)) return;
    names_review *r = c->names;
    char err[REQUEST_ERR + 600], backup[4096];
    int nedits = 0, rc = 0;
    pthread_mutex_lock(&r->lock);
    if (r->held)
        rc = 409, snprintf(err, sizeof err, "a rebuild is running: edit the names when it is done");
    else if (changed_on_disk(r)) {
        char why[256];
        rc = 409;
        if (load(r, why, sizeof why))
            snprintf(err, sizeof err, "%s changed on disk and cannot be read again (%s): nothing saved", r->path, why);
        else snprintf(err, sizeof err, "%s changed on disk since it was read: nothing saved; it is read again, list it anew", r->path);
    }
    names_list edited = {0};
    if (!rc) { /* the edits on a copy; the list changes once the file is written */
        names_list_copy(&r->list, &edited);
        rc = names_list_edit_json(&edited, body, len, &nedits, err, sizeof err);
    }
    if (!rc && save(r, &edited, backup, sizeof backup, err, sizeof err)) {
        log_warn("names: %s: %s", r->path, err);
        rc = 500;
    }
    if (!rc) {
        names_list_free(&r->list);
        r->list = edited;
        log_info("names: %d edit(s) saved to %s (the previous version: %s)", nedits, r->path, backup);
        json_t *root = json_object();
        json_object_set_new(root, "saved", json_integer(nedits));
        json_object_set_new(root, "file", json_string(r->path));
        json_object_set_new(root, "backup", json_string(backup));
        json_object_set_new(root, "entities", json_integer(r->list.entities));
        api_respond_json(out, 200, root);
    } else {
        names_list_free(&edited);
        api_error(out, rc, err);
    }
    pthread_mutex_unlock(&r->lock);
}
