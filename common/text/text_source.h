/* text_source: plain-text documents streamed from a file, a folder, an archive
 * (libarchive: .tar[.gz|.bz2|.xz|.zst], .tgz, .zip, .7z ...), a compressed file
 * (.gz .bz2 .xz .zst) or stdin ("-"), as validated UTF-8 lines (annotate).
 *
 * A document is a plain file, a regular archive member ("a.tar.gz:dir/x.txt"),
 * each file of a folder (recursively, in byte order of the names, hidden names
 * skipped; archives inside a folder are read as archives), or stdin ("stdin").
 * Lines are delivered without "\n" (a "\r" before it is dropped) in pieces of
 * at most 64 KiB that end on code-point boundaries; a UTF-8 byte-order mark at
 * the start of a document is skipped. Bad input dies with exit 3 naming the
 * document and the line: invalid UTF-8, a NUL byte, an unreadable file or
 * archive member. */
#ifndef PROBEXPAN_TEXT_SOURCE_H
#define PROBEXPAN_TEXT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    void *ctx;
    void (*begin)(void *ctx, const char *doc);           /* may be NULL */
    /* A piece of line `lineno` (1-based); eol = 1 on the piece that ends the line. */
    void (*line)(void *ctx, const char *doc, int64_t lineno, const char *text, size_t len, int eol);
    void (*end)(void *ctx, const char *doc);             /* may be NULL */
} text_sink;

/* Streams every document of `input`; returns how many were read. */
int64_t text_source_read(const char *input, const text_sink *sink);

/* Names of the entries of folder `dir` that are not hidden and end in `suffix`
 * (NULL = any), sorted bytewise, in *names (free each and the array). Returns
 * their count, or -1 when the folder cannot be opened (errno set). */
int64_t text_source_list_folder(const char *dir, const char *suffix, char ***names);

/* Does the name end like an archive (.tar, .tar.gz, .tgz, .zip, .7z, ...)? */
int text_source_is_archive(const char *path);

/* Byte offset of the first invalid UTF-8 sequence or NUL in s[0..len), or -1. */
int64_t utf8_invalid_offset(const char *s, size_t len);
/* Bytes of the UTF-8 byte-order mark s[0..len) starts with: 3, or 0 when there is none. */
size_t utf8_bom_length(const char *s, size_t len);

#endif
