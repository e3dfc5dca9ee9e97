/* class_report: the class proposals of a run (class_proposals.h) in words — each class named
 * by its head word (feature_text.h) with its most typical members — as the JSON of
 * `GET /api/classes` and `probexpan classes --format json`, or as TSV (docs/classes.md). */
#ifndef PROBEXPAN_CLASS_REPORT_H
#define PROBEXPAN_CLASS_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "model/class_proposals.h"
#include "model/feature_text.h"

/* {"classes": [{"rank", "head", "word" (narrowing word or null), "entities", "core", "size", "coherence", "score", "members":
 * [{"eid", "name", "share", "count"}]}], "genus_features": N, "entities": E}. */
json_t *class_report_json(const corpus_index *x, const genus_heads *h, const class_proposal *p, int n,
                          const feature_text *t);

/* A header line, then one line per class: rank, head, word (narrowing word or empty), entities, core, coherence, score,
 * member_eids (comma-separated), members (names, "; "-separated; tabs and line breaks in a
 * name become spaces). */
void class_report_tsv(FILE *f, const corpus_index *x, const class_proposal *p, int n, const feature_text *t);

#endif
