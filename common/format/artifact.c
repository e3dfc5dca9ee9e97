/* artifact: writer (temp file + fsync + rename, streaming sha256) and mmap reader
 * (bounds-checked msgpack walk, header checks, typed getters, row matrices). */
#include "format/artifact.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cli.h"
#include "base/error.h"
#include "base/outfile.h"
#include "base/paths.h"
#include "base/sha256.h"

#define ROW_ALIGN 64
#define BIN32_HEADER 5

/* Checksum trailer (schemas/header.md): the last TRAILER_SIZE bytes of a file are the
 * map {content_sha256: str8 of 64 hex digits, content_bytes: uint64} covering every
 * byte before it. Fixed size and layout, so a reader finds it without parsing. */
#define TRAILER_SIZE 105
#define TRAILER_HEX_AT 18   /* offset of the 64 hex digits */
#define TRAILER_BYTES_AT 97 /* offset of the big-endian uint64 */

/* The trailer's bytes with the hex digits and the length left zero. */
static void trailer_template(uint8_t t[TRAILER_SIZE]) {
    memset(t, 0, TRAILER_SIZE);
    t[0] = 0x82;
    t[1] = 0xa0 | 14;
    memcpy(t + 2, "content_sha256", 14);
    t[16] = 0xd9;
    t[17] = 64;
    t[82] = 0xa0 | 13;
    memcpy(t + 83, "content_bytes", 13);
    t[96] = 0xcf;
}

/* ======================= writing ======================= */

struct artifact_writer {
    char *path, *kind;
    int schema;
    outfile *out;
    FILE *f;
    sha256_ctx sha;
    uint64_t bytes;
    msgpack_packer pk;
    msgpack_sbuffer params;
    msgpack_packer params_pk;
    int nparams;
    int ninputs;
    char **input_path, **input_kind, **input_sha;
    int header_written;
    int64_t matrix_rows, matrix_rows_left, matrix_cols;
    size_t matrix_stride;
    char matrix_name[64];
    char created[32];
};

static int write_cb(void *data, const char *buf, size_t len) {
    artifact_writer *w = data;
    if (len && fwrite(buf, 1, len, w->f) != len) die_errno("%s: write failed", outfile_temp(w->out));
    sha256_update(&w->sha, buf, len);
    w->bytes += len;
    return 0;
}

static void iso8601_now(char out[32]) {
    const char *epoch = getenv("SOURCE_DATE_EPOCH"); /* reproducible builds convention */
    time_t t = epoch && *epoch ? (time_t)strtoll(epoch, NULL, 10) : time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

artifact_writer *artifact_create(const char *path, const char *kind, int schema) {
    artifact_writer *w = xcalloc(1, sizeof *w);
    w->path = xstrdup(path);
    w->kind = xstrdup(kind);
    w->schema = schema;
    w->out = outfile_open(path);
    w->f = outfile_stream(w->out);
    sha256_init(&w->sha);
    msgpack_packer_init(&w->pk, w, write_cb);
    msgpack_sbuffer_init(&w->params);
    msgpack_packer_init(&w->params_pk, &w->params, msgpack_sbuffer_write);
    iso8601_now(w->created);
    return w;
}

void mp_str(msgpack_packer *pk, const char *s) {
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}
void mp_kv_str(msgpack_packer *pk, const char *k, const char *v) { mp_str(pk, k); mp_str(pk, v); }
void mp_kv_int(msgpack_packer *pk, const char *k, int64_t v) { mp_str(pk, k); msgpack_pack_int64(pk, v); }
void mp_kv_double(msgpack_packer *pk, const char *k, double v) { mp_str(pk, k); msgpack_pack_double(pk, v); }
void mp_kv_bin(msgpack_packer *pk, const char *k, const void *data, size_t bytes) {
    mp_str(pk, k);
    msgpack_pack_bin(pk, bytes);
    msgpack_pack_bin_body(pk, data, bytes);
}
void mp_kv_i64_array(msgpack_packer *pk, const char *k, const int64_t *v, int64_t n) {
    mp_str(pk, k);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) msgpack_pack_int64(pk, v[i]);
}
void mp_kv_int_array(msgpack_packer *pk, const char *k, const int *v, int64_t n) {
    mp_str(pk, k);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) msgpack_pack_int(pk, v[i]);
}
void mp_kv_double_array(msgpack_packer *pk, const char *k, const double *v, int64_t n) {
    mp_str(pk, k);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) msgpack_pack_double(pk, v[i]);
}
void mp_kv_str_array(msgpack_packer *pk, const char *k, char *const *v, int64_t n) {
    mp_str(pk, k);
    msgpack_pack_array(pk, (size_t)n);
    for (int64_t i = 0; i < n; i++) mp_str(pk, v[i]);
}

static void check_params_open(artifact_writer *w) {
    if (w->header_written) die("internal: artifact %s: params added after the header", w->path);
    w->nparams++;
}
void artifact_param_int(artifact_writer *w, const char *key, int64_t v) {
    check_params_open(w);
    mp_kv_int(&w->params_pk, key, v);
}
void artifact_param_double(artifact_writer *w, const char *key, double v) {
    check_params_open(w);
    mp_kv_double(&w->params_pk, key, v);
}
void artifact_param_str(artifact_writer *w, const char *key, const char *v) {
    check_params_open(w);
    mp_kv_str(&w->params_pk, key, v ? v : "");
}

static void param_option(void *ctx, const cli_value *v) {
    artifact_writer *w = ctx;
    switch (v->type) {
    case OPT_FLAG: case OPT_INT: case OPT_LONG: artifact_param_int(w, v->key, v->i); break;
    case OPT_DOUBLE: artifact_param_double(w, v->key, v->d); break;
    case OPT_STRING: case OPT_INPUT: case OPT_OUTPUT: case OPT_OUTPUT_DIR: artifact_param_str(w, v->key, v->s); break;
    case OPT_LIST:
        check_params_open(w);
        mp_str(&w->params_pk, v->key);
        msgpack_pack_array(&w->params_pk, (size_t)v->list->n);
        for (int i = 0; i < v->list->n; i++) mp_str(&w->params_pk, v->list->v[i]);
        break;
    }
}
void artifact_param_options(artifact_writer *w) { cli_each_value(param_option, w); }

/* Kind of an input: the artifact kind, "dir" or "file". */
static char *peek_kind(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return xstrdup("dir");
    FILE *f = paths_fopen_input(path);
    if (!f) return xstrdup("file");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    size_t off = 0;
    char *kind = NULL;
    if (n && msgpack_unpack_next(&u, buf, n, &off) == MSGPACK_UNPACK_SUCCESS &&
        u.data.type == MSGPACK_OBJECT_MAP) {
        const msgpack_object_map *m = &u.data.via.map;
        int is_artifact = 0;
        for (uint32_t i = 0; i < m->size; i++) {
            const msgpack_object *k = &m->ptr[i].key, *v = &m->ptr[i].val;
            if (k->type != MSGPACK_OBJECT_STR || v->type != MSGPACK_OBJECT_STR) continue;
            if (k->via.str.size == 6 && !memcmp(k->via.str.ptr, "format", 6))
                is_artifact = v->via.str.size == 9 && !memcmp(v->via.str.ptr, "probexpan", 9);
            if (k->via.str.size == 4 && !memcmp(k->via.str.ptr, "kind", 4) && !kind)
                kind = strndup(v->via.str.ptr, v->via.str.size);
        }
        if (!is_artifact) { free(kind); kind = NULL; }
    }
    msgpack_unpacked_destroy(&u);
    return kind ? kind : xstrdup("file");
}

/* sha256 of a directory: names and contents of its regular files, sorted. */
static void dir_sha256_hex(const char *path, char out[65]) {
    struct dirent **list;
    int n = scandir(path, &list, NULL, alphasort);
    if (n < 0) die_errno("cannot read directory %s", path);
    sha256_ctx c;
    sha256_init(&c);
    for (int i = 0; i < n; i++) {
        char *full = xasprintf("%s/%s", path, list[i]->d_name);
        struct stat st;
        if (list[i]->d_name[0] != '.' && stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            char h[65];
            file_sha256_hex(full, h);
            sha256_update(&c, list[i]->d_name, strlen(list[i]->d_name) + 1);
            sha256_update(&c, h, 64);
        }
        free(full);
        free(list[i]);
    }
    free(list);
    sha256_final_hex(&c, out);
}

void file_sha256_hex(const char *path, char out[65]) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { dir_sha256_hex(path, out); return; }
    FILE *f = paths_fopen_input(path);
    if (!f) die_errno("cannot open %s", path);
    sha256_ctx c;
    sha256_init(&c);
    size_t cap = 1 << 20, n;
    char *buf = xmalloc(cap);
    while ((n = fread(buf, 1, cap, f)) > 0) sha256_update(&c, buf, n);
    if (ferror(f)) die_errno("cannot read %s", path);
    fclose(f);
    free(buf);
    sha256_final_hex(&c, out);
}

static const artifact_hooks *hooks;
void artifact_set_hooks(const artifact_hooks *h) { hooks = h; }

void input_sha256_hex(const char *path, char out[65]) {
    if (!hooks || !hooks->known_sha256(path, out)) file_sha256_hex(path, out);
}

void artifact_add_input(artifact_writer *w, const char *path) {
    if (w->header_written) die("internal: artifact %s: input added after the header", w->path);
    char sha[65];
    input_sha256_hex(path, sha);
    w->input_path = xrealloc(w->input_path, sizeof(char *) * (size_t)(w->ninputs + 1));
    w->input_kind = xrealloc(w->input_kind, sizeof(char *) * (size_t)(w->ninputs + 1));
    w->input_sha = xrealloc(w->input_sha, sizeof(char *) * (size_t)(w->ninputs + 1));
    w->input_path[w->ninputs] = xstrdup(path);
    w->input_kind[w->ninputs] = peek_kind(path);
    w->input_sha[w->ninputs] = xstrdup(sha);
    w->ninputs++;
}

static void write_header(artifact_writer *w) {
    if (w->header_written) return;
    w->header_written = 1;
    msgpack_packer *pk = &w->pk;
    msgpack_pack_map(pk, 7);
    mp_kv_str(pk, "format", "probexpan");
    mp_kv_str(pk, "kind", w->kind);
    mp_kv_int(pk, "schema", w->schema);
    mp_str(pk, "producer");
    msgpack_pack_map(pk, 2);
    mp_kv_str(pk, "name", pe_progname);
    mp_kv_str(pk, "version", PROBEXPAN_VERSION);
    mp_kv_str(pk, "created", w->created);
    mp_str(pk, "params");
    msgpack_pack_map(pk, (size_t)w->nparams);
    write_cb(w, w->params.data, w->params.size);
    mp_str(pk, "inputs");
    msgpack_pack_array(pk, (size_t)w->ninputs);
    for (int i = 0; i < w->ninputs; i++) {
        msgpack_pack_map(pk, 3);
        mp_kv_str(pk, "path", w->input_path[i]);
        mp_kv_str(pk, "kind", w->input_kind[i]);
        mp_kv_str(pk, "sha256", w->input_sha[i]);
    }
}

msgpack_packer *artifact_payload(artifact_writer *w) {
    if (w->matrix_rows_left) die("internal: artifact %s: object written inside a row matrix", w->path);
    write_header(w);
    return &w->pk;
}

uint64_t artifact_bytes(const artifact_writer *w) { return w->bytes; }
const char *artifact_writer_path(const artifact_writer *w) { return w->path; }

static void write_bin32_header(artifact_writer *w, uint32_t len) {
    unsigned char h[BIN32_HEADER] = {0xc6, (unsigned char)(len >> 24), (unsigned char)(len >> 16),
                                     (unsigned char)(len >> 8), (unsigned char)len};
    write_cb(w, (const char *)h, BIN32_HEADER);
}

void artifact_matrix_begin(artifact_writer *w, const char *name, int64_t rows, int64_t cols) {
    msgpack_packer *pk = artifact_payload(w);
    if (rows < 0 || cols < 0) die("internal: negative matrix shape");
    size_t stride = ((size_t)cols * 4 + BIN32_HEADER + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    if (stride - BIN32_HEADER > UINT32_MAX) die("matrix %s: rows of %lld floats are too long", name, (long long)cols);
    msgpack_pack_map(pk, 5);
    mp_kv_str(pk, "matrix", name);
    mp_kv_int(pk, "rows", rows);
    mp_kv_int(pk, "cols", cols);
    mp_kv_str(pk, "dtype", "f32");
    mp_kv_int(pk, "stride", (int64_t)stride);
    /* pad so that the first row's data (after its 5-byte bin32 header) is aligned */
    size_t pad = (size_t)((ROW_ALIGN - (w->bytes + 2 * BIN32_HEADER) % ROW_ALIGN) % ROW_ALIGN);
    static const char zeros[ROW_ALIGN];
    write_bin32_header(w, (uint32_t)pad);
    write_cb(w, zeros, pad);
    w->matrix_rows = w->matrix_rows_left = rows;
    w->matrix_cols = cols;
    snprintf(w->matrix_name, sizeof w->matrix_name, "%s", name);
    w->matrix_stride = stride;
}

void artifact_matrix_row(artifact_writer *w, const float *row) {
    static const char zeros[ROW_ALIGN];
    if (w->matrix_rows_left <= 0) die("internal: artifact %s: more matrix rows than declared", w->path);
    for (int64_t j = 0; j < w->matrix_cols; j++)
        if (!isfinite(row[j]))
            die("refusing to write %s: matrix '%s' row %lld column %lld is %g (the values computed are not finite)",
                w->path, w->matrix_name, (long long)(w->matrix_rows - w->matrix_rows_left), (long long)j,
                (double)row[j]);
    size_t data = (size_t)w->matrix_cols * 4;
    write_bin32_header(w, (uint32_t)(w->matrix_stride - BIN32_HEADER));
    write_cb(w, (const char *)row, data);
    write_cb(w, zeros, w->matrix_stride - BIN32_HEADER - data);
    w->matrix_rows_left--;
}

uint64_t artifact_matrix_size(int64_t rows, int64_t cols) {
    uint64_t stride = ((uint64_t)cols * 4 + BIN32_HEADER + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    return (uint64_t)rows * stride + 2 * ROW_ALIGN; /* + descriptor and pad, roughly */
}

void artifact_require_space(const artifact_writer *w, uint64_t bytes) { outfile_require_space(w->out, bytes); }

/* Appends the checksum trailer: sha256 of everything written so far and its length. */
static void write_trailer(artifact_writer *w) {
    uint8_t trailer[TRAILER_SIZE];
    trailer_template(trailer);
    sha256_ctx content = w->sha;
    char hex[65];
    sha256_final_hex(&content, hex);
    memcpy(trailer + TRAILER_HEX_AT, hex, 64);
    for (int i = 0; i < 8; i++) trailer[TRAILER_BYTES_AT + i] = (uint8_t)(w->bytes >> (56 - 8 * i));
    write_cb(w, (const char *)trailer, TRAILER_SIZE);
}

/* After the files are in place: the output reported (artifact_hooks), then the writer's memory. */
static void record_and_free(artifact_writer *w) {
    if (hooks) {
        char sha[65];
        sha256_final_hex(&w->sha, sha);
        char *real = realpath(w->path, NULL);
        hooks->output(real ? real : w->path, w->kind, w->schema, (unsigned long long)w->bytes, sha, w->created,
                      w->ninputs, w->input_path, w->input_sha);
        free(real);
    }
    for (int i = 0; i < w->ninputs; i++) {
        free(w->input_path[i]);
        free(w->input_kind[i]);
        free(w->input_sha[i]);
    }
    free(w->input_path);
    free(w->input_kind);
    free(w->input_sha);
    msgpack_sbuffer_destroy(&w->params);
    free(w->path);
    free(w->kind);
    free(w);
}

void artifact_commit_all(artifact_writer *const *w, int n) {
    outfile **out = xmalloc(sizeof *out * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        if (w[i]->matrix_rows_left)
            die("internal: artifact %s: %lld matrix rows missing", w[i]->path, (long long)w[i]->matrix_rows_left);
        write_header(w[i]);
        write_trailer(w[i]);
        out[i] = w[i]->out;
    }
    outfile_commit_all(out, n);
    free(out);
    for (int i = 0; i < n; i++) record_and_free(w[i]);
}

void artifact_commit(artifact_writer *w) { artifact_commit_all(&w, 1); }

/* ======================= reading ======================= */

struct artifact_reader {
    char *path;
    const uint8_t *base;
    size_t size;
    size_t off; /* next object */
    size_t cur; /* start of the object last returned (for messages) */
    int has_trailer; /* size excludes the checksum trailer */
    char content_sha256[65];
    msgpack_unpacked hdr_unp, unp;
    artifact_header hdr;
};

void artifact_bad(artifact_reader *r, const char *fmt, ...) {
    char where[48], msg[512];
    snprintf(where, sizeof where, "byte %zu", r->cur);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    die_input(r->path, where, "%s", msg);
}

static uint64_t be(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* Walks one msgpack object at `off` without allocating; returns its end offset.
 * Dies with the offending offset on truncation or an invalid type byte. */
static size_t skip_object(artifact_reader *r, size_t off) {
    const uint8_t *p = r->base;
    size_t n = r->size;
    uint64_t pending = 1;
    while (pending > 0) {
        if (off >= n) { r->cur = off; artifact_bad(r, "truncated: file ends inside a msgpack object"); }
        uint8_t t = p[off];
        size_t head = 1;
        uint64_t body = 0, children = 0;
        int lenbytes = 0;
        pending--;
        if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3) {
        } else if (t >= 0x80 && t <= 0x8f) children = 2 * (uint64_t)(t & 0x0f);
        else if (t >= 0x90 && t <= 0x9f) children = t & 0x0f;
        else if (t >= 0xa0 && t <= 0xbf) body = t & 0x1f;
        else switch (t) {
            case 0xc4: case 0xd9: lenbytes = 1; break;
            case 0xc5: case 0xda: lenbytes = 2; break;
            case 0xc6: case 0xdb: lenbytes = 4; break;
            case 0xc7: lenbytes = 1; head = 2; break; /* ext: +1 type byte */
            case 0xc8: lenbytes = 2; head = 2; break;
            case 0xc9: lenbytes = 4; head = 2; break;
            case 0xca: body = 4; break;
            case 0xcb: body = 8; break;
            case 0xcc: case 0xd0: body = 1; break;
            case 0xcd: case 0xd1: body = 2; break;
            case 0xce: case 0xd2: body = 4; break;
            case 0xcf: case 0xd3: body = 8; break;
            case 0xd4: body = 2; break;
            case 0xd5: body = 3; break;
            case 0xd6: body = 5; break;
            case 0xd7: body = 9; break;
            case 0xd8: body = 17; break;
            case 0xdc: case 0xdd: case 0xde: case 0xdf: {
                int lb = (t == 0xdc || t == 0xde) ? 2 : 4;
                if (n - off < 1 + (size_t)lb) { r->cur = off; artifact_bad(r, "truncated: file ends inside a msgpack header"); }
                uint64_t cnt = be(p + off + 1, lb);
                children = (t >= 0xde) ? 2 * cnt : cnt;
                head = 1 + (size_t)lb;
                break;
            }
            default: r->cur = off; artifact_bad(r, "invalid msgpack type byte 0x%02x", t);
            }
        if (lenbytes) {
            if (n - off < 1 + (size_t)lenbytes + (head - 1)) { r->cur = off; artifact_bad(r, "truncated: file ends inside a msgpack header"); }
            body = be(p + off + 1, lenbytes);
            head += (size_t)lenbytes;
        }
        if (n - off < head || n - off - head < body) { r->cur = off; artifact_bad(r, "truncated: object of %llu bytes runs past the end of the file (%zu bytes)", (unsigned long long)body, n); }
        if (children > n - off - head) { r->cur = off; artifact_bad(r, "truncated: container claims %llu elements, more than the rest of the file can hold", (unsigned long long)children); }
        pending += children;
        off += head + body;
    }
    return off;
}

static void unpack_at(artifact_reader *r, msgpack_unpacked *u, size_t *off) {
    r->cur = *off;
    size_t end = skip_object(r, *off), pos = *off;
    msgpack_unpacked_destroy(u);
    msgpack_unpacked_init(u);
    if (msgpack_unpack_next(u, (const char *)r->base, end, &pos) != MSGPACK_UNPACK_SUCCESS || pos != end)
        artifact_bad(r, "undecodable msgpack object (nesting too deep?)");
    *off = end;
}

static int key_is(const msgpack_object *k, const char *s) {
    size_t n = strlen(s);
    return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n && memcmp(k->via.str.ptr, s, n) == 0;
}

const msgpack_object *mp_get(artifact_reader *r, const msgpack_object *map, const char *key, int required) {
    if (map->type != MSGPACK_OBJECT_MAP) artifact_bad(r, "expected a map with field '%s'", key);
    for (uint32_t i = 0; i < map->via.map.size; i++)
        if (key_is(&map->via.map.ptr[i].key, key)) return &map->via.map.ptr[i].val;
    if (required) artifact_bad(r, "missing field '%s'", key);
    return NULL;
}

int64_t mp_as_int(artifact_reader *r, const msgpack_object *o, const char *what) {
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= INT64_MAX) return (int64_t)o->via.u64;
    if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) return o->via.i64;
    artifact_bad(r, "'%s': expected an integer", what);
}

double mp_as_double(artifact_reader *r, const msgpack_object *o, const char *what) {
    if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64) return o->via.f64;
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER || o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return (double)mp_as_int(r, o, what);
    artifact_bad(r, "'%s': expected a number", what);
}

int64_t mp_get_int(artifact_reader *r, const msgpack_object *map, const char *key) {
    return mp_as_int(r, mp_get(r, map, key, 1), key);
}
double mp_get_double(artifact_reader *r, const msgpack_object *map, const char *key) {
    return mp_as_double(r, mp_get(r, map, key, 1), key);
}
char *mp_as_str(artifact_reader *r, const msgpack_object *o, const char *what) {
    if (o->type != MSGPACK_OBJECT_STR) artifact_bad(r, "'%s': expected a string", what);
    char *s = xmalloc(o->via.str.size + 1);
    memcpy(s, o->via.str.ptr, o->via.str.size);
    s[o->via.str.size] = '\0';
    return s;
}
char *mp_get_str(artifact_reader *r, const msgpack_object *map, const char *key) {
    return mp_as_str(r, mp_get(r, map, key, 1), key);
}

void mp_get_sha256(artifact_reader *r, const msgpack_object *map, const char *key, char out[65]) {
    char *sha = mp_get_str(r, map, key);
    if (strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64)
        artifact_bad(r, "%s: expected 64 lowercase hex digits", key);
    memcpy(out, sha, 65);
    free(sha);
}
const msgpack_object *mp_get_array(artifact_reader *r, const msgpack_object *map, const char *key) {
    const msgpack_object *o = mp_get(r, map, key, 1);
    if (o->type != MSGPACK_OBJECT_ARRAY) artifact_bad(r, "'%s': expected an array", key);
    return o;
}

/* Detects the checksum trailer; when present, the payload ends where it starts. */
static void find_trailer(artifact_reader *r) {
    if (r->size <= TRAILER_SIZE) return;
    const uint8_t *t = r->base + r->size - TRAILER_SIZE;
    uint8_t want[TRAILER_SIZE];
    trailer_template(want);
    if (memcmp(t, want, TRAILER_HEX_AT) || memcmp(t + TRAILER_HEX_AT + 64, want + TRAILER_HEX_AT + 64, 15)) return;
    if (be(t + TRAILER_BYTES_AT, 8) != r->size - TRAILER_SIZE) return;
    r->has_trailer = 1;
    r->size -= TRAILER_SIZE;
    memcpy(r->content_sha256, t + TRAILER_HEX_AT, 64);
    r->content_sha256[64] = 0;
}

int artifact_verify(artifact_reader *r) {
    if (!r->has_trailer) return 0;
    sha256_ctx c;
    sha256_init(&c);
    for (size_t off = 0; off < r->size; off += 1 << 24) {
        size_t n = r->size - off < (size_t)1 << 24 ? r->size - off : (size_t)1 << 24;
        sha256_update(&c, r->base + off, n);
    }
    char hex[65];
    sha256_final_hex(&c, hex);
    if (strcmp(hex, r->content_sha256)) {
        r->cur = r->size;
        artifact_bad(r, "checksum mismatch: the content hashes to sha256 %.16s..., the trailer records %.16s... "
                        "(the file was changed or damaged after it was written)", hex, r->content_sha256);
    }
    return 1;
}

/* Array field `key` with exactly `want` items when want >= 0; *n = its length. */
static const msgpack_object *array_of(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want,
                                      int64_t *n) {
    const msgpack_object *a = mp_get_array(r, map, key);
    if (want >= 0 && (int64_t)a->via.array.size != want)
        artifact_bad(r, "field '%s' has %u items, expected %lld", key, a->via.array.size, (long long)want);
    *n = a->via.array.size;
    return a;
}
int64_t *mp_get_i64_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n) {
    const msgpack_object *a = array_of(r, map, key, want, n);
    int64_t *v = xmalloc(sizeof *v * (size_t)(*n + 1));
    for (int64_t i = 0; i < *n; i++) v[i] = mp_as_int(r, &a->via.array.ptr[i], key);
    return v;
}
int *mp_get_int_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n) {
    const msgpack_object *a = array_of(r, map, key, want, n);
    int *v = xmalloc(sizeof *v * (size_t)(*n + 1));
    for (int64_t i = 0; i < *n; i++) v[i] = (int)mp_as_int(r, &a->via.array.ptr[i], key);
    return v;
}
double *mp_get_double_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n) {
    const msgpack_object *a = array_of(r, map, key, want, n);
    double *v = xmalloc(sizeof *v * (size_t)(*n + 1));
    for (int64_t i = 0; i < *n; i++) v[i] = mp_as_double(r, &a->via.array.ptr[i], key);
    return v;
}
char **mp_get_str_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n) {
    const msgpack_object *a = array_of(r, map, key, want, n);
    char **v = xmalloc(sizeof *v * (size_t)(*n + 1));
    for (int64_t i = 0; i < *n; i++) {
        const msgpack_object *s = &a->via.array.ptr[i];
        if (s->type != MSGPACK_OBJECT_STR) artifact_bad(r, "field '%s': item %lld is not a string", key, (long long)i);
        v[i] = xasprintf("%.*s", (int)s->via.str.size, s->via.str.ptr);
    }
    return v;
}

artifact_reader *artifact_open(const char *path, const char *kind, int max_schema) {
    artifact_reader *r = xcalloc(1, sizeof *r);
    r->path = xstrdup(path);
    int fd = paths_open_input(path);
    if (fd < 0) die_input(path, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st)) die_input(path, NULL, "cannot stat: %s", strerror(errno));
    if (st.st_size == 0) die_input(path, "byte 0", "empty file, expected a ProbExpan artifact header");
    r->size = (size_t)st.st_size;
    void *m = mmap(NULL, r->size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) die_errno("cannot map %s (%zu bytes) into memory (address space limit?)", path, r->size);
    r->base = m;
    find_trailer(r);
    msgpack_unpacked_init(&r->hdr_unp);
    msgpack_unpacked_init(&r->unp);
    if (r->base[0] < 0x80 || (r->base[0] > 0x8f && r->base[0] != 0xde && r->base[0] != 0xdf))
        artifact_bad(r, "not a ProbExpan artifact (expected a msgpack header map)");
    unpack_at(r, &r->hdr_unp, &r->off);
    const msgpack_object *h = &r->hdr_unp.data;
    r->cur = 0;
    const msgpack_object *fmt = mp_get(r, h, "format", 0);
    if (!fmt || !key_is(fmt, "probexpan")) artifact_bad(r, "not a ProbExpan artifact (header field format != \"probexpan\")");
    artifact_header *hd = &r->hdr;
    hd->kind = mp_get_str(r, h, "kind");
    hd->schema = mp_get_int(r, h, "schema");
    if (kind && strcmp(hd->kind, kind) != 0)
        artifact_bad(r, "wrong artifact kind '%s', expected '%s'", hd->kind, kind);
    if (hd->schema < 1 || hd->schema > max_schema)
        artifact_bad(r, "%s schema version %lld is not supported (this program reads 1..%d)", hd->kind,
                     (long long)hd->schema, max_schema);
    const msgpack_object *prod = mp_get(r, h, "producer", 1);
    hd->producer = mp_get_str(r, prod, "name");
    hd->producer_version = mp_get_str(r, prod, "version");
    hd->created = mp_get_str(r, h, "created");
    hd->params = *mp_get(r, h, "params", 1);
    if (hd->params.type != MSGPACK_OBJECT_MAP) artifact_bad(r, "'params': expected a map");
    hd->inputs = *mp_get_array(r, h, "inputs");
    return r;
}

void artifact_close(artifact_reader *r) {
    if (!r) return;
    munmap((void *)r->base, r->size);
    msgpack_unpacked_destroy(&r->hdr_unp);
    msgpack_unpacked_destroy(&r->unp);
    free((char *)r->hdr.kind);
    free((char *)r->hdr.producer);
    free((char *)r->hdr.producer_version);
    free((char *)r->hdr.created);
    free(r->path);
    free(r);
}

const artifact_header *artifact_hdr(const artifact_reader *r) { return &r->hdr; }
const char *artifact_path(const artifact_reader *r) { return r->path; }
uint64_t artifact_offset(const artifact_reader *r) { return r->off; }

int artifact_next(artifact_reader *r, msgpack_object *obj) {
    if (r->off == r->size) return 0;
    unpack_at(r, &r->unp, &r->off);
    *obj = r->unp.data;
    return 1;
}

void artifact_expect(artifact_reader *r, msgpack_object *obj, const char *what) {
    r->cur = r->off;
    if (!artifact_next(r, obj)) artifact_bad(r, "truncated: file ends where %s was expected", what);
}

void artifact_expect_end(artifact_reader *r) {
    if (r->off != r->size) {
        r->cur = r->off;
        artifact_bad(r, "trailing data: %zu unexpected bytes after the payload", r->size - r->off);
    }
}

int artifact_is_matrix(const msgpack_object *obj) {
    if (obj->type != MSGPACK_OBJECT_MAP) return 0;
    for (uint32_t i = 0; i < obj->via.map.size; i++)
        if (key_is(&obj->via.map.ptr[i].key, "matrix")) return 1;
    return 0;
}

void artifact_read_matrix(artifact_reader *r, const char *name, row_matrix *m) {
    msgpack_object d;
    char what[128];
    snprintf(what, sizeof what, "row matrix '%s'", name);
    artifact_expect(r, &d, what);
    const msgpack_object *mn = mp_get(r, &d, "matrix", 1);
    if (!key_is(mn, name)) artifact_bad(r, "expected %s", what);
    artifact_matrix_rows(r, &d, m);
}

void artifact_matrix_rows(artifact_reader *r, const msgpack_object *d, row_matrix *m) {
    char *name = mp_get_str(r, d, "matrix");
    char what[128];
    snprintf(what, sizeof what, "row matrix '%s'", name);
    free(name);
    m->rows = mp_get_int(r, d, "rows");
    m->cols = mp_get_int(r, d, "cols");
    int64_t stride = mp_get_int(r, d, "stride");
    if (!key_is(mp_get(r, d, "dtype", 1), "f32")) artifact_bad(r, "%s: dtype must be \"f32\"", what);
    /* every product below is checked: rows, cols and stride come from the file */
    if (m->rows < 0 || m->cols < 0 || stride <= 0 || stride % ROW_ALIGN || (uint64_t)stride - BIN32_HEADER > UINT32_MAX ||
        (uint64_t)m->cols > ((uint64_t)stride - BIN32_HEADER) / 4)
        artifact_bad(r, "%s: inconsistent shape rows=%lld cols=%lld stride=%lld", what, (long long)m->rows,
                     (long long)m->cols, (long long)stride);
    /* alignment pad: one bin32 object */
    r->cur = r->off;
    if (r->size - r->off < BIN32_HEADER || r->base[r->off] != 0xc6)
        artifact_bad(r, "%s: expected the alignment pad (bin32)", what);
    r->off += BIN32_HEADER + be(r->base + r->off + 1, 4);
    r->cur = r->off;
    if (r->off > r->size) artifact_bad(r, "truncated inside the alignment pad of %s", what);
    if (m->rows > 0 && (r->off + BIN32_HEADER) % ROW_ALIGN)
        artifact_bad(r, "%s: rows are not aligned to %d bytes", what, ROW_ALIGN);
    uint64_t need;
    if (__builtin_mul_overflow((uint64_t)m->rows, (uint64_t)stride, &need) || need > r->size - r->off)
        artifact_bad(r, "truncated: %s of %lld rows of %lld bytes runs past the end of the file (%zu bytes left)", what,
                     (long long)m->rows, (long long)stride, r->size - r->off);
    for (int64_t i = 0; i < m->rows; i += (m->rows - 1 > 0 ? m->rows - 1 : 1)) { /* first and last row headers */
        const uint8_t *h = r->base + r->off + (size_t)i * (size_t)stride;
        if (h[0] != 0xc6 || be(h + 1, 4) != (uint64_t)stride - BIN32_HEADER) {
            r->cur = (size_t)(h - r->base);
            artifact_bad(r, "%s: row %lld is not a bin32 of %lld bytes", what, (long long)i, (long long)stride - BIN32_HEADER);
        }
    }
    m->stride = (size_t)stride / 4;
    m->data = (const float *)(const void *)(r->base + r->off + BIN32_HEADER);
    m->path = r->path;
    m->data_offset = r->off + BIN32_HEADER;
    m->check = NULL;
    m->checked = NULL;
    r->off += need;
}
