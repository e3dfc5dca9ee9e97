/* serve: an HTTP server for steering an expansion — the JSON API of docs/api.md and the web
 * page of web/ — over one run folder. Loads the run once (the corpus index and the query
 * engine's phase-1 models; the samples, for the text of the features behind a similarity;
 * names, aliases, mention counts and example sentences from the dataset), then answers many
 * queries, each with the whole method for its own seed set (common/engine/engine.h), until
 * SIGINT/SIGTERM. Loopback only unless --bind says otherwise. */
#include <libgen.h>
#include <limits.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifacts/corpus.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/log.h"
#include "format/artifact.h"
#include "serve/api.h"
#include "engine/engine.h"
#include "serve/engine_expander.h"
#include "serve/http.h"
#include "serve/lexicon.h"
#include "serve/names_review.h"
#include "serve/rebuild.h"
#include "serve/ties.h"
#include "model/feature_text.h"

/* The dataset the run's corpus was tokenized from (its `dataset` param). */
static char *dataset_of_run(const char *run_dir) {
    char *dataset = corpus_dataset_of_run(run_dir);
    if (!dataset) {
        char *corpus = xasprintf("%s/corpus.mp", run_dir);
        die_input(corpus, NULL, "missing: is %s a run folder? (give --data otherwise)", run_dir);
    }
    return dataset;
}

/* The folder of this program (malloc'd). */
static char *program_dir(void) {
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0) die_errno("cannot find my own location");
    self[n] = 0;
    return xstrdup(dirname(self));
}

/* The first of DIR/candidates[i]/file that can be read (DIR: this program's folder), as
 * DIR/candidates[i] (malloc'd), or NULL. */
static char *find_beside_program(const char *const *candidates, int n, const char *file) {
    char *dir = program_dir(), *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        char *folder = xasprintf("%s/%s", dir, candidates[i]), *path = xasprintf("%s/%s", folder, file);
        if (access(path, R_OK) == 0) found = folder;
        else free(folder);
        free(path);
    }
    free(dir);
    return found;
}

/* The web page's folder: web/ of the build tree (bin/serve -> ../web), else
 * PREFIX/share/probexpan/web beside an installed PREFIX/bin/probexpan-serve. */
static char *find_web_dir(void) {
    static const char *const candidates[] = {"../web", "../share/probexpan/web"};
    char *web = find_beside_program(candidates, 2, "index.html");
    if (!web) die("cannot find the web page (web/index.html beside bin/, or share/probexpan/web): give --web DIR");
    return web;
}

/* The names file to review: --names, else DATASET/names.tsv when the dataset is a folder that
 * has one (annotate --discover wrote it); NULL when there is none. */
static char *names_file_of(const char *names, const char *dataset) {
    if (names) return xstrdup(names);
    char *path = xasprintf("%s/names.tsv", dataset);
    if (access(path, R_OK) == 0) return path;
    free(path);
    return NULL;
}

/* The rebuilds from the names file: the programs of this build tree and its pipeline. */
static rebuild *rebuild_of(names_review *review, const char *dataset, const char *run) {
    static const char *const candidates[] = {"../pipelines"};
    char *pipelines = find_beside_program(candidates, 1, "probexpan.mk"), *bin = program_dir();
    char *pipeline = pipelines ? xasprintf("%s/probexpan.mk", pipelines) : NULL;
    rebuild_paths p = {names_review_path(review), dataset, run, bin, pipeline};
    rebuild *b = rebuild_new(&p, review);
    free(pipelines), free(pipeline), free(bin);
    return b;
}

int main(int argc, char **argv) {
    const char *run = NULL, *data = NULL, *names = NULL, *bind = "127.0.0.1", *web = NULL;
    int port = 8080, row_cache_mb = 128, max_connections = 128, request_deadline = 10, turn_wait = 30, budget = 30;
    const cli_option opts[] = {
        {"run", OPT_INPUT, &run, "DIR", "run folder of the pipeline: its index.mp (make ... index), samples.mp and corpus.mp", 0, 0},
        {"data", OPT_INPUT, &data, "DATASET", "dataset folder or archive (default: the one the run's corpus.mp was made from)", 0, 0},
        {"names", OPT_INPUT, &names, "FILE", "names file to review in the page and rebuild from (default: the dataset's names.tsv, written by annotate --discover, when it has one)", 0, 0},
        {"bind", OPT_STRING, &bind, "ADDR", "address to listen on (IPv4 or IPv6); other than loopback exposes the server", 0, 0},
        {"port", OPT_INT, &port, "N", "TCP port; 0 = any free port (the URL is printed)", 0, 65535},
        {"web", OPT_INPUT, &web, "DIR", "folder of the web page's files (default: found beside the program)", 0, 0},
        {"max-connections", OPT_INT, &max_connections, "N", "connections served at once; one more makes room by closing the slowest request still arriving (408), or is refused (503)", 1, 4096},
        {"request-deadline", OPT_INT, &request_deadline, "S", "seconds a request's head and body may take to arrive (then 408)", 1, 3600},
        {"queue-wait", OPT_INT, &turn_wait, "S", "seconds an expansion may wait for one of the --threads turns (then 503)", 1, 3600},
        {"expansion-budget", OPT_INT, &budget, "S", "seconds an expansion may run once it has its turn: then it is stopped (503)", 1, 3600},
        {"row-cache", OPT_INT, &row_cache_mb, "MB", "keep the models' unrefined rows across requests, up to MB megabytes (0: off)", 0, 65536},
        {NULL, 0, NULL, NULL, NULL, 0, 0},
    };
    const cli_spec spec = {"serve", "serve the JSON API and the web page for steering expansions of one run",
                           "--run DIR [--bind ADDR] [--port N] [options]",
                           "serve --run runs/example --port 8080   # then open http://127.0.0.1:8080/",
                           "expand, docs/api.md", opts, 0};
    cli_parse(&spec, argc, argv);
    if (!run) die_usage("--run is required");
    if (!http_address_ok(bind)) die_usage("--bind: expected an IPv4 or IPv6 address, found '%s'", bind);
    json_object_seed(0); /* before any thread builds a JSON object */

    char *web_dir = web ? xstrdup(web) : find_web_dir();
    char *dataset = data ? xstrdup(data) : dataset_of_run(run);
    char *index = xasprintf("%s/index.mp", run);
    if (access(index, R_OK) != 0) die_input(index, NULL, "missing: build it with make -f pipelines/probexpan.mk DATA=... RUN=%s index", run);
    log_info("loading %s and the sentences of %s", index, dataset);
    engine_config ec = engine_config_defaults();
    ec.row_cache_bytes = (size_t)row_cache_mb << 20;
    engine *g = engine_open(index, &ec);
    char *samples_path = xasprintf("%s/samples.mp", run);
    if (access(samples_path, R_OK) != 0) die_input(samples_path, NULL, "missing: the samples %s was built from are needed", index);
    feature_text *text = feature_text_open(engine_index(g), samples_path);
    ties *t = ties_open(g, text);
    lexicon *lex = lexicon_load(&engine_index(g)->ent, dataset);
    /* one expansion per thread of --threads at a time (elapsed_ms includes the wait) */
    class_cache classes = CLASS_CACHE_INIT;
    char *names_path = names_file_of(names, dataset);
    names_review *review = names_path ? names_review_open(names_path) : NULL;
    rebuild *rebuilds = review ? rebuild_of(review, dataset, run) : NULL;
    if (names_path) log_info("names to review: %s", names_path);
    serve_ctx ctx = {lex, engine_expander(g), t, http_expansion_begin, http_expansion_end, engine_index(g), engine_genus_heads(g), text, &classes,
                     review, rebuilds};
    http_options o = {bind, port, web_dir, max_connections, request_deadline * 1000, cli_num_threads(), turn_wait * 1000,
                      budget * 1000};
    int rc = http_serve(&ctx, &o);
    rebuild_free(rebuilds);
    names_review_free(review);
    free(names_path);
    lexicon_free(lex);
    class_cache_free(&classes);
    ties_free(t);
    feature_text_close(text);
    engine_free(g);
    free(samples_path);
    free(index);
    free(dataset);
    free(web_dir);
    return rc;
}
