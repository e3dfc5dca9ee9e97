/* tensor_ops: the dense building blocks of the encoder over OpenBLAS, each with its
 * backward. All buffers are row-major float32; "n" is the number of rows.
 *
 * Conventions (golden README): Linear weights are [out, in] (PyTorch), y = x·Wᵀ + b;
 * LayerNorm uses the biased variance and the given eps; GELU is the erf form (erf to
 * |error| <= 1.5e-7, Abramowitz & Stegun 7.1.26, vectorised), not the tanh approximation.
 * Products and row loops are split over parallel_threads() (parallel.h).
 * Backward functions ACCUMULATE into weight/bias gradients (+=); for the input gradient
 * `accum` selects += (1) or overwrite (0). Any gradient pointer may be NULL to skip it. */
#ifndef PROBEXPAN_TENSOR_OPS_H
#define PROBEXPAN_TENSOR_OPS_H

#include <stdint.h>
#include <stddef.h>

/* y[n,out] = x[n,in]·W[out,in]ᵀ + b (b may be NULL). */
void linear_forward(float *y, const float *x, const float *W, const float *b, int n, int in,
                    int out);
/* dx[n,in] (+)= dy·W; dW[out,in] += dyᵀ·x; db[out] += Σ_rows dy. */
void linear_backward(float *dx, int accum, float *dW, float *db, const float *dy,
                     const float *x, const float *W, int n, int in, int out);

/* y = LN(x)·w + b per row of C; stores mean and rstd [n] for the backward (may be NULL). */
void layernorm_forward(float *y, float *mean, float *rstd, const float *x, const float *w,
                       const float *b, int n, int C, float eps);
/* From the forward's x, mean, rstd: dx (+)= ..., dw += Σ dy·x̂, db += Σ dy. */
void layernorm_backward(float *dx, int accum, float *dw, float *db, const float *dy,
                        const float *x, const float *mean, const float *rstd, const float *w,
                        int n, int C);

/* y = 0.5·x·(1 + erf(x/√2)), elementwise over n values (y may equal x). */
void gelu_forward(float *y, const float *x, int64_t n);
/* dx = dy·GELU'(x) (overwrites dx; dx may equal dy). */
void gelu_backward(float *dx, const float *dy, const float *x, int64_t n);

/* In place, per row of C: row = log_softmax(row) (max-subtracted, sum in double). */
void log_softmax_rows(float *x, int n, int C);
/* Backward of y = log_softmax(z): dz = dy − softmax(z)·Σ dy, from y. dz may equal dy. */
void log_softmax_backward(float *dz, const float *dy, const float *y, int n, int C);
/* In place softmax of one vector of length C (max-subtracted). */
void softmax_inplace(float *x, int C);

#endif
