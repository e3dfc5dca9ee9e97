/* dataset: stream the members of a ProbExpan/CGExpan dataset (docs/design.md §2)
 * from a folder (stdio) or an archive (libarchive, every format and filter),
 * split them into numbered lines, and parse entity2id.txt, query/ and gt/.
 *
 * A UTF-8 byte-order mark opening a member is dropped.
 * Member names: a leading "./" is ignored; a member matches `name` either at
 * the root or below exactly one top folder ("mini-ese/entity2id.txt"). Matches
 * under two different roots are ambiguous and die with exit 3. A folder request
 * ("query/") collects its members first (they are small) and delivers them in
 * name order; a single member is streamed. */
#include "dataset/dataset.h"

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
#include "base/hashmap.h"
#include "text/text_source.h"

#define READ_CHUNK (1u << 20)

/* ---------------- line splitting ---------------- */

typedef struct { char *name; char *data; size_t len; } member_buf;

typedef long (*read_fn)(void *src, char *buf, size_t n); /* bytes read, 0 at end; dies on error */

/* Called at the start of each member, before its lines (also for empty ones). */
typedef void (*member_fn)(void *ctx, const char *member, const char *where);

typedef struct {
    dataset_line_fn fn;
    member_fn begin;
    void *ctx;
    const char *member, *where;
} line_sink;

/* What a read holds while it runs. A die*() during a read normally ends the
 * process; when a harness traps it (the fuzzers), the next read releases what
 * the interrupted one left behind, so nothing piles up. Reads are not
 * reentrant: one thread at a time. */
static struct {
    char *buf;             /* line buffer of split_lines */
    struct archive *a;     /* archive being read */
    member_buf *m;         /* members collected for a folder request */
    int nm;
} held;

static void release_held(void) {
    free(held.buf);
    if (held.a) archive_read_free(held.a);
    for (int i = 0; i < held.nm; i++) {
        free(held.m[i].name);
        free(held.m[i].data);
    }
    free(held.m);
    memset(&held, 0, sizeof held);
}

/* Reads a whole stream through `rd` and calls the sink once per line. */
static void split_lines(read_fn rd, void *src, const line_sink *s) {
    size_t cap = READ_CHUNK + 1, have = 0;
    free(held.buf);
    char *buf = held.buf = xmalloc(cap);
    int64_t lineno = 0;
    if (s->begin) s->begin(s->ctx, s->member, s->where);
    for (;;) {
        if (cap - have - 1 < READ_CHUNK / 4) {
            cap *= 2;
            buf = held.buf = xrealloc(buf, cap);
        }
        long n = rd(src, buf + have, cap - have - 1);
        if (n == 0) break;
        size_t scan_from = have, start = 0;
        have += (size_t)n;
        char *nl;
        while ((nl = memchr(buf + scan_from, '\n', have - scan_from))) {
            size_t end = (size_t)(nl - buf), len = end - start;
            buf[end] = 0;
            if (len && buf[start + len - 1] == '\r') buf[start + --len] = 0;
            if (lineno == 0) {
                size_t bom = utf8_bom_length(buf + start, len);
                start += bom, len -= bom;
            }
            s->fn(s->ctx, s->member, s->where, ++lineno, buf + start, len);
            start = scan_from = end + 1;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
    }
    if (have) {
        buf[have] = 0;
        if (buf[have - 1] == '\r') buf[--have] = 0;
        size_t skip = lineno == 0 ? utf8_bom_length(buf, have) : 0;
        s->fn(s->ctx, s->member, s->where, ++lineno, buf + skip, have - skip);
    }
    free(buf);
    held.buf = NULL;
}

typedef struct { FILE *f; const char *path; } file_src;
static long read_file(void *src, char *buf, size_t n) {
    file_src *fs = src;
    size_t got = fread(buf, 1, n, fs->f);
    if (got == 0 && ferror(fs->f)) die_errno("%s: read error", fs->path);
    return (long)got;
}

typedef struct { struct archive *a; const char *path, *member; } archive_src;
static long read_archive(void *src, char *buf, size_t n) {
    archive_src *as = src;
    la_ssize_t got = archive_read_data(as->a, buf, n);
    if (got < 0)
        die_input(as->path, as->member, "truncated or corrupt archive: %s", archive_error_string(as->a));
    return (long)got;
}

typedef struct { const char *data; size_t len, pos; } mem_src;
static long read_mem(void *src, char *buf, size_t n) {
    mem_src *ms = src;
    size_t k = ms->len - ms->pos < n ? ms->len - ms->pos : n;
    memcpy(buf, ms->data + ms->pos, k);
    ms->pos += k;
    return (long)k;
}

/* ---------------- member matching ---------------- */

static int ends_with_slash(const char *s) { size_t n = strlen(s); return n && s[n - 1] == '/'; }

/* Does relative path `rel` match request `name`? For folder requests the file
 * must lie directly in the folder and not be hidden. */
static int rel_matches(const char *rel, const char *name) {
    size_t nl = strlen(name);
    if (!ends_with_slash(name)) return strcmp(rel, name) == 0;
    if (strncmp(rel, name, nl) != 0) return 0;
    const char *base = rel + nl;
    return *base && *base != '.' && !strchr(base, '/');
}

/* Matches an archive path against `name` at the root or below one top folder.
 * Returns the relative name (pointer into path) or NULL; *toplen = length of the
 * stripped prefix including its '/'. */
static const char *match_member(const char *path, const char *name, size_t *toplen) {
    while (path[0] == '.' && path[1] == '/') path += 2;
    while (path[0] == '/') path++;
    if (rel_matches(path, name)) { *toplen = 0; return path; }
    const char *slash = strchr(path, '/');
    if (slash && rel_matches(slash + 1, name)) { *toplen = (size_t)(slash + 1 - path); return slash + 1; }
    return NULL;
}

static int cmp_member(const void *a, const void *b) {
    return strcmp(((const member_buf *)a)->name, ((const member_buf *)b)->name);
}

static char *where_of(const char *dataset_path, const char *rel, int is_dir) {
    return xasprintf(is_dir ? "%s/%s" : "%s:%s", dataset_path, rel);
}

/* Adds a member to the ones collected for a folder request. */
static void hold_member(member_buf mb) {
    held.m = xgrow(held.m, held.nm, sizeof *held.m);
    held.m[held.nm++] = mb;
}

/* Delivers the collected members of a folder request in name order, then frees them. */
static void deliver_members(const char *dataset_path, int is_dir, dataset_line_fn fn, member_fn begin, void *ctx) {
    if (held.nm) qsort(held.m, (size_t)held.nm, sizeof *held.m, cmp_member);
    for (int i = 0; i < held.nm; i++) {
        char *where = where_of(dataset_path, held.m[i].name, is_dir);
        line_sink s = {fn, begin, ctx, held.m[i].name, where};
        mem_src ms = {held.m[i].data, held.m[i].len, 0};
        split_lines(read_mem, &ms, &s);
        free(where);
    }
    release_held();
}

/* ---------------- folder datasets ---------------- */

static int is_directory(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_regular(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder holding the dataset: `dir` itself, or its only subfolder when the
 * member is not at the top (a dataset unpacked with its top folder). */
static char *folder_root(const char *dir, const char *name) {
    char *p = xasprintf("%s/%s", dir, name);
    int found = ends_with_slash(name) ? is_directory(p) : is_regular(p);
    free(p);
    if (found) return xstrdup(dir);
    DIR *d = opendir(dir);
    if (!d) die_input(dir, NULL, "cannot open dataset folder: %s", strerror(errno));
    struct dirent *e;
    char *only = NULL;
    int nsub = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *sub = xasprintf("%s/%s", dir, e->d_name);
        if (is_directory(sub) && ++nsub == 1) only = sub;
        else free(sub);
    }
    closedir(d);
    if (nsub == 1) return only;
    free(only);
    return xstrdup(dir);
}

static int read_folder(const char *dir, const char *name, dataset_line_fn fn, member_fn begin, void *ctx) {
    char *root = folder_root(dir, name);
    const char *prefix = strcmp(root, dir) == 0 ? "" : root + strlen(dir) + 1;
    int count = 0;
    if (!ends_with_slash(name)) {
        char *p = xasprintf("%s/%s", root, name);
        FILE *f = is_regular(p) ? fopen(p, "rb") : NULL;
        if (f) {
            char *rel = xasprintf("%s%s%s", prefix, *prefix ? "/" : "", name);
            char *where = where_of(dir, rel, 1);
            file_src fs = {f, p};
            line_sink s = {fn, begin, ctx, name, where};
            split_lines(read_file, &fs, &s);
            fclose(f);
            free(where);
            free(rel);
            count = 1;
        }
        free(p);
        free(root);
        return count;
    }
    char *folder = xasprintf("%s/%s", root, name);
    DIR *d = opendir(folder);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            char *p = xasprintf("%s%s", folder, e->d_name);
            if (!is_regular(p)) { free(p); continue; }
            FILE *f = fopen(p, "rb");
            if (!f) die_errno("%s: cannot open", p);
            member_buf mb = {xasprintf("%s%s", name, e->d_name), NULL, 0};
            size_t cap = 0;
            for (;;) {
                if (mb.len + 65536 > cap) { cap = cap * 2 + 65536; mb.data = xrealloc(mb.data, cap); }
                size_t got = fread(mb.data + mb.len, 1, cap - mb.len, f);
                if (got == 0) { if (ferror(f)) die_errno("%s: read error", p); break; }
                mb.len += got;
            }
            fclose(f);
            free(p);
            hold_member(mb);
            count++;
        }
        closedir(d);
        deliver_members(*prefix ? root : dir, 1, fn, begin, ctx);
    }
    free(folder);
    free(root);
    return count;
}

/* ---------------- archive datasets ---------------- */

static int read_archive_members(const char *path, const char *name, dataset_line_fn fn, member_fn begin,
                                void *ctx) {
    struct archive *a = held.a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_all(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK)
        die_input(path, NULL, "cannot read as a dataset folder or archive: %s", archive_error_string(a));
    int count = 0, is_folder = ends_with_slash(name);
    char *top = NULL; /* prefix of the first match, to detect ambiguous roots */
    struct archive_entry *e;
    for (;;) {
        int r = archive_read_next_header(a, &e);
        if (r == ARCHIVE_EOF) break;
        if (r == ARCHIVE_WARN) r = ARCHIVE_OK;
        if (r != ARCHIVE_OK)
            die_input(path, count ? name : NULL, "truncated or corrupt archive: %s", archive_error_string(a));
        if (archive_entry_filetype(e) != AE_IFREG) continue;
        const char *epath = archive_entry_pathname(e);
        size_t toplen;
        const char *rel = epath ? match_member(epath, name, &toplen) : NULL;
        if (!rel) continue;
        const char *pfx = rel - toplen;
        if (!top) top = xasprintf("%.*s", (int)toplen, pfx);
        else if (strlen(top) != toplen || strncmp(top, pfx, toplen) != 0)
            die_input(path, rel, "ambiguous dataset root: members under \"%s\" and \"%.*s\"",
                      *top ? top : "/", (int)toplen, toplen ? pfx : "/");
        if (!is_folder && count) die_input(path, rel, "member appears twice in the archive");
        archive_src as = {a, path, rel};
        if (is_folder) {
            member_buf mb = {xstrdup(rel), NULL, 0};
            size_t cap = 0;
            for (;;) {
                if (mb.len + 65536 > cap) { cap = cap * 2 + 65536; mb.data = xrealloc(mb.data, cap); }
                long got = read_archive(&as, mb.data + mb.len, cap - mb.len);
                if (got == 0) break;
                mb.len += (size_t)got;
            }
            hold_member(mb);
        } else {
            char *where = where_of(path, rel, 0);
            line_sink s = {fn, begin, ctx, rel, where};
            split_lines(read_archive, &as, &s);
            free(where);
        }
        count++;
    }
    archive_read_free(a);
    held.a = NULL;
    free(top);
    if (is_folder) deliver_members(path, 0, fn, begin, ctx);
    return count;
}

static int read_lines(const char *dataset_path, const char *name, dataset_line_fn fn, member_fn begin, void *ctx) {
    release_held(); /* only non-empty after a trapped die */
    struct stat st;
    if (stat(dataset_path, &st) != 0)
        die_input(dataset_path, NULL, "cannot open dataset: %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return read_folder(dataset_path, name, fn, begin, ctx);
    if (!S_ISREG(st.st_mode)) /* a FIFO would block the archive reader */
        die_input(dataset_path, NULL, "not a dataset folder or archive (not a regular file)");
    return read_archive_members(dataset_path, name, fn, begin, ctx);
}

int dataset_read_lines(const char *dataset_path, const char *name, dataset_line_fn fn, void *ctx) {
    return read_lines(dataset_path, name, fn, NULL, ctx);
}

/* ---------------- parsing helpers ---------------- */

static void die_line(const char *where, int64_t lineno, const char *fmt, const char *arg)
    __attribute__((noreturn));
static void die_line(const char *where, int64_t lineno, const char *fmt, const char *arg) {
    char pos[40];
    snprintf(pos, sizeof pos, "line %lld", (long long)lineno);
    die_input(where, pos, fmt, arg);
}

/* The line parsers below work on C strings: a NUL byte would cut a field
 * silently ("Texas\0x" -> "Texas"), so it is bad input. */
static void check_no_nul(const char *where, int64_t lineno, const char *line, size_t len) {
    const char *z = memchr(line, 0, len);
    if (!z) return;
    char col[24];
    snprintf(col, sizeof col, "%zu", (size_t)(z - line) + 1);
    die_line(where, lineno, "NUL byte at column %s", col);
}

static int valid_utf8(const char *s, size_t len) {
    utf8proc_int32_t cp;
    for (size_t i = 0; i < len;) {
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i, (utf8proc_ssize_t)(len - i), &cp);
        if (k <= 0) return 0;
        i += (size_t)k;
    }
    return 1;
}

/* Parses a non-negative decimal integer that spans [s, s+len). */
static int parse_id(const char *s, size_t len, int64_t *out) {
    if (!len || len > 18) return 0;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 1;
}

static int blank(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* ---------------- entity2id.txt ---------------- */

typedef struct {
    entity_table *t;
    size_t cap;
    strmap names;
    intmap eids;
} entity_ctx;

static void entity_line(void *vctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member;
    entity_ctx *c = vctx;
    if (blank(line, len)) return;
    check_no_nul(where, lineno, line, len);
    if (!valid_utf8(line, len)) die_line(where, lineno, "%sinvalid UTF-8", "");
    char *tab = memrchr(line, '\t', len);
    if (!tab) die_line(where, lineno, "expected name<TAB>eid, found no tab in \"%.60s\"", line);
    size_t nlen = (size_t)(tab - line);
    int64_t eid;
    if (!nlen) die_line(where, lineno, "%sempty entity name", "");
    if (!parse_id(tab + 1, len - nlen - 1, &eid))
        die_line(where, lineno, "expected a non-negative integer eid after the tab, found \"%.40s\"", tab + 1);
    entity_table *t = c->t;
    int64_t prev = intmap_put(&c->eids, eid, t->n);
    if (prev >= 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "duplicate eid %lld (first on line %%s)", (long long)eid);
        char first[24];
        snprintf(first, sizeof first, "%lld", (long long)prev + 1);
        die_line(where, lineno, msg, first);
    }
    *tab = 0;
    if (strmap_put(&c->names, line, nlen, t->n) >= 0)
        die_line(where, lineno, "duplicate entity name \"%s\"", line);
    if ((size_t)t->n == c->cap) {
        c->cap = c->cap * 2 + 1024;
        t->eid = xrealloc(t->eid, c->cap * sizeof *t->eid);
        t->name = xrealloc(t->name, c->cap * sizeof *t->name);
    }
    t->eid[t->n] = eid;
    t->name[t->n] = xstrdup(line);
    t->n++;
}

/* Reads entity2id.txt into t; returns 0 (t empty) when the dataset has no such member. */
static int read_entities_if_any(const char *dataset_path, entity_table *t) {
    memset(t, 0, sizeof *t);
    entity_ctx c = {t, 0, {0}, {0}};
    strmap_init(&c.names);
    intmap_init(&c.eids);
    int members = dataset_read_lines(dataset_path, "entity2id.txt", entity_line, &c);
    strmap_free(&c.names);
    intmap_free(&c.eids);
    if (members && t->n == 0) die_input(dataset_path, "entity2id.txt", "no entities");
    return members;
}

void dataset_read_entities(const char *dataset_path, entity_table *t) {
    if (!read_entities_if_any(dataset_path, t)) die_input(dataset_path, NULL, "no member entity2id.txt in the dataset");
}

void entity_table_free(entity_table *t) {
    for (int64_t i = 0; i < t->n; i++) free(t->name[i]);
    free(t->eid);
    free(t->name);
    memset(t, 0, sizeof *t);
}

void entity_table_copy(entity_table *dst, const entity_table *src) {
    dst->n = src->n;
    dst->eid = xmalloc(sizeof(int64_t) * (size_t)(src->n + 1));
    dst->name = xmalloc(sizeof(char *) * (size_t)(src->n + 1));
    for (int64_t i = 0; i < src->n; i++) {
        dst->eid[i] = src->eid[i];
        dst->name[i] = xstrdup(src->name[i]);
    }
}

void entity_table_row_map(const entity_table *t, intmap *row_of_eid) {
    intmap_init(row_of_eid);
    for (int64_t i = 0; i < t->n; i++) intmap_put(row_of_eid, t->eid[i], i);
}

/* ---------------- query/ and gt/ ---------------- */

/* "query/us_states.txt" -> "us_states"; NULL for members not ending in .txt */
static char *class_of(const char *member) {
    const char *base = strrchr(member, '/');
    base = base ? base + 1 : member;
    size_t n = strlen(base);
    if (n <= 4 || strcmp(base + n - 4, ".txt") != 0) return NULL;
    return xasprintf("%.*s", (int)(n - 4), base);
}

/* A query line of names, resolved once every query has been read. */
typedef struct {
    int query;         /* index in the query set */
    char *text, *where;
    int64_t lineno;
} named_query;

typedef struct {
    query_set *qs;
    int exited;        /* saw EXIT in the current member */
    named_query *named;
    int nnamed;
} query_ctx;

static void query_begin(void *vctx, const char *member, const char *where) {
    (void)member, (void)where;
    ((query_ctx *)vctx)->exited = 0;
}

static void query_line(void *vctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    query_ctx *c = vctx;
    char *cls = class_of(member);
    if (!cls || c->exited || blank(line, len)) { free(cls); return; }
    check_no_nul(where, lineno, line, len);
    if (strcmp(line, "EXIT") == 0) { c->exited = 1; free(cls); return; }
    dataset_query q = {cls, 0, NULL};
    query_set *qs = c->qs;
    if (line[strspn(line, "0123456789 \t")]) { /* not a line of eids: names, resolved later */
        if (!valid_utf8(line, len)) die_line(where, lineno, "%sinvalid UTF-8", "");
        c->named = xrealloc(c->named, sizeof *c->named * (size_t)(c->nnamed + 1));
        c->named[c->nnamed++] = (named_query){qs->n, xstrdup(line), xstrdup(where), lineno};
    }
    char *p = c->nnamed && c->named[c->nnamed - 1].query == qs->n ? "" : line;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        char *e = p;
        while (*e && *e != ' ' && *e != '\t') e++;
        int64_t eid;
        if (!parse_id(p, (size_t)(e - p), &eid)) {
            *e = 0;
            die_line(where, lineno, "expected space-separated seed eids, found \"%.40s\"", p);
        }
        q.seeds = xgrow(q.seeds, q.nseeds, sizeof *q.seeds);
        q.seeds[q.nseeds++] = eid;
        p = e;
    }
    qs->q = xgrow(qs->q, qs->n, sizeof *qs->q);
    qs->q[qs->n++] = q;
}

/* Hands each query line of names to the caller's resolver, once every query has been read. */
static void resolve_named(query_ctx *c, dataset_names_fn resolve, void *rctx) {
    for (int k = 0; k < c->nnamed; k++) {
        named_query *nq = &c->named[k];
        dataset_query *q = &c->qs->q[nq->query];
        char pos[40];
        snprintf(pos, sizeof pos, "line %lld", (long long)nq->lineno);
        free(q->seeds);
        q->seeds = resolve(rctx, nq->text, nq->where, pos, &q->nseeds);
        free(nq->text);
        free(nq->where);
    }
    free(c->named);
}

void dataset_read_queries(const char *dataset_path, query_set *qs, dataset_names_fn resolve, void *rctx) {
    memset(qs, 0, sizeof *qs);
    query_ctx c = {qs, 0, NULL, 0};
    if (read_lines(dataset_path, "query/", query_line, query_begin, &c) == 0)
        die_input(dataset_path, NULL, "no query/<class>.txt members in the dataset");
    if (qs->n == 0) die_input(dataset_path, "query/", "no queries");
    if (c.nnamed) resolve_named(&c, resolve, rctx);
}

void query_set_free(query_set *qs) {
    for (int i = 0; i < qs->n; i++) {
        free(qs->q[i].class_name);
        free(qs->q[i].seeds);
    }
    free(qs->q);
    memset(qs, 0, sizeof *qs);
}

typedef struct {
    gt_set *gs;
    char *cur_member;
    char *cur_where;
    int64_t cap;
    intmap line_of;    /* eid -> line in the current member */
    intmap known;      /* the eids of entity2id.txt */
    int check_known;   /* the dataset has entity2id.txt */
} gt_ctx;

static void gt_finish_member(gt_ctx *c) {
    if (c->cur_member && c->gs->c[c->gs->n - 1].n == 0)
        die_input(c->cur_where, NULL, "empty ground truth: no line with label >= 1");
    free(c->cur_member);
    free(c->cur_where);
    c->cur_member = c->cur_where = NULL;
}

static void gt_begin(void *vctx, const char *member, const char *where) {
    gt_ctx *c = vctx;
    gt_finish_member(c);
    char *cls = class_of(member);
    if (!cls) return;
    gt_set *gs = c->gs;
    c->cur_member = xstrdup(member);
    c->cur_where = xstrdup(where);
    intmap_free(&c->line_of);
    intmap_init(&c->line_of);
    gs->c = xgrow(gs->c, gs->n, sizeof *gs->c);
    gs->c[gs->n++] = (gt_class){cls, 0, NULL};
    c->cap = 0;
}

static void gt_line(void *vctx, const char *member, const char *where, int64_t lineno, char *line, size_t len) {
    (void)member;
    gt_ctx *c = vctx;
    if (!c->cur_member || blank(line, len)) return;
    check_no_nul(where, lineno, line, len);
    gt_set *gs = c->gs;
    char *t1 = memchr(line, '\t', len);
    char *t2 = t1 ? memrchr(line, '\t', len) : NULL;
    if (!t1 || t2 == t1) die_line(where, lineno, "expected eid<TAB>name<TAB>label, found \"%.60s\"", line);
    int64_t eid, label;
    if (!parse_id(line, (size_t)(t1 - line), &eid))
        die_line(where, lineno, "expected an integer eid, found \"%.40s\"", line);
    char msg[96];
    int64_t first = intmap_put(&c->line_of, eid, lineno);
    if (first >= 0) {
        snprintf(msg, sizeof msg, "duplicate eid %lld (first on line %lld): list each entity once", (long long)eid,
                 (long long)first);
        die_line(where, lineno, "%s", msg);
    }
    if (c->check_known && intmap_get(&c->known, eid) < 0) {
        snprintf(msg, sizeof msg, "eid %lld is not an entity of entity2id.txt", (long long)eid);
        die_line(where, lineno, "%s", msg);
    }
    const char *lab = t2 + 1;
    size_t lablen = len - (size_t)(lab - line);
    int neg = lablen && lab[0] == '-';
    if (!parse_id(lab + neg, lablen - (size_t)neg, &label))
        die_line(where, lineno, "expected an integer label in the third field, found \"%.20s\"", lab);
    if (neg || label < 1) return;
    gt_class *g = &gs->c[gs->n - 1];
    if (g->n == c->cap) {
        c->cap = c->cap * 2 + 64;
        g->members = xrealloc(g->members, (size_t)c->cap * sizeof *g->members);
    }
    g->members[g->n++] = eid;
}

void dataset_read_gt(const char *dataset_path, gt_set *gs) {
    memset(gs, 0, sizeof *gs);
    gt_ctx c = {gs, NULL, NULL, 0, {0}, {0}, 0};
    intmap_init(&c.line_of);
    entity_table ent;
    c.check_known = read_entities_if_any(dataset_path, &ent);
    entity_table_row_map(&ent, &c.known);
    entity_table_free(&ent);
    if (read_lines(dataset_path, "gt/", gt_line, gt_begin, &c) == 0)
        die_input(dataset_path, NULL, "no gt/<class>.txt members in the dataset");
    gt_finish_member(&c);
    intmap_free(&c.line_of);
    intmap_free(&c.known);
    if (gs->n == 0) die_input(dataset_path, "gt/", "no ground-truth classes");
}

void gt_set_free(gt_set *gs) {
    for (int i = 0; i < gs->n; i++) {
        free(gs->c[i].class_name);
        free(gs->c[i].members);
    }
    free(gs->c);
    memset(gs, 0, sizeof *gs);
}
