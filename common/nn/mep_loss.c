/* mep_loss: label-smoothed KL divergence (batchmean) with its gradient. */
#include "nn/mep_loss.h"

#include <math.h>
#include <stddef.h>

static double xlogx(double x) { return x > 0 ? x * log(x) : 0.0; }

double mep_loss(const float *logp, const int *labels, int B, int V, double eta,
                float *dlogp) {
    double on = 1.0 - eta, off = V > 1 ? eta / (V - 1) : 0.0;
    double ent = xlogx(on) + (V - 1) * xlogx(off); /* Σ target·ln target per row */
    double loss = 0;
    for (int b = 0; b < B; b++) {
        const float *r = logp + (size_t)b * V;
        double s = 0;
        for (int v = 0; v < V; v++) s += r[v];
        double cross = off * (s - r[labels[b]]) + on * r[labels[b]];
        loss += ent - cross;
        if (dlogp) {
            float *d = dlogp + (size_t)b * V;
            for (int v = 0; v < V; v++) d[v] = (float)(-off / B);
            d[labels[b]] = (float)(-on / B);
        }
    }
    return loss / B;
}
