// The shared accesses behind three bank-conflict findings of ggml's
// whole-backend run (ggml d99724f2), reduced and written anew for the
// H200 with the constants of the instantiation shmem-lint reported; each
// kernel does one access only, so ncu's wavefronts per kernel are the
// access's, and each has a twin that avoids the conflict. run-case.sh
// fattn-banks measures them; test/lit/bank-conflict/fattn-banks-h200.test
// replays shmem-lint's side.
//
//  tileStore / tileLoad (fattn-tile.cuh, flash_attn_tile<112,112,4,8>):
//    KV_tmp rows are nbatch_K/2 + cpy_ne = 28 + 4 half2, 128 bytes: the
//    padding meant to spread the rows puts every row on the same banks.
//    The store is load_tile's last step (one 16-byte chunk per row, row =
//    lane), the load the K step's (16 bytes of row i_KQ = lane). Twin: rows
//    of 28 + 8 half2. The load uses all four words of each int4 (with two,
//    h200-fattn-banks.txt, ptxas split it into 4-byte LDS): one LDS.128 as
//    in ggml's instance, 32 wavefronts each (h100-fattn-banks.txt).
//  vecStore (fattn-vec.cuh:461 via common.cuh:813, flash_attn_ext_vec<64,
//    1, BF16, Q4_0>): two adjacent float2 stores per lane, lanes 4 words
//    apart; 2-way as two 8-byte stores, none if merged into one 16-byte
//    store. Twin: one 16-byte store.
//  metaLoad / metaStore (fattn-mma-f16.cuh:1505, 1545, flash_attn_ext_f16<
//    192,128,1,16>): warp 0 combines the meta data, a float2 per lane at
//    row jc = lane of rows 68 words apart. Twin: rows 66 words apart.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

template <int RowPad>
__global__ void __launch_bounds__(64) tileStore(const int4 *g, float *out) {
  __shared__ int4 KV_tmp[64 * (28 + RowPad) / 4 + 4];
  const int i = threadIdx.y * 32 + threadIdx.x; // stride_j = 1: a row each
  KV_tmp[(i * (28 + RowPad) + 6 * 4) / 4] = g[i];
  __syncthreads();
  out[i] = float(((const int *)KV_tmp)[i]);
}

template <int RowPad>
__global__ void __launch_bounds__(256) tileLoad(const int4 *g, float *out) {
  __shared__ int4 KV_tmp[64 * (28 + RowPad) / 4 + 4];
  int acc = 0;
#pragma unroll
  for (int k = 0; k < 28; k += 4)
#pragma unroll
    for (int i0 = 0; i0 < 64; i0 += 32) {
      int4 v = KV_tmp[((i0 + threadIdx.x) * (28 + RowPad) + k) / 4];
      acc += v.x ^ v.y ^ v.z ^ v.w; // All four: one LDS.128, as in ggml.
    }
  out[threadIdx.y * 32 + threadIdx.x] = float(acc);
}

// ggml_cuda_memcpy_1's 8- and 16-byte copies.
template <int nbytes>
__device__ __forceinline__ void copy1(void *__restrict__ dst,
                                      const void *__restrict__ src) {
  if constexpr (nbytes == 8)
    *(int2 *)dst = *(const int2 *)src;
  else
    *(int4 *)dst = *(const int4 *)src;
}

template <bool OneStore>
__global__ void __launch_bounds__(128) vecStore(const float2 *g, float *out) {
  __shared__ float KQ[512];
  float2 VKQ[2] = {g[threadIdx.x * 2], g[threadIdx.x * 2 + 1]};
  float2 *tmp = (float2 *)KQ + threadIdx.y * 64 + (threadIdx.x / 16) * 32;
  const int i = (threadIdx.x % 16) * 2;
  if (OneStore) {
    copy1<16>(tmp + i, VKQ);
  } else {
    copy1<8>(tmp + i, &VKQ[0]);
    copy1<8>(tmp + i + 1, &VKQ[1]);
  }
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = KQ[threadIdx.y * 32 + threadIdx.x];
}

// np = 2 warps of 16 columns: warp 0 combines, its lane l the meta data of
// column jc = l.
template <int Stride>
__global__ void __launch_bounds__(64) metaLoad(float *out) {
  __shared__ float2 tile[48 * Stride / 2 + 64];
  if (threadIdx.y % 2 == 0) {
    const int jc = threadIdx.y * 16 + threadIdx.x;
    float2 m = tile[jc * (Stride / 2) + 32];
    out[threadIdx.x] = m.x + m.y;
  }
}

template <int Stride>
__global__ void __launch_bounds__(64) metaStore(const float *g, float *out) {
  __shared__ float2 tile[48 * Stride / 2 + 64];
  if (threadIdx.y % 2 == 0) {
    const int jc = threadIdx.y * 16 + threadIdx.x;
    tile[jc * (Stride / 2) + 32] = make_float2(g[jc], 1.0f);
  }
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = ((const float *)tile)[threadIdx.x];
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  int4 *g;
  float *out;
  cudaMalloc(&g, 4096 * sizeof(int4));
  cudaMemset(g, 1, 4096 * sizeof(int4));
  cudaMalloc(&out, 1024 * sizeof(float));
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    printf("%s: %s\n", name, cudaGetErrorString(cudaDeviceSynchronize()));
  };
  const dim3 b2(32, 2), b4(32, 4), b8(32, 8);
  run("tileStore", [&] { tileStore<4><<<1, b2>>>(g, out); });
  run("tileStorePadded", [&] { tileStore<8><<<1, b2>>>(g, out); });
  run("tileLoad", [&] { tileLoad<4><<<1, b8>>>(g, out); });
  run("tileLoadPadded", [&] { tileLoad<8><<<1, b8>>>(g, out); });
  run("vecStore", [&] { vecStore<false><<<1, b4>>>((float2 *)g, out); });
  run("vecStoreOne", [&] { vecStore<true><<<1, b4>>>((float2 *)g, out); });
  run("metaLoad", [&] { metaLoad<68><<<1, b2>>>(out); });
  run("metaLoadPadded", [&] { metaLoad<66><<<1, b2>>>(out); });
  run("metaStore", [&] { metaStore<68><<<1, b2>>>((float *)g, out); });
  run("metaStorePadded", [&] { metaStore<66><<<1, b2>>>((float *)g, out); });
  return 0;
}
