/* hcl_loss: hard-negative contrastive loss and its gradient, computed in double
 * (see hcl_loss.h for the formula; derivation of the gradient below). */
#include "nn/hcl_loss.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#include "base/error.h"

/* Gradient, per row i (c = grad_scale / 2B, P = pos_i, G = ng_i, m = shift):
 *   loss_i = ln(P + G) − s_ip                     (p = partner(i))
 *   ∂loss_i/∂s_ip = P·[1/(P+G) − 1/P] + [unclamped]·P/(P+G)·(−τ⁺N/(1−τ⁺))
 *   ∂loss_i/∂s_ik = [unclamped]·1/((P+G)(1−τ⁺)) · ∂rew_i/∂s_ik,  k a negative of i
 *   ∂rew_i/∂s_ik  = N·e^{βs_ik}/C · ((1+β)e^{s_ik} − β·A/C),  A = Σe^{(1+β)s}, C = Σe^{βs}
 * With u_k = e^{β(s_ik−m)}, v_k = e^{s_ik−m}, every quantity above is e^m times a
 * scale-free term, and the e^m cancel in every ratio, so the row is evaluated shifted.
 * Then ∂/∂z = (Gs + Gsᵀ)·z / t, where Gs holds the ∂loss/∂s_ik. */
double hcl_loss_f64(const double *out1, const double *out2, int B, int D, const hcl_params *p,
                    double grad_scale, double *grad_out1, double *grad_out2,
                    double *pos_out, double *ng_raw_out, double *ng_out, int *clamped_out) {
    if (B < 2 || D < 1) die("hcl_loss: need B >= 2 pairs and D >= 1 (got B=%d D=%d)", B, D);
    if (!(p->temperature > 0) || !(p->tau_plus >= 0 && p->tau_plus < 1) || !(p->beta >= 0))
        die("hcl_loss: bad parameters (t=%g, tau_plus=%g, beta=%g)", p->temperature, p->tau_plus,
            p->beta);
    const int n = 2 * B;
    const double N = (double)(n - 2), t = p->temperature, tau = p->tau_plus, beta = p->beta;
    const double log_floor = log(N) - 1.0 / t;  /* ln(N·e^{−1/t}) */
    const int want_grad = grad_out1 && grad_out2;

    double *z = xmalloc(sizeof(double) * (size_t)n * (size_t)D);
    for (int i = 0; i < B; i++)
        for (int d = 0; d < D; d++) {
            z[(size_t)i * D + d] = out1[(size_t)i * D + d];
            z[(size_t)(i + B) * D + d] = out2[(size_t)i * D + d];
        }
    double *s = xmalloc(sizeof(double) * (size_t)n * (size_t)n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, D, 1.0 / t, z, D, z, D, 0.0, s, n);

    /* Positive similarity out1_r·out2_r, shared by rows r and r+B (saved before the rows
     * of s are overwritten with gradients). */
    double *spos = xmalloc(sizeof(double) * (size_t)(B + 2 * n)), *uk = spos + B, *vk = uk + n;
    for (int r = 0; r < B; r++) spos[r] = s[(size_t)r * n + r + B];

    double loss = 0;
    for (int i = 0; i < n; i++) {
        double *row = s + (size_t)i * n;
        const int pi = (i + B) % n;
        const double sp = spos[i % B];
        double m = sp;
        for (int k = 0; k < n; k++)
            if (k != i && k != pi && row[k] > m) m = row[k];
        double su = 0, suv = 0;
        for (int k = 0; k < n; k++) {
            if (k == i || k == pi) continue;
            const double v = exp(row[k] - m);
            const double u = beta == 1 ? v : beta == 0 ? 1 : exp(beta * (row[k] - m));
            uk[k] = u;
            vk[k] = v;
            su += u;
            suv += u * v;
        }
        const double P = exp(sp - m);              /* pos / e^m */
        const double ratio = suv / su;             /* (A/C) / e^m */
        const double ng_raw = (-tau * N * P + N * ratio) / (1 - tau);
        const double floor_s = exp(log_floor - m); /* N·e^{−1/t} / e^m */
        const int clamped = ng_raw < floor_s;
        const double G = clamped ? floor_s : ng_raw;
        loss += log(P + G) - (sp - m);
        if (pos_out) pos_out[i] = exp(sp);
        if (ng_raw_out) ng_raw_out[i] = ng_raw * exp(m);
        if (ng_out) ng_out[i] = G * exp(m);
        if (clamped_out) clamped_out[i] = clamped;
        if (!want_grad) continue;

        /* Overwrite row i of s with ∂loss/∂s_ik (u_k, v_k kept from the forward above). */
        const double c = grad_scale / n, inv = 1.0 / (P + G), cn = c * inv / (1 - tau) * N / su;
        for (int k = 0; k < n; k++) {
            if (k == i || k == pi) continue;
            double g = 0;
            if (!clamped) g = cn * uk[k] * ((1 + beta) * vk[k] - beta * ratio);
            row[k] = g;
        }
        row[i] = 0;
        row[pi] = c * (P * inv - 1 + (clamped ? 0 : P * inv * (-tau * N / (1 - tau))));
    }
    loss /= n;

    if (want_grad) {
        for (int i = 0; i < n; i++)  /* Gs + Gsᵀ, in place */
            for (int k = i; k < n; k++) {
                const double v = s[(size_t)i * n + k] + s[(size_t)k * n + i];
                s[(size_t)i * n + k] = v;
                s[(size_t)k * n + i] = v;
            }
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, D, n, 1.0 / t, s, n, z, D, 0.0,
                    grad_out1, D);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, D, n, 1.0 / t, s + (size_t)B * n,
                    n, z, D, 0.0, grad_out2, D);
    }
    free(spos);
    free(s);
    free(z);
    return loss;
}

double hcl_loss(const float *out1, const float *out2, int B, int D, const hcl_params *p,
                double grad_scale, float *grad_out1, float *grad_out2, hcl_rows *rows) {
    const size_t bd = (size_t)B * (size_t)D, n = 2 * (size_t)B;
    const int want_grad = grad_out1 && grad_out2;
    double *buf = xmalloc(sizeof(double) * (4 * bd + 3 * n));
    double *o1 = buf, *o2 = buf + bd, *g1 = buf + 2 * bd, *g2 = buf + 3 * bd;
    double *pos = buf + 4 * bd, *ngr = pos + n, *ng = ngr + n;
    for (size_t j = 0; j < bd; j++) {
        o1[j] = out1[j];
        o2[j] = out2[j];
    }
    const double loss = hcl_loss_f64(o1, o2, B, D, p, grad_scale, want_grad ? g1 : NULL,
                                     want_grad ? g2 : NULL, pos, ngr, ng,
                                     rows ? rows->clamped : NULL);
    if (want_grad)
        for (size_t j = 0; j < bd; j++) {
            grad_out1[j] = (float)g1[j];
            grad_out2[j] = (float)g2[j];
        }
    if (rows)
        for (size_t i = 0; i < n; i++) {
            if (rows->pos) rows->pos[i] = (float)pos[i];
            if (rows->ng_raw) rows->ng_raw[i] = (float)ngr[i];
            if (rows->ng) rows->ng[i] = (float)ng[i];
        }
    free(buf);
    return loss;
}
