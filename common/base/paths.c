/* paths: declared inputs and outputs, the checks that keep outputs away from inputs,
 * the catalog and non-regular files, and non-blocking opening of input files. */
#include "base/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

typedef enum { ROLE_INPUT, ROLE_OUTPUT, ROLE_OUTPUT_DIR } path_role;

typedef struct {
    char *path, *what, *resolved;
    path_role role;
    int replaced;    /* an output folder replaced as a whole */
    int exists;      /* stat() (links followed) succeeded */
    struct stat st;
} declared_path;

static declared_path *declared;
static int ndeclared;

/* The absolute path with links resolved; for a path that does not exist yet, its
 * resolved folder + its name (the path as given when the folder does not exist). */
static char *resolve(const char *path) {
    char *real = realpath(path, NULL);
    if (real) return real;
    char *d = xstrdup(path), *b = xstrdup(path);
    char *folder = realpath(dirname(d), NULL), *name = basename(b);
    char *out = folder ? xasprintf("%s/%s", strcmp(folder, "/") ? folder : "", name) : xstrdup(path);
    free(folder);
    free(d);
    free(b);
    return out;
}

static void describe(const char *path, const char *what, path_role role, declared_path *p) {
    *p = (declared_path){xstrdup(path), xstrdup(what), resolve(path), role, 0, 0, {0}};
    p->exists = stat(path, &p->st) == 0;
}

static declared_path *declare(const char *path, const char *what, path_role role) {
    if (!path) return NULL;
    if (role != ROLE_INPUT && !*path) die_usage("%s: empty output path", what);
    if (role == ROLE_INPUT && (!*path || !strcmp(path, "-"))) return NULL;
    declared = xrealloc(declared, sizeof *declared * (size_t)(ndeclared + 1));
    describe(path, what, role, &declared[ndeclared]);
    return &declared[ndeclared++];
}

void paths_input(const char *path, const char *what) { declare(path, what, ROLE_INPUT); }
void paths_output(const char *path, const char *what) { declare(path, what, ROLE_OUTPUT); }
void paths_output_dir(const char *path, const char *what, int replaced) {
    declared_path *p = declare(path, what, ROLE_OUTPUT_DIR);
    if (p) p->replaced = replaced;
}

static int same_path(const declared_path *a, const declared_path *b) {
    if (a->exists && b->exists) return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
    return strcmp(a->resolved, b->resolved) == 0;
}

/* True when `inner` lies below the folder `outer` (both resolved). */
static int inside(const char *inner, const char *outer) {
    size_t n = strlen(outer);
    if (n == 1 && outer[0] == '/') return inner[0] == '/' && inner[1];
    return strncmp(inner, outer, n) == 0 && inner[n] == '/';
}

static const char *node_kind(mode_t m) {
    return S_ISLNK(m) ? "a symbolic link" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a folder" : "not a regular file";
}

static int is_input_folder(const declared_path *p) {
    return p->role == ROLE_INPUT && p->exists && S_ISDIR(p->st.st_mode);
}

/* The rules between one output `o` and the declared inputs. */
static void check_against_inputs(const declared_path *o) {
    for (int i = 0; i < ndeclared; i++) {
        const declared_path *in = &declared[i];
        if (in->role != ROLE_INPUT) continue;
        if (same_path(o, in))
            die_usage("%s %s is the same %s as %s %s: an output never replaces an input", o->what, o->path,
                      in->exists && S_ISDIR(in->st.st_mode) ? "folder" : "file", in->what, in->path);
        if (is_input_folder(in) && inside(o->resolved, in->resolved))
            die_usage("%s %s lies inside the input folder %s (%s): outputs are never written into an input",
                      o->what, o->path, in->path, in->what);
        if (o->replaced && inside(in->resolved, o->resolved))
            die_usage("%s %s holds the input %s (%s): choose an output folder outside the inputs", o->what,
                      o->path, in->path, in->what);
    }
}

/* An existing target must be what the writer replaces: a regular file (output) or a folder. */
static void check_target_node(const declared_path *o) {
    struct stat l;
    if (lstat(o->path, &l) != 0) return;
    if (o->role == ROLE_OUTPUT && !S_ISREG(l.st_mode))
        die_usage("%s %s is %s: outputs are written to a new file renamed over the target, which would "
                  "replace it; give the path of a regular file", o->what, o->path, node_kind(l.st_mode));
    if (o->role == ROLE_OUTPUT_DIR && !(o->exists && S_ISDIR(o->st.st_mode)))
        die_usage("%s %s exists and is %s, not a folder", o->what, o->path, node_kind(l.st_mode));
}

void paths_check(void) {
    for (int i = 0; i < ndeclared; i++) {
        const declared_path *p = &declared[i];
        if (p->role == ROLE_INPUT) {
            if (p->exists && !S_ISREG(p->st.st_mode) && !S_ISDIR(p->st.st_mode))
                die_input(p->path, NULL, "%s is %s, not a regular file or folder", p->what, node_kind(p->st.st_mode));
            continue;
        }
        check_target_node(p);
        check_against_inputs(p);
        for (int j = 0; j < i; j++)
            if (declared[j].role != ROLE_INPUT && same_path(p, &declared[j]))
                die_usage("%s %s and %s %s are the same path: each output needs its own", declared[j].what,
                          declared[j].path, p->what, p->path);
    }
}

void paths_check_catalog(const char *db_path) {
    declared_path c;
    describe(db_path, "the catalog", ROLE_OUTPUT, &c);
    for (int i = 0; i < ndeclared; i++)
        if (same_path(&c, &declared[i]))
            die_usage("%s %s is also the catalog %s: the catalog is written by every run (choose another "
                      "path, or another catalog with --catalog)", declared[i].what, declared[i].path, db_path);
    free(c.path);
    free(c.what);
    free(c.resolved);
}

void paths_check_target(const char *path) {
    declared_path o;
    describe(path, "output", ROLE_OUTPUT, &o);
    if (!*path) die_usage("empty output path");
    check_target_node(&o);
    check_against_inputs(&o);
    free(o.path);
    free(o.what);
    free(o.resolved);
}

int paths_open_input(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) die_input(path, NULL, "cannot stat: %s", strerror(errno));
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        die_input(path, NULL, "%s, expected a regular file", node_kind(st.st_mode));
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) die_input(path, NULL, "fcntl: %s", strerror(errno));
    return fd;
}

FILE *paths_fopen_input(const char *path) {
    int fd = paths_open_input(path);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) die_errno("fdopen %s", path);
    return f;
}
