/* rebuild: the background rebuild of a dataset and run from a reviewed names file (contract in
 * rebuild.h). */
#include "serve/rebuild.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/fileio.h"
#include "base/log.h"
#include "dataset/dataset.h"
#include "serve/api.h"
#include "serve/names_review.h"

extern char **environ;

typedef enum { REBUILD_IDLE, REBUILD_RUNNING, REBUILD_DONE, REBUILD_FAILED } rebuild_state;
static const char *const state_names[] = {"idle", "running", "done", "failed"};
static const char *const stage_names[] = {"text", "annotate", "tokenize", "samples", "index"};
#define NSTAGES 5

struct rebuild {
    char *names, *dataset, *run, *bin_dir, *pipeline; /* rebuild_paths, copied */
    names_review *review;
    pthread_mutex_t lock;
    rebuild_state state;
    int stage;         /* index into stage_names */
    char *new_dataset, *new_run, *log, *text;
    char error[1024];
    pid_t child;       /* the running child's process group, or 0 */
    int stopping;
    pthread_t thread;
    int started;       /* thread to join */
    struct timespec t0, t1;
};

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

rebuild *rebuild_new(const rebuild_paths *p, names_review *review) {
    rebuild *b = xcalloc(1, sizeof *b);
    b->review = review;
    b->names = xstrdup(p->names), b->dataset = xstrdup(p->dataset), b->run = xstrdup(p->run);
    b->bin_dir = xstrdup(p->bin_dir), b->pipeline = dup_or_null(p->pipeline);
    pthread_mutex_init(&b->lock, NULL);
    return b;
}

static void set_stage(rebuild *b, int stage) {
    pthread_mutex_lock(&b->lock);
    b->stage = stage;
    pthread_mutex_unlock(&b->lock);
}

/* The rebuild failed: the message, then (when the log has one) the log's last line. */
static void failed(rebuild *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failed(rebuild *b, const char *fmt, ...) {
    char msg[512], last[508] = ""; /* both, and ": ", fit b->error */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    FILE *f = b->log ? fopen(b->log, "r") : NULL;
    for (char line[512]; f && fgets(line, sizeof line, f);)
        if (line[strspn(line, " \t\r\n")]) snprintf(last, sizeof last, "%.*s", (int)strcspn(line, "\r\n"), line);
    if (f) fclose(f);
    pthread_mutex_lock(&b->lock);
    snprintf(b->error, sizeof b->error, "%s%s%s", msg, last[0] ? ": " : "", last);
    b->state = REBUILD_FAILED;
    pthread_mutex_unlock(&b->lock);
    log_warn("rebuild: %s", b->error);
}

/* ---- text: the loaded dataset's sentences, one a line as ID<TAB>tokens ---- */

static void sentence_line(void *ctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member, (void)where, (void)lineno;
    FILE *out = ctx;
    json_t *s = json_loadb(line, len, 0, NULL), *tokens = json_object_get(s, "tokens");
    const char *id = json_string_value(json_object_get(s, "articleId"));
    if (json_is_array(tokens) && json_array_size(tokens)) {
        for (const char *c = id ? id : "-"; *c; c++) fputc(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c, out);
        for (size_t i = 0; i < json_array_size(tokens); i++) {
            const char *t = json_string_value(json_array_get(tokens, i));
            fprintf(out, "%s%s", i ? " " : "\t", t ? t : "");
        }
        fputc('\n', out);
    }
    json_decref(s);
}

/* ---- child processes ---- */

/* Runs argv (own process group, output appended to the log) until it ends; while it runs,
 * on_poll (may be NULL) is called every 200 ms. 0 when it exits 0. */
static int run_child(rebuild *b, char *const argv[], void (*on_poll)(rebuild *)) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, b->log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_init(&at);
    posix_spawnattr_setpgroup(&at, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none); /* the server blocks SIGINT/SIGTERM; the child must not */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    pthread_mutex_lock(&b->lock);
    int rc = b->stopping ? ECANCELED : posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    if (!rc) b->child = pid;
    pthread_mutex_unlock(&b->lock);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc) {
        failed(b, "cannot run %s: %s", argv[0], strerror(rc));
        return -1;
    }
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { status = -1; break; }
        if (on_poll) on_poll(b);
        usleep(200000);
    }
    pthread_mutex_lock(&b->lock);
    b->child = 0;
    pthread_mutex_unlock(&b->lock);
    if (status == 0) return 0;
    if (status != -1 && WIFEXITED(status)) failed(b, "%s exited with status %d", argv[0], WEXITSTATUS(status));
    else failed(b, "%s ended by signal %d", argv[0], status != -1 && WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return -1;
}

/* The stage of the pipeline from the files it has made so far. */
static void poll_pipeline(rebuild *b) {
    static const char *const made[] = {"corpus.mp", "samples.mp"};
    int stage = 2;
    for (int i = 0; i < 2; i++) {
        char *f = xasprintf("%s/%s", b->new_run, made[i]);
        if (access(f, F_OK) == 0) stage = 3 + i;
        free(f);
    }
    set_stage(b, stage);
}

/* The value of KEY in the run's params-GROUP.txt (KEY=value lines), malloc'd, or NULL. */
static char *run_param(const char *run, const char *group, const char *key) {
    char *path = xasprintf("%s/params-%s.txt", run, group), *value = NULL, line[4096];
    FILE *f = fopen(path, "r");
    size_t k = strlen(key);
    while (f && !value && fgets(line, sizeof line, f))
        if (!strncmp(line, key, k) && line[k] == '=') {
            value = xstrdup(line + k + 1);
            value[strcspn(value, "\r\n")] = 0;
        }
    if (f) fclose(f);
    free(path);
    return value;
}

/* The stage text: the loaded dataset's sentences into b->text. 0, or -1 (failed). */
static int write_text(rebuild *b) {
    FILE *text = fopen(b->text, "w");
    if (text) dataset_read_lines(b->dataset, "sentences.json", sentence_line, text);
    if (text && !fclose(text)) return 0;
    failed(b, "cannot write %s: %s", b->text, strerror(errno));
    return -1;
}

/* The stage annotate: the new dataset from the names file, which it then holds a copy of. */
static int annotate_names(rebuild *b) {
    set_stage(b, 1);
    char *annotate = xasprintf("%s/annotate", b->bin_dir);
    char *const annotate_argv[] = {annotate, "--entities", b->names, "--format", "lines", "--ids", "--out", b->new_dataset, b->text, NULL};
    int rc = run_child(b, annotate_argv, NULL);
    free(annotate);
    char *names_copy = xasprintf("%s/names.tsv", b->new_dataset);
    if (!rc && fileio_copy_replace(b->names, names_copy)) rc = -1, failed(b, "cannot copy %s to %s: %s", b->names, names_copy, strerror(errno));
    free(names_copy);
    return rc;
}

/* The stages tokenize, samples, index: the pipeline's index target for the new run, with the
 * loaded run's parameters. */
static int index_run(rebuild *b) {
    set_stage(b, 2);
    char *model = run_param(b->run, "text", "MODEL"), *vocab = run_param(b->run, "text", "VOCAB_SIZE");
    char *pieces = run_param(b->run, "samples", "MAX_WORDPIECES"), *flags = run_param(b->run, "index", "FLAGS");
    char *argv[16], *owned[8];
    int n = 0, k = 0;
    argv[n++] = "make";
    argv[n++] = "--no-print-directory";
    argv[n++] = "-f";
    argv[n++] = b->pipeline;
    argv[n++] = owned[k++] = xasprintf("BIN=%s", b->bin_dir);
    argv[n++] = owned[k++] = xasprintf("DATA=%s", b->new_dataset);
    argv[n++] = owned[k++] = xasprintf("RUN=%s", b->new_run);
    argv[n++] = "THREADS=1";
    if (model && model[0]) argv[n++] = owned[k++] = xasprintf("MODEL=%s", model);
    if (vocab && vocab[0]) argv[n++] = owned[k++] = xasprintf("VOCAB_SIZE=%s", vocab);
    if (pieces && pieces[0]) argv[n++] = owned[k++] = xasprintf("MAX_WORDPIECES=%s", pieces);
    if (flags && flags[0]) argv[n++] = owned[k++] = xasprintf("INDEX_FLAGS=%s", flags);
    argv[n++] = "index";
    argv[n] = NULL;
    int rc = run_child(b, argv, poll_pipeline);
    while (k) free(owned[--k]);
    free(model), free(vocab), free(pieces), free(flags);
    return rc;
}

static void *rebuild_thread(void *arg) {
    rebuild *b = arg;
    log_info("rebuild: %s and %s from %s (log: %s)", b->new_dataset, b->new_run, b->names, b->log);
    int rc = write_text(b);
    if (!rc) rc = annotate_names(b);
    unlink(b->text);
    if (!rc) rc = index_run(b);
    pthread_mutex_lock(&b->lock);
    if (!rc) {
        b->state = REBUILD_DONE;
        b->stage = NSTAGES - 1;
        log_info("rebuild: done: serve the new run with: probexpan serve --run %s", b->new_run);
    }
    clock_gettime(CLOCK_MONOTONIC, &b->t1);
    pthread_mutex_unlock(&b->lock);
    names_review_hold(b->review, 0);
    return NULL;
}

void rebuild_free(rebuild *b) {
    if (!b) return;
    pthread_mutex_lock(&b->lock);
    b->stopping = 1;
    if (b->child > 0) kill(-b->child, SIGTERM);
    pthread_mutex_unlock(&b->lock);
    if (b->started) pthread_join(b->thread, NULL);
    free(b->new_dataset), free(b->new_run), free(b->log), free(b->text);
    free(b->names), free(b->dataset), free(b->run), free(b->bin_dir), free(b->pipeline);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

/* PATH without trailing slashes, archive suffix and ".N" (malloc'd). */
static char *path_stem(const char *path) {
    char *s = xstrdup(path);
    size_t n = strlen(s);
    while (n > 1 && s[n - 1] == '/') s[--n] = 0;
    static const char *const suffixes[] = {".tar.gz", ".tgz"};
    for (int i = 0; i < 2; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && !strcmp(s + n - k, suffixes[i])) s[n -= k] = 0;
    }
    size_t d = n;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9') d--;
    if (d < n && d > 1 && s[d - 1] == '.' && s[d - 2] != '/') s[d - 1] = 0;
    return s;
}

static int exists(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}

static json_t *status_json(rebuild *b) {
    json_t *root = json_object(), *stages = json_array();
    for (int i = 0; i < NSTAGES; i++) json_array_append_new(stages, json_string(stage_names[i]));
    json_object_set_new(root, "state", json_string(state_names[b->state]));
    json_object_set_new(root, "stages", stages);
    int idle = b->state == REBUILD_IDLE;
    json_object_set_new(root, "stage", idle ? json_null() : json_string(stage_names[b->stage]));
    double fraction = b->state == REBUILD_DONE ? 1 : idle ? 0 : (double)b->stage / NSTAGES;
    json_object_set_new(root, "fraction", json_real(fraction));
    json_object_set_new(root, "dataset", b->new_dataset ? json_string(b->new_dataset) : json_null());
    json_object_set_new(root, "run", b->new_run ? json_string(b->new_run) : json_null());
    json_object_set_new(root, "log", b->log ? json_string(b->log) : json_null());
    json_object_set_new(root, "error", b->state == REBUILD_FAILED ? json_string(b->error) : json_null());
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const struct timespec *end = b->state == REBUILD_RUNNING ? &now : &b->t1;
    json_object_set_new(root, "elapsed_s", idle ? json_null() : json_real((double)(end->tv_sec - b->t0.tv_sec) + 1e-9 * (double)(end->tv_nsec - b->t0.tv_nsec)));
    char *restart = b->state == REBUILD_DONE ? xasprintf("probexpan serve --run %s", b->new_run) : NULL;
    json_object_set_new(root, "restart", restart ? json_string(restart) : json_null());
    free(restart);
    json_object_set_new(root, "names", json_string(b->names));
    return root;
}

static int no_rebuild(const serve_ctx *c, api_response *out) {
    if (!c->rebuild) {
        api_error(out, 404, "this server has no names file to rebuild from: start serve over a dataset made by annotate "
                            "--discover (its names.tsv), or give --names FILE");
        return 1;
    }
    return 0;
}

void api_rebuild_status(const serve_ctx *c, const query_param *p, int n, api_response *out) {
    static const char *const allowed[] = {NULL};
    char err[REQUEST_ERR];
    int rc = request_params_check(p, n, allowed, err, sizeof err);
    if (rc) { api_error(out, rc, err); return; }
    if (no_rebuild(c, out)) return;
    pthread_mutex_lock(&c->rebuild->lock);
    json_t *root = status_json(c->rebuild);
    pthread_mutex_unlock(&c->rebuild->lock);
    api_respond_json(out, 200, root);
}

void api_rebuild_start(const serve_ctx *c, const char *body, size_t len, api_response *out) {
    json_error_t je;
    json_t *v = len ? json_loadb(body, len, 0, &je) : json_object();
    int ok = json_is_object(v) && json_object_size(v) == 0;
    json_decref(v);
    if (!ok) { api_error(out, 400, "the body must be empty or {} (a rebuild takes no parameters)"); return; }
    if (no_rebuild(c, out)) return;
    rebuild *b = c->rebuild;
    if (!b->pipeline) {
        api_error(out, 409, "cannot rebuild: pipelines/probexpan.mk was not found beside the programs (a build tree is needed)");
        return;
    }
    pthread_mutex_lock(&b->lock);
    if (b->state == REBUILD_RUNNING) {
        pthread_mutex_unlock(&b->lock);
        api_error(out, 409, "a rebuild is already running: GET /api/rebuild says how far it is");
        return;
    }
    if (b->started) pthread_join(b->thread, NULL); /* the previous one, ended */
    char *data = path_stem(b->dataset), *run = path_stem(b->run);
    for (int k = 2;; k++) {
        free(b->new_dataset), free(b->new_run), free(b->log), free(b->text);
        b->new_dataset = xasprintf("%s.%d", data, k);
        b->new_run = xasprintf("%s.%d", run, k);
        b->log = xasprintf("%s.log", b->new_run);
        b->text = xasprintf("%s.text", b->new_run);
        if (!exists(b->new_dataset) && !exists(b->new_run) && !exists(b->log) && !exists(b->text)) break;
    }
    free(data), free(run);
    names_review_hold(b->review, 1); /* after an edit being saved; none lands until the rebuild ends */
    b->state = REBUILD_RUNNING;
    b->stage = 0;
    b->error[0] = 0;
    clock_gettime(CLOCK_MONOTONIC, &b->t0);
    int rc = pthread_create(&b->thread, NULL, rebuild_thread, b);
    b->started = rc == 0;
    if (rc) {
        b->state = REBUILD_FAILED;
        snprintf(b->error, sizeof b->error, "cannot start a thread: %s", strerror(rc));
        names_review_hold(b->review, 0);
    }
    json_t *root = status_json(b);
    pthread_mutex_unlock(&b->lock);
    api_respond_json(out, rc ? 500 : 202, root);
}
