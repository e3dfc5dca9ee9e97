/* hcl_loss: the hard-negative contrastive loss of ProbExpan (HCL, estimator 'hard'),
 * in the official code's form, with its gradient (docs/design.md §3, golden README "HCL loss").
 *
 * Contract. out1, out2 are [B, D] row-major (normally L2-normalised projections; pair r =
 * row r of both). With z = concat(out1, out2) ([2B, D]), partner(i) = (i+B) mod 2B,
 * s_ik = z_i·z_k / t, negatives of row i = all k != i, partner(i) (N = 2B-2 of them):
 *   pos_i    = exp(s_i,partner(i))
 *   rew_i    = N · Σ_k e^{(1+β)s_ik} / Σ_k e^{β s_ik}     (importance weights NOT detached)
 *   ng_raw_i = (−τ⁺·N·pos_i + rew_i) / (1 − τ⁺)
 *   ng_i     = max(ng_raw_i, N·e^{−1/t})  (clamped iff ng_raw_i < N·e^{−1/t}; then no
 *                                         gradient flows through ng_i)
 *   loss     = (1/2B) Σ_i −ln(pos_i / (pos_i + ng_i))
 * The returned loss is this unweighted mean (no ×7); the gradients are
 * grad_scale · ∂loss/∂out (pass the official loss weight 7 as grad_scale when training,
 * 1 to get the plain gradient). Computed in double internally, each row shifted by its
 * largest similarity, so large 1/t or β cannot overflow. B >= 2. */
#ifndef PROBEXPAN_HCL_LOSS_H
#define PROBEXPAN_HCL_LOSS_H

typedef struct {
    double tau_plus;     /* class prior τ⁺, 0 <= τ⁺ < 1 (paper: Wiki 0.05, APR 0.1, SE2 0.01) */
    double beta;         /* hardness concentration β >= 0 (paper: 1, 1, 2) */
    double temperature;  /* t > 0 (0.5 everywhere in the paper) */
} hcl_params;

/* Optional per-row outputs, each of length 2B (any pointer may be NULL). */
typedef struct {
    float *pos, *ng_raw, *ng;
    int *clamped;        /* 1 where ng_raw < N·e^{−1/t} */
} hcl_rows;

/* float interface. grad_out1/grad_out2 [B, D] are overwritten (either may be NULL to skip
 * gradients entirely, then both are skipped); rows may be NULL. Returns the loss. */
double hcl_loss(const float *out1, const float *out2, int B, int D, const hcl_params *p,
                double grad_scale, float *grad_out1, float *grad_out2, hcl_rows *rows);

/* The same in double throughout (used by the finite-difference tests). */
double hcl_loss_f64(const double *out1, const double *out2, int B, int D, const hcl_params *p,
                    double grad_scale, double *grad_out1, double *grad_out2,
                    double *pos, double *ng_raw, double *ng, int *clamped);

#endif
