/* artifact: the msgpack files stages exchange (docs/design.md §4, schemas/header.md).
 *
 * File = a header map {format:"probexpan", kind, schema, producer:{name,version},
 * created, params:{...}, inputs:[{path,kind,sha256}]} followed by payload objects.
 * Large float matrices use the row-matrix layout (schemas/row-matrix.md): a
 * descriptor map, an alignment pad, then `rows` bin32 objects of identical size
 * whose float data starts on a 64-byte boundary, so row i is at a computable
 * offset and is read through mmap without parsing anything else.
 *
 * Writers write to "PATH.tmp.XXXXXX" in the target directory and rename on
 * artifact_commit() (base/outfile.h: the target is checked first, never an input
 * or a non-regular file); a failure (die*) unlinks the temporary file. Readers mmap
 * the file, check format/kind/schema, and report every defect with exit 3 naming
 * the file and byte offset (die_input). */
#ifndef PROBEXPAN_ARTIFACT_H
#define PROBEXPAN_ARTIFACT_H

#include <msgpack.h>
#include <stdint.h>
#include <stddef.h>

#define PROBEXPAN_VERSION "0.1.0"

/* ---------------- writing ---------------- */

typedef struct artifact_writer artifact_writer;

/* Opens a temporary file next to `path`. Nothing is written until the first
 * payload call, so params and inputs can be added first. */
artifact_writer *artifact_create(const char *path, const char *kind, int schema);
void artifact_param_int(artifact_writer *w, const char *key, int64_t v);
void artifact_param_double(artifact_writer *w, const char *key, double v);
void artifact_param_str(artifact_writer *w, const char *key, const char *v);
/* Every option of the program's table as parsed (cli_each_value): flags and whole numbers
 * as int, numbers as float, strings as str, repeatable options as an array of str. The
 * params a stage adds itself are values that are not options (derived or positional). */
void artifact_param_options(artifact_writer *w);
/* Records an input file (path, sha256 and, for artifacts, its kind). */
void artifact_add_input(artifact_writer *w, const char *path);
/* Writes the header (once) and returns the packer for payload objects. */
msgpack_packer *artifact_payload(artifact_writer *w);
/* Row matrix: descriptor {matrix:name, rows, cols, dtype:"f32", stride}, pad,
 * then exactly `rows` calls of artifact_matrix_row(). A row holding NaN or an
 * infinity is refused: exit 1 naming the matrix, row and column. */
void artifact_matrix_begin(artifact_writer *w, const char *name, int64_t rows, int64_t cols);
void artifact_matrix_row(artifact_writer *w, const float *row);
/* Bytes written so far. */
uint64_t artifact_bytes(const artifact_writer *w);
/* The final path the writer commits to. */
const char *artifact_writer_path(const artifact_writer *w);
/* Appends the checksum trailer (schemas/header.md), flushes, fsyncs, renames to the
 * final path and reports the output (artifact_hooks). */
void artifact_commit(artifact_writer *w);
/* Commits several artifacts together: every file is complete before any is renamed,
 * so a failure leaves none of them (base/outfile.h). */
void artifact_commit_all(artifact_writer *const *w, int n);
/* Bytes of the rows of a rows x cols row matrix (plus its descriptor), for
 * artifact_require_space. */
uint64_t artifact_matrix_size(int64_t rows, int64_t cols);
/* Dies (exit 1) unless the output's file system has `bytes` free, saying how much is needed. */
void artifact_require_space(const artifact_writer *w, uint64_t bytes);

/* Packing helpers for payload code. */
void mp_str(msgpack_packer *pk, const char *s);
void mp_kv_str(msgpack_packer *pk, const char *k, const char *v);
void mp_kv_int(msgpack_packer *pk, const char *k, int64_t v);
void mp_kv_double(msgpack_packer *pk, const char *k, double v);
void mp_kv_bin(msgpack_packer *pk, const char *k, const void *data, size_t bytes);
/* Key, then an array of the n values. */
void mp_kv_i64_array(msgpack_packer *pk, const char *k, const int64_t *v, int64_t n);
void mp_kv_int_array(msgpack_packer *pk, const char *k, const int *v, int64_t n);
void mp_kv_double_array(msgpack_packer *pk, const char *k, const double *v, int64_t n);
void mp_kv_str_array(msgpack_packer *pk, const char *k, char *const *v, int64_t n);

/* ---------------- reading ---------------- */

typedef struct {
    const char *kind;
    int64_t schema;
    const char *producer, *producer_version, *created;
    msgpack_object params;   /* map */
    msgpack_object inputs;   /* array of maps */
} artifact_header;

typedef struct artifact_reader artifact_reader;

/* Opens and maps `path`; checks format, that kind equals `kind` (NULL = any),
 * and that 1 <= schema <= max_schema. Dies with exit 3 otherwise. */
artifact_reader *artifact_open(const char *path, const char *kind, int max_schema);
void artifact_close(artifact_reader *r);
const artifact_header *artifact_hdr(const artifact_reader *r);
const char *artifact_path(const artifact_reader *r);
/* Byte offset of the next payload object. */
uint64_t artifact_offset(const artifact_reader *r);
/* Next payload object (valid until the next call); 0 at a clean end of file.
 * Truncation or garbage dies with exit 3. */
int artifact_next(artifact_reader *r, msgpack_object *obj);
/* Like artifact_next but dies when the file ends: `what` names what was expected. */
void artifact_expect(artifact_reader *r, msgpack_object *obj, const char *what);
/* Dies unless the payload is fully consumed. */
void artifact_expect_end(artifact_reader *r);
/* Checks the file against the sha256 in its checksum trailer (reads every byte):
 * returns 1 when it matches, 0 when the file has no trailer (written before
 * checksums existed); dies with exit 3 on a mismatch. */
int artifact_verify(artifact_reader *r);

/* Typed access to map fields; die with exit 3 naming file, offset and key.
 * `at` is the offset of the object for the message. */
const msgpack_object *mp_get(artifact_reader *r, const msgpack_object *map, const char *key, int required);
int64_t mp_get_int(artifact_reader *r, const msgpack_object *map, const char *key);
double mp_get_double(artifact_reader *r, const msgpack_object *map, const char *key);
/* Returns a malloc'd NUL-terminated copy. */
char *mp_get_str(artifact_reader *r, const msgpack_object *map, const char *key);
/* String field `key` holding a sha256 as 64 lowercase hex digits, copied into out (65 bytes). */
void mp_get_sha256(artifact_reader *r, const msgpack_object *map, const char *key, char out[65]);
const msgpack_object *mp_get_array(artifact_reader *r, const msgpack_object *map, const char *key);
/* Array field `key` as a malloc'd copy (room for one more element; strings malloc'd each),
 * its length in *n; with want >= 0 it must have exactly `want` items. Exit 3 naming the key
 * on a wrong length or item type. */
int64_t *mp_get_i64_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n);
int *mp_get_int_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n);
double *mp_get_double_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n);
char **mp_get_str_array(artifact_reader *r, const msgpack_object *map, const char *key, int64_t want, int64_t *n);
/* Dies (exit 3) with "FILE: byte OFFSET: message" at the current object. */
void artifact_bad(artifact_reader *r, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Convert one msgpack object to int64 / double / a malloc'd NUL-terminated string, dying
 * with `what` on a wrong type. */
int64_t mp_as_int(artifact_reader *r, const msgpack_object *o, const char *what);
double mp_as_double(artifact_reader *r, const msgpack_object *o, const char *what);
char *mp_as_str(artifact_reader *r, const msgpack_object *o, const char *what);

typedef struct row_matrix row_matrix;
/* A reader's value check of one row (e.g. dists: finite probabilities summing to 1),
 * run by row_matrix_row() the first time a row is touched; it dies with exit 3 naming
 * the file, the row's byte offset and the defect, and marks the row in `checked`. */
typedef void (*row_check_fn)(const row_matrix *m, int64_t row);
struct row_matrix {
    int64_t rows, cols;
    size_t stride;            /* floats between the starts of consecutive rows */
    const float *data;        /* row i = data + i * stride (points into the mmap) */
    const char *path;         /* the file, for messages (NULL for in-memory matrices) */
    uint64_t data_offset;     /* file offset of row 0's first float */
    row_check_fn check;       /* NULL: rows are used as they are */
    unsigned char *checked;   /* rows already checked (allocated by whoever sets check) */
};

/* Reads the next payload object as a row-matrix descriptor named `name` and maps
 * its rows; the reader moves past the rows. */
void artifact_read_matrix(artifact_reader *r, const char *name, row_matrix *m);
/* True when a payload object is a row-matrix descriptor. */
int artifact_is_matrix(const msgpack_object *obj);
/* Maps the rows that follow a descriptor just returned by artifact_next. */
void artifact_matrix_rows(artifact_reader *r, const msgpack_object *descriptor, row_matrix *m);
static inline const float *row_matrix_row(const row_matrix *m, int64_t i) {
    if (m->check && !__atomic_load_n(&m->checked[i], __ATOMIC_ACQUIRE)) m->check(m, i);
    return m->data + (size_t)i * m->stride;
}
/* File offset of row i's first float (for messages). */
static inline uint64_t row_matrix_offset(const row_matrix *m, int64_t i) {
    return m->data_offset + (uint64_t)i * m->stride * sizeof(float);
}
/* Marks row i as checked (for row_check_fn implementations; thread-safe). */
static inline void row_matrix_mark_checked(const row_matrix *m, int64_t i) {
    __atomic_store_n(&m->checked[i], 1, __ATOMIC_RELEASE);
}

/* sha256 of a whole file as 64 hex chars (buf of 65). Dies on I/O errors. */
void file_sha256_hex(const char *path, char out[65]);
/* The same for an input file: the run record's sha256 when it knows the file unchanged since
 * it was written (artifact_hooks.known_sha256), else computed. */
void input_sha256_hex(const char *path, char out[65]);

/* ---------------- the run record ----------------
 * The writer knows nothing of the catalog: the program's run record (catalog/catalog.h,
 * installed by catalog_begin) listens through these hooks, so the file formats link
 * without SQLite. */
typedef struct {
    /* Fills out with the recorded sha256 of a file unchanged since it was written and
     * returns 1; else 0. */
    int (*known_sha256)(const char *path, char out[65]);
    /* Called once a committed file is in place: its real path, kind, schema, size,
     * sha256, creation time and the inputs (paths and sha256 as recorded in it). */
    void (*output)(const char *path, const char *kind, int schema, unsigned long long bytes, const char *sha256,
                   const char *created, int ninputs, char *const *input_paths, char *const *input_sha256);
} artifact_hooks;
/* Installs the hooks (NULL: none); `hooks` must outlive the writers. */
void artifact_set_hooks(const artifact_hooks *hooks);

#endif
