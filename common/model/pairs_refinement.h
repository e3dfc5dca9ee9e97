/* pairs_refinement: a pairs artifact's classes as the sets of a pattern-model contrastive
 * refinement, and the refinement's report, for the stages that refine on --pairs
 * (pattern-dists, pattern-model). */
#ifndef PROBEXPAN_PAIRS_REFINEMENT_H
#define PROBEXPAN_PAIRS_REFINEMENT_H

#include "artifacts/pairs.h"
#include "model/pattern_model.h"

/* The classes of ps as refinement sets: malloc'd, ps->n_classes entries pointing into ps. */
pattern_class_sets *pairs_class_sets(const pairs_set *ps);
/* Logs "contrastive refinement on N classes of PATH: loss BEFORE -> AFTER in STEPS steps, S s"
 * (S: seconds since t0, a now_seconds() value) and records the catalog metrics
 * contrast_loss_before and contrast_loss_after. */
void pairs_refinement_report(const pairs_set *ps, const char *path, int steps, double before, double after, double t0);

#endif
