/* sentence_spool: write-once, replayable spool of tokenised sentences. */
#include "discover/sentence_spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/tempname.h"

struct sentence_spool {
    char *path;
    FILE *f;
    char *article;  /* last id written */
};

sentence_spool *sentence_spool_create(const char *dir, const char *base) {
    sentence_spool *s = xcalloc(1, sizeof *s);
    char *prefix = xasprintf("%s/.%s.sentences-", dir, base);
    int fd;
    s->path = tempname_create_file(prefix, &fd);
    if (!s->path) die_errno("cannot create a temporary file in %s", dir);
    free(prefix);
    s->f = fdopen(fd, "w+");
    if (!s->f) die_errno("cannot open %s", s->path);
    return s;
}

void sentence_spool_put(sentence_spool *s, const char *article, char *const *tokens, int n) {
    if (!s->article || strcmp(s->article, article)) {
        free(s->article);
        s->article = xstrdup(article);
        fputc('A', s->f);
        for (const char *c = article; *c; c++) fputc(*c == '\n' ? ' ' : *c, s->f);
        fputc('\n', s->f);
    }
    fputc('S', s->f);
    for (int i = 0; i < n; i++) {
        if (i) fputc('\t', s->f);
        fputs(tokens[i], s->f);
    }
    if (fputc('\n', s->f) == EOF) die_errno("cannot write %s", s->path);
}

void sentence_spool_replay(sentence_spool *s, void (*fn)(void *ctx, const char *article, char **tokens, int n), void *ctx) {
    if (fflush(s->f) || ferror(s->f) || fseek(s->f, 0, SEEK_SET)) die_errno("cannot write %s", s->path);
    char *line = NULL, *article = xstrdup(""), **tok = NULL;
    size_t cap = 0;
    int tcap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, s->f)) > 0) {
        line[--len] = 0;
        if (line[0] == 'A') {
            free(article);
            article = xstrdup(line + 1);
            continue;
        }
        int n = 0;
        for (char *save = NULL, *t = strtok_r(line + 1, "\t", &save); t; t = strtok_r(NULL, "\t", &save)) {
            if (n == tcap) {
                tcap = tcap * 2 + 64;
                tok = xrealloc(tok, sizeof *tok * (size_t)tcap);
            }
            tok[n++] = t;
        }
        if (n) fn(ctx, article, tok, n);
    }
    if (ferror(s->f)) die_errno("cannot read %s", s->path);
    free(line);
    free(tok);
    free(article);
}

void sentence_spool_remove(sentence_spool *s) {
    fclose(s->f);
    unlink(s->path);
    tempfile_unregister(s->path);
    free(s->path);
    free(s->article);
    free(s);
}
