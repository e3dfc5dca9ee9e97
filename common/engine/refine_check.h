/* refine_check: the decision rule of query's refinement check (engine.h, docs/refinement.md).
 *
 * The check scores each candidate model (model 1, the unrefined ensemble, the refined
 * ensemble) on the seeds the refinement never saw: each seed a gives a row score, the mean
 * over the other seeds s of s's reciprocal rank in r(a) among the non-seeds, and a
 * candidate's held-out score is the mean of its seeds' row scores. Taking the candidate of the
 * highest held-out score decides near-ties by one pair: with 3 seeds the 6 reciprocal ranks
 * are dominated by whichever pair sits at rank 1 or 2, and the K models share 95 % of their
 * features, so model 1 and the ensemble often differ in the fourth digit. Here each seed is a
 * judge (a leave-one-seed-out fold: its row scores the others it did not help choose): a more
 * complex candidate replaces the simpler one only when its held-out score is higher AND more
 * seeds' rows score it higher than lower. A tie of the judges keeps the simpler candidate. */
#ifndef PROBEXPAN_REFINE_CHECK_H
#define PROBEXPAN_REFINE_CHECK_H

/* The candidates, simplest first. */
enum { REFINE_CHECK_MODEL1, REFINE_CHECK_ENSEMBLE, REFINE_CHECK_REFINED, REFINE_CHECK_CANDIDATES };

/* The mean of row[0..n), n >= 1: a candidate's held-out score from its seeds' row scores. */
double refine_check_score(const double *row, int n);

/* 1 when the candidate with row scores challenger[0..n) is preferred over the one with
 * current[0..n) (the same seeds in the same order): a higher held-out score and more seeds
 * scoring it higher than lower (exact comparisons: equal scores are a tie). */
int refine_check_prefers(const double *challenger, const double *current, int n);

/* The candidate that answers, given rows[c][0..n) for each candidate c (REFINE_CHECK_*):
 * model 1, replaced by the ensemble if the seeds prefer it, replaced in turn by the refined
 * ensemble if they prefer that. */
int refine_check_choice(const double *const rows[REFINE_CHECK_CANDIDATES], int n);

#endif
