/* refine_check: the seeds' vote between the refinement check's candidates (refine_check.h). */
#include "engine/refine_check.h"

double refine_check_score(const double *row, int n) {
    double total = 0;
    for (int i = 0; i < n; i++) total += row[i];
    return total / n;
}

int refine_check_prefers(const double *challenger, const double *current, int n) {
    int higher = 0, lower = 0;
    for (int i = 0; i < n; i++) {
        higher += challenger[i] > current[i];
        lower += challenger[i] < current[i];
    }
    return refine_check_score(challenger, n) > refine_check_score(current, n) && higher > lower;
}

int refine_check_choice(const double *const rows[REFINE_CHECK_CANDIDATES], int n) {
    int chosen = REFINE_CHECK_MODEL1;
    for (int c = REFINE_CHECK_ENSEMBLE; c < REFINE_CHECK_CANDIDATES; c++)
        if (refine_check_prefers(rows[c], rows[chosen], n)) chosen = c;
    return chosen;
}
