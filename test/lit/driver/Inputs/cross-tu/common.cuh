// A kernel in a header: every file including it defines it, at this one
// place. main.cu launches it with 64 threads; other.cu only includes it.
#pragma once

__global__ void headerKernel(float *out) {
  __shared__ float s[64];
  s[threadIdx.x % 64] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x % 64];
}
