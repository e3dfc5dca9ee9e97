/* text_annotation: raw text -> its sentences with entity mentions, spooled (annotate's first
 * pass; docs/design.md §2).
 *
 * Reads documents (files, folders, archives or stdin) in their format (text_reader.h:
 * markup stripped, linked names counted), splits them into sentences and word tokens
 * (sentence_split.h; sentences over max_words tokens dropped) and finds the annotation's
 * mentions in each (annotation.h); a sentence with a mention is spooled as one JSON line
 * (sentences.json's fields, entityId the entity's index) to a temporary file beside OUT
 * (base/tempname), which annotation_write_sentences() turns into sentences.json.
 * With discovery the entities are not known while the text is read: the sentences are
 * counted by discover.h and kept (sentence_spool.h); text_annotation_discover() then gives
 * discover the text's links and where its candidates are written in lower case, and
 * returns the names; once the annotation holds them, text_annotation_match_kept() runs the
 * kept sentences through the matching. */
#ifndef PROBEXPAN_TEXT_ANNOTATION_H
#define PROBEXPAN_TEXT_ANNOTATION_H

#include <stdint.h>

#include "dataset/annotation.h"
#include "discover/discover.h"
#include "text/text_reader.h"

typedef struct text_annotation text_annotation;

typedef struct {
    int64_t docs, sentences, with_mention; /* sentences: of at most max_words tokens */
    int64_t overlong;                      /* sentences over max_words tokens */
} text_annotation_counts;

/* Creates the spool beside out; dp: discover the names (NULL: the annotation has them). */
text_annotation *text_annotation_new(annotation *a, const char *out, int max_words, const discover_params *dp);
/* Reads inputs[0..n) (n == 0: stdin) and logs what each format read. */
void text_annotation_read(text_annotation *t, const text_reader_options *ro, char *const *inputs, int n);
/* With dp: the names discovered in what was read (discover_finish; *names malloc'd). */
int64_t text_annotation_discover(text_annotation *t, discovered_name **names);
/* With dp, once the annotation holds the names: matches and spools the kept sentences. */
void text_annotation_match_kept(text_annotation *t);
/* Closes the spool; *c: what was read. */
void text_annotation_finish(text_annotation *t, text_annotation_counts *c);
/* The spool's path (for annotation_write_sentences). */
const char *text_annotation_spool(const text_annotation *t);
/* Removes the spool. */
void text_annotation_free(text_annotation *t);

#endif
