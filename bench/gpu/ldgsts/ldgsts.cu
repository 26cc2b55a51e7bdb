// LDGSTS wavefront calibration: one warp per launch, one cp.async per lane.
// Lane l copies Width[p] bytes from global element Src[p][l] to shared
// element Dst[p][l] (patterns.h, written by gen.py; -1: no copy); no other
// shared access, so the kernel's shared wavefronts are the LDGSTS's.
#include <cstdio>
#include "patterns.h"

template <int W, bool CG>
__global__ void kc(const char *in, const int *dst, const int *src) {
  __shared__ __align__(128) char s[8192];
  int l = threadIdx.x;
  if (dst[l] < 0)
    return;  // an inactive lane: a single group's wavefronts
  unsigned a = (unsigned)__cvta_generic_to_shared(s) + dst[l] * W;
  const char *g = in + src[l] * W;
  if (CG)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g) : "memory");
  else if (W == 16)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g) : "memory");
  else if (W == 8)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(a), "l"(g) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a), "l"(g) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

int main(int argc, char **argv) {
  char *in;
  int *dst, *src;
  cudaMalloc(&in, 1 << 16);
  cudaMemset(in, 0, 1 << 16);
  cudaMalloc(&dst, sizeof(Dst));
  cudaMalloc(&src, sizeof(Src));
  cudaMemcpy(dst, Dst, sizeof(Dst), cudaMemcpyHostToDevice);
  cudaMemcpy(src, Src, sizeof(Src), cudaMemcpyHostToDevice);
  for (int p = 0; p < NL; ++p) {
    const int *d = dst + p * 32, *s = src + p * 32;
    if (Bypass[p])
      kc<16, true><<<1, 32>>>(in, d, s);
    else if (Width[p] == 16)
      kc<16, false><<<1, 32>>>(in, d, s);
    else if (Width[p] == 8)
      kc<8, false><<<1, 32>>>(in, d, s);
    else
      kc<4, false><<<1, 32>>>(in, d, s);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
