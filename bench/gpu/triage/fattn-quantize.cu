// ggml's quantize_q8_1_to_shared as fattn-vec calls it for D = 64
// (fattn-common.cuh:332-372 and fattn-vec.cuh:159-183 at the corpus
// commit), written anew: a row of the shared buffer holds D/4 quantized
// ints, then the scales (float2 per 8 ints). Only ni = D/4 = 16 lanes
// quantize, but every lane stores its int, so lanes 16-31 store 0 over the
// scales' words, which lanes 0 and 8 store next; nothing but the warp's
// program order puts the scales last. `guarded` stores only lanes < ni.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

template <int ni, bool guarded>
__device__ void quantize(const float *x, int *yq32, float2 *yds) {
  float vals[4];
  for (int l = 0; l < 4; ++l)
    vals[l] = threadIdx.x < ni ? x[4 * threadIdx.x + l] : 0.0f;
  float amax = fabsf(vals[0]), sum = vals[0];
  for (int l = 1; l < 4; ++l) {
    amax = fmaxf(amax, fabsf(vals[l]));
    sum += vals[l];
  }
  for (int mask = 4; mask > 0; mask >>= 1) {
    amax = fmaxf(amax, __shfl_xor_sync(0xFFFFFFFF, amax, mask, 32));
    sum += __shfl_xor_sync(0xFFFFFFFF, sum, mask, 32);
  }
  const float d = amax / 127;
  int q32 = 0;
  if (d != 0.0f)
    for (int l = 0; l < 4; ++l)
      q32 |= (int(roundf(vals[l] / d)) & 0xFF) << (8 * l);
  if (!guarded || threadIdx.x < ni)
    yq32[threadIdx.x] = q32;
  if (threadIdx.x % 8 == 0 && threadIdx.x < ni)
    yds[threadIdx.x / 8] = make_float2(d, sum);
}

template <bool guarded>
__global__ void rowOfQ(const float *Q, float *out) {
  constexpr int D = 64;
  __shared__ float KQ[D];
  int *q_i32 = (int *)KQ;
  float2 *q_ds = (float2 *)(q_i32 + D / 4);
  quantize<D / 4, guarded>(Q, q_i32, q_ds);
  __syncthreads();
  out[threadIdx.x] = KQ[threadIdx.x];
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  float *q, *out;
  cudaMalloc(&q, 64 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  float h[64];
  for (int k = 0; k < 64; ++k)
    h[k] = k - 32;
  cudaMemcpy(q, h, sizeof(h), cudaMemcpyHostToDevice);
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    cudaError_t e = cudaDeviceSynchronize();
    float o[32];
    cudaMemcpy(o, out, sizeof(o), cudaMemcpyDeviceToHost);
    printf("%s: %s, scale of block 0 = %g, sum = %g\n", name,
           cudaGetErrorString(e), o[16], o[17]);
  };
  run("unguarded", [&] { rowOfQ<false><<<1, 32>>>(q, out); });
  run("guarded", [&] { rowOfQ<true><<<1, 32>>>(q, out); });
  return 0;
}
