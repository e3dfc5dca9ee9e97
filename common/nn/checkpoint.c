/* checkpoint: HF-layout model directory writer and named-tensor loader. */
#include "nn/checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/fileio.h"
#include "base/outfile.h"
#include "base/paths.h"

/* Copies src to dst through an outfile; dies on failure. */
static void copy_file(const char *src, const char *dst) {
    int in = paths_open_input(src);
    if (in < 0) die_errno("cannot open %s", src);
    outfile *o = outfile_open(dst);
    if (fileio_copy_fd(in, fileno(outfile_stream(o)))) die_errno("cannot copy %s to %s", src, outfile_temp(o));
    close(in);
    outfile_commit(o);
}

void checkpoint_save(const char *dir, const bert_config *cfg, const char *vocab_path,
                     param_list *const *lists, int nlists, const safetensors_entry *extra,
                     int nextra) {
    if (mkdir(dir, 0777) && errno != EEXIST) die_errno("cannot create directory %s", dir);
    int n = nextra;
    for (int i = 0; i < nlists; i++) n += lists[i]->n;
    safetensors_entry *e = xcalloc((size_t)n + 1, sizeof *e);
    int k = 0;
    for (int i = 0; i < nlists; i++)
        for (int j = 0; j < lists[i]->n; j++) {
            const param_t *p = &lists[i]->p[j];
            e[k].name = p->name;
            e[k].dtype = ST_F32;
            e[k].ndim = p->ndim;
            e[k].shape[0] = p->shape[0];
            e[k].shape[1] = p->shape[1];
            e[k].data = p->data;
            k++;
        }
    for (int i = 0; i < nextra; i++) e[k++] = extra[i];
    char *path = xasprintf("%s/model.safetensors", dir);
    safetensors_write(path, e, n, NULL);
    free(path);
    free(e);
    path = xasprintf("%s/config.json", dir);
    bert_config_save(cfg, path);
    free(path);
    if (vocab_path) {
        path = xasprintf("%s/vocab.txt", dir);
        copy_file(vocab_path, path);
        free(path);
    }
}

int checkpoint_load_list(param_list *l, const safetensors *st, int required) {
    int found = 0;
    for (int i = 0; i < l->n; i++) {
        param_t *p = &l->p[i];
        const safetensors_tensor *t = safetensors_find(st, p->name);
        if (!t) {
            if (required) die_input(st->path, p->name, "missing tensor");
            continue;
        }
        safetensors_read_f32_shape(st, t, p->ndim, p->shape[0], p->shape[1], p->data);
        found++;
    }
    return found;
}
