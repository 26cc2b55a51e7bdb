// RUN: %check_all_front_ends %s shmem-race

// Reads of a TMA destination before the mbarrier phase that completes the
// copy. The kernels are those of bench/gpu/tma/tma.cu: on the H200 (1024
// blocks) readers that do not wait read the old contents in every block
// (noWait: 262,144 of 262,144 reads stale) and a wait by thread 0 followed
// by __syncthreads() orders every reader (waitThenSync: none stale).
// compute-sanitizer's racecheck reports neither.
#include "../Inputs/tma_helpers.h"

#define PROLOGUE                                                               \
  __shared__ alignas(1024) float tile[8][32];                                  \
  __shared__ uint64_t bar;                                                     \
  int t = threadIdx.x, r = t / 32, c = t % 32;                                 \
  if (t == 0) {                                                                \
    mbar_init(&bar, 1);                                                        \
    fence_proxy_async();                                                       \
  }                                                                            \
  __syncthreads();                                                             \
  if (t == 0) {                                                                \
    mbar_expect_tx(&bar, sizeof(tile));                                        \
    tma_load_2d(&tile[0][0], &tmap, 0, 0, &bar);                               \
  }

__global__ void everyoneWaits(const __grid_constant__ CUtensorMap tmap, float *out) {
  PROLOGUE
  mbar_wait(&bar, 0);
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

__global__ void noWait(const __grid_constant__ CUtensorMap tmap, float *out) {
  PROLOGUE
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: race with a TMA copy: thread 0 reads 'tile[0][0]' while the bulk tensor copy thread 0 issued at line [[@LINE-2]] may still be writing it; the copy is complete only after the wait at line [[@LINE+2]]: read after it [shmem-race]
  if (t == 0)
    mbar_wait(&bar, 0);
}

__global__ void waitThenSync(const __grid_constant__ CUtensorMap tmap, float *out) {
  PROLOGUE
  if (t == 0)
    mbar_wait(&bar, 0);
  __syncthreads();
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

__global__ void oneWaits(const __grid_constant__ CUtensorMap tmap, float *out) {
  PROLOGUE
  if (t == 0)
    mbar_wait(&bar, 0);
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: race with a TMA copy: thread 1 reads 'tile[0][1]' while the bulk tensor copy thread 0 issued at line [[@LINE-4]] may still be writing it; thread 1 does not wait on the mbarrier (line [[@LINE-2]]) and no __syncthreads() after that wait comes before the read: wait in every thread that reads the tile, or add __syncthreads() after the wait [shmem-race]
}

// A second stage's copy into the other half of a tile: waiting for the
// first stage's barrier does not complete it.
__global__ void twoStages(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tiles[2][8][32];
  __shared__ uint64_t bars[2];
  int t = threadIdx.x, r = t / 32, c = t % 32;
  if (t == 0) {
    mbar_init(&bars[0], 1);
    mbar_init(&bars[1], 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(&bars[0], sizeof(tiles[0]));
    tma_load_2d(&tiles[0][0][0], &tmap, 0, 0, &bars[0]);
    mbar_expect_tx(&bars[1], sizeof(tiles[1]));
    tma_load_2d(&tiles[1][0][0], &tmap, 0, 8, &bars[1]);
  }
  mbar_wait(&bars[0], 0);
  float a = tiles[0][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  float b = tiles[1][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: race with a TMA copy: thread 0 reads 'tiles[1][0][0]' while the bulk tensor copy thread 0 issued at line [[@LINE-5]] may still be writing it; the copy is complete only after the wait at line [[@LINE+1]]: read after it [shmem-race]
  mbar_wait(&bars[1], 0);
  out[t] = a + b + tiles[1][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

void launch(float *g, float *out) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  everyoneWaits<<<1, 256>>>(map, out);
  noWait<<<1, 256>>>(map, out);
  waitThenSync<<<1, 256>>>(map, out);
  oneWaits<<<1, 256>>>(map, out);
  twoStages<<<1, 256>>>(map, out);
}

// One elected lane of warp 0 issues the copy (CUTLASS's elect.sync): which
// lane is not known, the destination is, and the readers still must wait.
__device__ __forceinline__ int electOne() {
  int pred = 0;
  asm volatile("{\n\t.reg .pred P;\n\telect.sync _|P, %1;\n\t@P mov.s32 %0, 1;\n\t}"
               : "+r"(pred) : "r"(0xffffffff));
  return pred;
}

__global__ void elected(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t / 32 == 0 && electOne()) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(&tile[0][0], &tmap, 0, 0, &bar);
  }
  __syncthreads();
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: race with a TMA copy: thread 0 reads 'tile[0][0]' while the bulk tensor copy one thread issued at line [[@LINE-4]] may still be writing it; the copy is complete only after the wait at line [[@LINE+1]]: read after it [shmem-race]
  mbar_wait(&bar, 0);
  out[256 + t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

void launchElected(float *g, float *out) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  elected<<<1, 256>>>(map, out);
}

// A tensor map the file does not make: what is not analysed is said.
__global__ void mapFromElsewhere(const __grid_constant__ CUtensorMap tmap, float *out) {
  PROLOGUE
  // CHECK-MESSAGES: :[[@LINE-1]]:3: remark: the bytes of this TMA copy not analysed: no launch in this file passes 'tmap' a tensor map made by cuTensorMapEncodeTiled here [shmem-race]
  out[t] = tile[r][c];
}
