// The shared stores behind the two bank-conflict findings of ggml's
// whole-backend run that appeared when the walk began to follow calls
// through constexpr function pointers (mmq takes `load_tiles` from a
// traits table), reduced and written anew with the constants of the
// instantiation shmem-lint reported: ggml d99724f2,
// mmq-load-tiles.cuh:1705 and 1709, `ggml_cuda_mmq_load_tiles_nvfp4` in
// mul_mat_q<GGML_TYPE_NVFP4, 8, false>, MMA data layout (sm_75 and up),
// sram_stride = 2*32 + 32/2 + 4 = 84 ints. A warp loads 8 rows of the
// tile, 4 lanes a row (kbx = lane % 4, row = lane / 4); each lane stores
// 16 ints of quants per sub-block step at row*84 + 16*kbx + 4*sub (four
// adjacent int stores, one 16-byte store) and a float scale at
// 64 + row*84 + 4*kbx + sub. Each kernel does one such store, so ncu's
// wavefronts per kernel are that store's; twins permute the words within
// a row or change the row stride. Measured on an H100 on 2026-12-06
// (h100-mmq-nvfp4.txt): 8, 8, 4, 4 and 1 wavefronts, in the order below.
//
//  qsStore: 16-byte stores; lanes 0 and 2 of each quarter warp are 32 ints
//    apart (kbx 0 and 2 of one row): 2-way, 8 wavefronts instead of 4.
//    qsStoreInterleaved (4*kbx + 16*sub, each row's lanes on 16
//    contiguous ints) is 2-way as well: with rows 84 = 20 (mod 32) ints
//    apart, the two rows of a quarter warp overlap on 4 banks, so no
//    order of the words within a row helps. qsStoreRows80, the same with
//    rows 80 = 16 (mod 32) ints apart, is conflict-free (ggml asserts
//    sram_stride = 4 (mod 8), the padding its tile reads are made for).
//  dfStore: 4-byte stores; 84 = 20 (mod 32) and 4*kbx keep every word in
//    the 8 banks that are multiples of 4: 4-way, 4 wavefronts instead of 1.
//    Twin (dfStoreInterleaved): 4*sub + kbx, conflict-free.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

constexpr int SramStride = 2 * 32 + 32 / 2 + 4; // 84

// The three 16-byte stores are spelled out in three kernels, not one
// template or helper: shmem-lint reports a source location once, so a
// shared line would show only the first variant's degree, and the test
// (test/lit/bank-conflict/mmq-nvfp4-h100.test) checks each.
__global__ void __launch_bounds__(32) qsStore(const int4 *g, int *out) {
  // 16-byte aligned, as dynamic shared memory is.
  __shared__ __align__(16) int x_qs[8 * SramStride];
  const int kbx = threadIdx.x % 4, row = threadIdx.x / 4, sub = 0;
  const int4 q = g[threadIdx.x];
  int *dst = x_qs + row * SramStride + 16 * kbx + 4 * sub;
  dst[0] = q.x;
  dst[1] = q.y;
  dst[2] = q.z;
  dst[3] = q.w;
  __syncthreads();
  out[threadIdx.x] = x_qs[threadIdx.x * 3];
}

__global__ void __launch_bounds__(32) qsStoreInterleaved(const int4 *g,
                                                         int *out) {
  __shared__ __align__(16) int x_qs[8 * SramStride];
  const int kbx = threadIdx.x % 4, row = threadIdx.x / 4, sub = 0;
  const int4 q = g[threadIdx.x];
  int *dst = x_qs + row * SramStride + 4 * kbx + 16 * sub;
  dst[0] = q.x;
  dst[1] = q.y;
  dst[2] = q.z;
  dst[3] = q.w;
  __syncthreads();
  out[threadIdx.x] = x_qs[threadIdx.x * 3];
}

__global__ void __launch_bounds__(32) qsStoreRows80(const int4 *g, int *out) {
  __shared__ __align__(16) int x_qs[8 * 80];
  const int kbx = threadIdx.x % 4, row = threadIdx.x / 4, sub = 0;
  const int4 q = g[threadIdx.x];
  int *dst = x_qs + row * 80 + 4 * kbx + 16 * sub;
  dst[0] = q.x;
  dst[1] = q.y;
  dst[2] = q.z;
  dst[3] = q.w;
  __syncthreads();
  out[threadIdx.x] = x_qs[threadIdx.x * 3];
}

template <bool Interleaved>
__global__ void __launch_bounds__(32) dfStore(const float *g, float *out) {
  __shared__ float x_tile[64 + 8 * SramStride];
  float *x_df = x_tile + 64;
  const int kbx = threadIdx.x % 4, row = threadIdx.x / 4, sub = 0;
  const int col = Interleaved ? 4 * sub + kbx : 4 * kbx + sub;
  x_df[row * SramStride + col] = g[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = x_tile[threadIdx.x * 3];
}

int main(int argc, char **argv) {
  const char *v = argc > 1 ? argv[1] : "all";
  int4 *g;
  int *out;
  cudaMalloc(&g, 32 * sizeof(int4));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(g, 1, 32 * sizeof(int4));
  bool all = !strcmp(v, "all");
  if (all || !strcmp(v, "qsStore"))
    qsStore<<<1, 32>>>(g, out);
  if (all || !strcmp(v, "qsStoreInterleaved"))
    qsStoreInterleaved<<<1, 32>>>(g, out);
  if (all || !strcmp(v, "qsStoreRows80"))
    qsStoreRows80<<<1, 32>>>(g, out);
  if (all || !strcmp(v, "dfStore"))
    dfStore<false><<<1, 32>>>((const float *)g, (float *)out);
  if (all || !strcmp(v, "dfStoreInterleaved"))
    dfStore<true><<<1, 32>>>((const float *)g, (float *)out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", v, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
