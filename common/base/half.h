/* half: float32 <-> float16 (IEEE binary16) and bfloat16 storage conversions, one value
 * or n at a time, rounding to nearest even; NaN and Inf are kept. Used where weights or
 * activations are stored at half precision: safetensors' F16/BF16 tensors, the frozen-
 * prefix cache. */
#ifndef PROBEXPAN_HALF_H
#define PROBEXPAN_HALF_H

#include <stddef.h>
#include <stdint.h>

uint16_t f32_to_f16(float f);
float f16_to_f32(uint16_t h);
uint16_t f32_to_bf16(float f);
float bf16_to_f32(uint16_t h);
void f32_to_f16_n(uint16_t *dst, const float *src, size_t n);
void f16_to_f32_n(float *dst, const uint16_t *src, size_t n);
void f32_to_bf16_n(uint16_t *dst, const float *src, size_t n);
void bf16_to_f32_n(float *dst, const uint16_t *src, size_t n);

#endif
