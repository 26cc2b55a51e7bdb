// The padded K/V tile of ggml's mma flash attention (fattn-mma-f16.cuh,
// flash_attn_ext_f16_load_tile through cp-async.cuh's cp_async_cg_16),
// reduced and written anew for the H200 with D = 64: rows of D/2 + 4 =
// 36 half2, 144 bytes. Each group of 8 lanes copies one 128-byte global
// line into one row with 16-byte cp.async.cg, and shmem-lint reports the
// copy (the shared side of LDGSTS.E.BYPASS.128 follows 128-byte rows, and
// a line that starts 16 bytes into one spans two: bench/gpu/ldgsts). The
// padding is there for the ldmatrix reads, which rows of exactly 128
// bytes would make 8-way. Three layouts, each copied and read in a kernel
// of its own, so that ncu's wavefronts per kernel are the instruction's:
//  copyPadded / ldsmPadded: ggml's 144-byte rows;
//  copyAligned / ldsmAligned: 128-byte rows, no padding;
//  copySwizzled / ldsmSwizzled: 128-byte rows, the 16-byte chunk XORed
//    with the row (both sides), which neither instruction should pay for.
// run-case.sh cp-async-rows measures them;
// test/lit/bank-conflict/cp-async-rows.test replays shmem-lint's side.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// 16 rows of Stride bytes: the 4 warps of a 32 x 4 block copy 4 rows each.
template <int Stride, bool Swizzled>
__global__ void __launch_bounds__(128) copyRows(const int4 *g, float *out) {
  __shared__ __align__(128) int4 tile[16 * Stride / 16];
  const int i = threadIdx.y * 4 + threadIdx.x / 8; // ggml's stride_k = 8
  const int k = threadIdx.x % 8;
  const int chunk = Swizzled ? k ^ (i % 8) : k;
  const unsigned dst =
      (unsigned)__cvta_generic_to_shared(tile + (i * Stride + chunk * 16) / 16);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :
               : "r"(dst), "l"(g + i * 8 + k));
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  const int t = threadIdx.y * 32 + threadIdx.x;
  out[t] = ((const float *)tile)[t]; // One word a lane: no conflict.
}

// load_ldmatrix of a 16 x 8 half2 fragment (x4): lane l gives row l % 16,
// 16-byte chunk l / 16, of the same tile.
template <int Stride, bool Swizzled>
__global__ void __launch_bounds__(32) ldsmRows(float *out) {
  __shared__ __align__(128) int4 tile[16 * Stride / 16];
  const int row = threadIdx.x % 16;
  const int k = threadIdx.x / 16;
  const int chunk = Swizzled ? k ^ (row % 8) : k;
  const unsigned a = (unsigned)__cvta_generic_to_shared(
      tile + (row * Stride + chunk * 16) / 16);
  unsigned r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, "
               "[%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(a));
  out[threadIdx.x] = float(r0 + r1 + r2 + r3);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  int4 *g;
  float *out;
  cudaMalloc(&g, 256 * sizeof(int4));
  cudaMemset(g, 1, 256 * sizeof(int4));
  cudaMalloc(&out, 1024 * sizeof(float));
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    printf("%s: %s\n", name, cudaGetErrorString(cudaDeviceSynchronize()));
  };
  const dim3 b4(32, 4);
  run("copyPadded", [&] { copyRows<144, false><<<1, b4>>>(g, out); });
  run("copyAligned", [&] { copyRows<128, false><<<1, b4>>>(g, out); });
  run("copySwizzled", [&] { copyRows<128, true><<<1, b4>>>(g, out); });
  run("ldsmPadded", [&] { ldsmRows<144, false><<<1, 32>>>(out); });
  run("ldsmAligned", [&] { ldsmRows<128, false><<<1, 32>>>(out); });
  run("ldsmSwizzled", [&] { ldsmRows<128, true><<<1, 32>>>(out); });
  return 0;
}
