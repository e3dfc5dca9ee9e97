/* text_source: documents from files, folders, archives or stdin as validated UTF-8 lines. */
#include "text/text_source.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <utf8proc.h>

#include "base/error.h"

#define PIECE (1u << 16)

typedef long (*read_fn)(void *src, char *buf, size_t n); /* 0 at end; dies on error */

int64_t utf8_invalid_offset(const char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char b = (unsigned char)s[i];
        if (b == 0) return (int64_t)i;
        if (b < 0x80) { i++; continue; }
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
        if (k <= 0) return (int64_t)i;
        i += (size_t)k;
    }
    return -1;
}

size_t utf8_bom_length(const char *s, size_t len) { return len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0; }

/* Length a UTF-8 sequence announces by its lead byte (0 = not a lead byte). */
static size_t seq_len(unsigned char b) {
    if (b >= 0xC2 && b <= 0xDF) return 2;
    if (b >= 0xE0 && b <= 0xEF) return 3;
    if (b >= 0xF0 && b <= 0xF4) return 4;
    return 0;
}

static void __attribute__((noreturn)) die_bad(const char *doc, int64_t lineno, int64_t byte, unsigned char b) {
    char where[64];
    snprintf(where, sizeof where, "line %lld, byte %lld", (long long)lineno, (long long)byte);
    if (b == 0) die_input(doc, where, "NUL byte (binary file?); expected UTF-8 text");
    die_input(doc, where, "invalid UTF-8 (byte 0x%02X); expected UTF-8 text", b);
}

/* Reads one document through rd and delivers its lines. */
static void read_document(read_fn rd, void *src, const char *doc, const text_sink *sink) {
    char *buf = xmalloc(PIECE + 8);
    size_t have = 0;
    int64_t lineno = 1, col = 0; /* col: bytes of the current line delivered so far */
    int first = 1, open_line = 0;
    if (sink->begin) sink->begin(sink->ctx, doc);
    for (;;) {
        long n = rd(src, buf + have, PIECE - have);
        if (n == 0) {
            if (have) die_bad(doc, lineno, col + 1, (unsigned char)buf[0]); /* truncated sequence */
            if (open_line) sink->line(sink->ctx, doc, lineno, "", 0, 1);
            break;
        }
        have += (size_t)n;
        size_t i = 0, start = 0;
        if (first && have >= 3) i = start = utf8_bom_length(buf, have), first = 0;
        while (i < have) {
            unsigned char b = (unsigned char)buf[i];
            if (b == '\n') {
                size_t len = i - start;
                if (len && buf[start + len - 1] == '\r') len--;
                sink->line(sink->ctx, doc, lineno, buf + start, len, 1);
                lineno++;
                col = 0;
                open_line = 0;
                start = ++i;
                continue;
            }
            if (b == 0) die_bad(doc, lineno, col + (int64_t)(i - start) + 1, b);
            if (b < 0x80) { i++; continue; }
            utf8proc_int32_t cp;
            utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)buf + i, (utf8proc_ssize_t)(have - i), &cp);
            if (k > 0) { i += (size_t)k; continue; }
            size_t want = seq_len(b);
            int incomplete = want && have - i < want;
            for (size_t j = i + 1; incomplete && j < have; j++)
                if (((unsigned char)buf[j] & 0xC0) != 0x80) incomplete = 0;
            if (!incomplete) die_bad(doc, lineno, col + (int64_t)(i - start) + 1, b);
            break; /* the rest of the sequence comes with the next read */
        }
        if (i > start) {
            sink->line(sink->ctx, doc, lineno, buf + start, i - start, 0);
            col += (int64_t)(i - start);
            open_line = 1;
        }
        memmove(buf, buf + i, have - i);
        have -= i;
    }
    if (sink->end) sink->end(sink->ctx, doc);
    free(buf);
}

/* ---------------- sources ---------------- */

typedef struct { FILE *f; const char *path; } file_src;
static long read_file(void *src, char *buf, size_t n) {
    file_src *fs = src;
    size_t got = fread(buf, 1, n, fs->f);
    if (got == 0 && ferror(fs->f)) die_input(fs->path, NULL, "read error: %s", strerror(errno));
    return (long)got;
}

typedef struct { struct archive *a; const char *path, *member; } archive_src;
static long read_archive(void *src, char *buf, size_t n) {
    archive_src *as = src;
    la_ssize_t got = archive_read_data(as->a, buf, n);
    if (got < 0) die_input(as->path, as->member, "unreadable archive member: %s", archive_error_string(as->a));
    return (long)got;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int text_source_is_archive(const char *p) {
    static const char *const EXT[] = {".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz",
                                      ".txz", ".tar.zst", ".tzst", ".zip", ".7z", NULL};
    for (int i = 0; EXT[i]; i++)
        if (ends_with(p, EXT[i])) return 1;
    return 0;
}

static int is_compressed_name(const char *p) {
    return ends_with(p, ".gz") || ends_with(p, ".bz2") || ends_with(p, ".xz") || ends_with(p, ".zst");
}

/* An archive (raw = a single compressed file): every regular member is a document. */
static int64_t read_archive_docs(const char *path, int raw, const text_sink *sink) {
    struct archive *a = archive_read_new();
    archive_read_support_filter_all(a);
    if (raw) archive_read_support_format_raw(a);
    else archive_read_support_format_all(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK)
        die_input(path, NULL, "cannot read archive: %s", archive_error_string(a));
    int64_t count = 0;
    char *last = xstrdup("(start)");
    struct archive_entry *e;
    for (;;) {
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF) break;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
            char *where = xasprintf("after member %s", last);
            die_input(path, where, "unreadable archive: %s", archive_error_string(a));
        }
        if (!raw && archive_entry_filetype(e) != AE_IFREG) continue;
        const char *member = raw ? "" : archive_entry_pathname(e);
        if (!member) member = "?";
        free(last);
        last = xstrdup(member);
        char *doc = raw ? xstrdup(path) : xasprintf("%s:%s", path, member);
        archive_src as = {a, path, member};
        read_document(read_archive, &as, doc, sink);
        free(doc);
        count++;
    }
    free(last);
    archive_read_free(a);
    return count;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int64_t text_source_list_folder(const char *dir, const char *suffix, char ***names) {
    DIR *d = opendir(dir);
    *names = NULL;
    if (!d) return -1;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || (suffix && (l <= strlen(suffix) || !ends_with(e->d_name, suffix)))) continue;
        *names = xrealloc(*names, (n + 1) * sizeof **names);
        (*names)[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(*names, n, sizeof **names, cmp_str);
    return (int64_t)n;
}

static int64_t read_any(const char *path, const text_sink *sink);

static int64_t read_folder(const char *dir, const text_sink *sink) {
    char **names;
    int64_t n = text_source_list_folder(dir, NULL, &names);
    if (n < 0) die_input(dir, NULL, "cannot open folder: %s", strerror(errno));
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        char *p = xasprintf("%s/%s", dir, names[i]);
        count += read_any(p, sink);
        free(p);
        free(names[i]);
    }
    free(names);
    return count;
}

static int64_t read_any(const char *path, const text_sink *sink) {
    struct stat st;
    if (stat(path, &st) != 0) die_input(path, NULL, "cannot open: %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return read_folder(path, sink);
    if (!S_ISREG(st.st_mode)) return 0;
    if (text_source_is_archive(path)) return read_archive_docs(path, 0, sink);
    if (is_compressed_name(path)) return read_archive_docs(path, 1, sink);
    FILE *f = fopen(path, "rb");
    if (!f) die_input(path, NULL, "cannot open: %s", strerror(errno));
    file_src fs = {f, path};
    read_document(read_file, &fs, path, sink);
    fclose(f);
    return 1;
}

int64_t text_source_read(const char *input, const text_sink *sink) {
    if (strcmp(input, "-") == 0) {
        file_src fs = {stdin, "stdin"};
        read_document(read_file, &fs, "stdin", sink);
        return 1;
    }
    return read_any(input, sink);
}
