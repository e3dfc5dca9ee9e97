/* budget: a bound on the work of one computation (one expansion of `probexpan serve`), set by its
 * caller and checked by the long loops the computation runs through (the window search's steps,
 * the re-ranking's entities, the refinement's steps, the engine's phases). A loop that finds the
 * budget spent stops early; the caller that set it then discards the partial result.
 *
 * The budget belongs to the calling thread (thread-local): a computation runs its loops on the
 * thread that set it, and every other thread, or a thread that set none, never finds a budget
 * spent. The check is asked at most every BUDGET_CHECK_MS; once it says spent, the budget stays
 * spent until the next budget_set. */
#ifndef PROBEXPAN_BUDGET_H
#define PROBEXPAN_BUDGET_H

#include <stddef.h>

#define BUDGET_CHECK_MS 10

/* 1 when the computation must stop, with the reason (a sentence) written into why. */
typedef int (*budget_check)(void *ctx, char *why, size_t whylen);

/* Sets this thread's budget (check NULL: none). */
void budget_set(budget_check check, void *ctx);
/* 1 once this thread's budget is spent. */
int budget_spent(void);
/* Why it was spent ("" when it is not). */
const char *budget_reason(void);

#endif
