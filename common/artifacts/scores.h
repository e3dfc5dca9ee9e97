/* scores: the `scores` artifact of score-models (schemas/scores.md) — every model's
 * per-class consistency score, its model score, rank and whether it was selected. */
#ifndef PROBEXPAN_SCORES_H
#define PROBEXPAN_SCORES_H

#include "format/artifact.h"

#define SCORES_KIND "scores"
#define SCORES_SCHEMA 1

typedef struct {
    const char *path;    /* the model's dists (or patmodel) artifact */
    double *class_score; /* per class; NAN for classes with fewer than 2 seeds (written as nil) */
    double score;        /* geometric mean of the class scores (lower = more consistent) */
    int rank, selected;
} scores_model;

/* Creates the artifact at `path`; the caller adds its params and inputs. */
artifact_writer *scores_create(const char *path);
/* Writes the scores of the k models over the nc classes (selection --top `top`); the caller
 * commits (artifact_commit, or artifact_commit_all with other outputs). */
void scores_pack(artifact_writer *w, const char **classes, int nc, const scores_model *m, int k, int top);

#endif
