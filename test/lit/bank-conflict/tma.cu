// RUN: %check_all_front_ends %s shmem-bank-conflict

// A tile a TMA copy fills has the tensor map's layout: padding the array
// does not move the rows the copy writes, so the advice is the map's
// swizzle mode (bench/gpu/tma measures the swizzled column read at 4
// wavefronts against 32).
#include "../Inputs/tma_helpers.h"

__global__ void column(const __grid_constant__ CUtensorMap none, float *out) {
  __shared__ alignas(128) float tile[32][32];
  __shared__ uint64_t bar;
  int lane = threadIdx.x;
  if (lane == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (lane == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(&tile[0][0], &none, 0, 0, &bar);
  }
  mbar_wait(&bar, 0);
  out[lane] = tile[lane][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 32 words apart and 32 ≡ 0 (mod 32), so every lane maps to the same bank; 'tile' is filled by the TMA copy at line [[@LINE-4]] (32 x 32 box of 4-byte elements, SWIZZLE_NONE), which never pads rows: encode the tensor map with CU_TENSOR_MAP_SWIZZLE_128B and read 'tile' through the swizzle (the 16-byte chunk index XOR the row's 128-byte line) [shmem-bank-conflict]
  out[32 + lane] = tile[0][lane];
}

void launch(float *g, float *out) {
  CUtensorMap none;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 32};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&none, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  column<<<1, 32>>>(none, out);
}
