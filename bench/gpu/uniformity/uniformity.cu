// The barrier patterns behind three uniformity rules of 2026-12-05, each
// with the twin the rule must still report, run under compute-sanitizer's
// synccheck on the GPU (bench/gpu/uniformity/run.sh):
//
//   shifted / otherShift   ggml's rwkv_wkv_f32 loop, `t = base + tid` to
//                          `end + tid`: equal trip counts; a bound shifted
//                          by 2 * tid makes them differ.
//   viaAsm / laneAsm       cuda-samples' cdpBitonicSort bound, `bfind` of a
//                          parameter: uniform; an asm adding %laneid is not.
//   gridLoop               conjugateGradientMultiBlockCG's grid.sync() loop
//                          on a value reloaded from global memory after a
//                          grid reduction: every thread agrees (launched
//                          cooperatively). Its per-block twin would hang
//                          the grid, so it is left to the lit test.
//
// Every loop ends with a barrier after it, so threads that leave a loop
// early meet the others' loop barrier at another one, which synccheck
// reports as divergence.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void shifted(const float *k, float *out, int base, int end,
                        int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  float acc = 0;
  for (int t = base + tid; t < end + tid; t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    acc += s[63 - tid];
  }
  __syncthreads();
  out[blockIdx.x * 64 + tid] = acc;
}

__global__ void otherShift(const float *k, float *out, int base, int end,
                           int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  float acc = 0;
  for (int t = base + tid; t < end + 2 * tid; t += C) {
    __syncthreads();
    s[tid] = k[t % 1024];
    acc += s[tid];
  }
  __syncthreads();
  out[blockIdx.x * 64 + tid] = acc;
}

__device__ unsigned highestBit(unsigned word) {
  unsigned ret;
  asm("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
  return ret;
}

__global__ void viaAsm(float *out, unsigned len) {
  __shared__ unsigned s[64];
  unsigned len2 = 1u << (highestBit(len - 1u) + 1);
  for (unsigned k = 2; k <= len2; k *= 2) {
    s[threadIdx.x] = k;
    __syncthreads();
  }
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void laneAsm(float *out, unsigned len) {
  __shared__ unsigned s[64];
  unsigned n;
  asm("mov.u32 %0, %%laneid;\n\tadd.u32 %0, %0, %1;" : "=&r"(n) : "r"(len));
  for (unsigned k = 0; k < n; ++k) {
    s[threadIdx.x] = k;
    __syncthreads();
  }
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void gridLoop(float *residual, float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  float r = *residual;
  while (r > tol) {
    x[blockIdx.x * 64 + threadIdx.x] *= 0.5f;
    grid.sync();
    if (threadIdx.x == 0 && blockIdx.x == 0)
      *residual *= 0.5f;
    grid.sync();
    r = *residual;
  }
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  const int blocks = argc > 2 ? atoi(argv[2]) : 8;
  float *in, *out, *residual;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, blocks * 64 * sizeof(float));
  cudaMalloc(&residual, sizeof(float));
  cudaMemset(in, 0, 1024 * sizeof(float));
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    cudaError_t e = launch();
    if (e == cudaSuccess)
      e = cudaDeviceSynchronize();
    printf("%s: %s\n", name, cudaGetErrorString(e));
  };
  run("shifted", [&] {
    shifted<<<blocks, 64>>>(in, out, 0, 256, 64);
    return cudaGetLastError();
  });
  run("otherShift", [&] {
    otherShift<<<blocks, 64>>>(in, out, 0, 64, 16);
    return cudaGetLastError();
  });
  run("viaAsm", [&] {
    viaAsm<<<blocks, 64>>>(out, 100u);
    return cudaGetLastError();
  });
  run("laneAsm", [&] {
    laneAsm<<<blocks, 64>>>(out, 2u);
    return cudaGetLastError();
  });
  run("gridLoop", [&] {
    float one = 1.0f, tol = 0.01f;
    cudaMemcpy(residual, &one, sizeof(float), cudaMemcpyHostToDevice);
    void *args[] = {&residual, &out, &tol};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)gridLoop, blocks, 64,
                                                args);
    if (e != cudaSuccess)
      return e;
    e = cudaDeviceSynchronize();
    float r = 0;
    cudaMemcpy(&r, residual, sizeof(float), cudaMemcpyDeviceToHost);
    printf("gridLoop: residual %g\n", r);
    return e;
  });
  return 0;
}
