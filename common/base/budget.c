/* budget: the calling thread's bound on a computation (contract in budget.h). */
#include "base/budget.h"

#include <stdint.h>
#include <time.h>

static _Thread_local struct {
    budget_check check;
    void *ctx;
    int spent;
    int64_t last_ms; /* when the check was last asked */
    char why[256];
} self;

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void budget_set(budget_check check, void *ctx) {
    self.check = check;
    self.ctx = ctx;
    self.spent = 0;
    self.last_ms = 0;
    self.why[0] = 0;
}

int budget_spent(void) {
    if (self.spent || !self.check) return self.spent;
    int64_t now = now_ms();
    if (now - self.last_ms < BUDGET_CHECK_MS) return 0;
    self.last_ms = now;
    self.spent = self.check(self.ctx, self.why, sizeof self.why) != 0;
    return self.spent;
}

const char *budget_reason(void) { return self.why; }
