/* pairs_refinement: pairs classes -> refinement sets; the refinement's log line and metrics. */
#include "model/pairs_refinement.h"

#include "base/error.h"
#include "base/log.h"
#include "catalog/catalog.h"

pattern_class_sets *pairs_class_sets(const pairs_set *ps) {
    pattern_class_sets *cs = xmalloc(sizeof(pattern_class_sets) * (size_t)(ps->n_classes + 1));
    for (int i = 0; i < ps->n_classes; i++) {
        const cl_sets *s = &ps->c[i].sets;
        cs[i] = (pattern_class_sets){s->pos, s->neg, s->n_pos, s->n_neg};
    }
    return cs;
}

void pairs_refinement_report(const pairs_set *ps, const char *path, int steps, double before, double after, double t0) {
    log_info("contrastive refinement on %d classes of %s: loss %.4f -> %.4f in %d steps, %.1f s", ps->n_classes, path,
             before, after, steps, now_seconds() - t0);
    catalog_metric("contrast_loss_before", before);
    catalog_metric("contrast_loss_after", after);
}
