// RUN: %check_all_front_ends %s shmem-out-of-bounds

// A TMA copy writes its box in the tensor map's layout: with a swizzle mode
// every row takes at least the swizzle span. Measured on the H200
// (bench/gpu/tma, tma-footprint-h200.tsv): an 8 x 16 float box (64-byte
// rows) loaded with SWIZZLE_128B touches 1024 bytes, not 512.
#include "../Inputs/tma_helpers.h"

template <int Rows, int Cols>
__device__ void load(float (&tile)[Rows][Cols], const CUtensorMap &map,
                     uint64_t *bar) {
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_expect_tx(bar, sizeof(tile));
    tma_load_2d(&tile[0][0], &map, 0, 0, bar);
  }
  mbar_wait(bar, 0);
}

// Sized by the box: too small for the 128-byte rows the swizzle takes.
__global__ void sizedByBox(const __grid_constant__ CUtensorMap narrow128, float *out) {
  __shared__ alignas(1024) float tile[8][16];
  __shared__ uint64_t bar;
  load(tile, narrow128, &bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the TMA copy at line [[@LINE-1]] (8 x 16 box of 4-byte elements, SWIZZLE_128B) writes 1024 bytes into 'tile' from byte 0 (8 rows of 128 bytes; a box row of 64 bytes still takes the whole 128-byte span of SWIZZLE_128B), 512 bytes past the end of 'tile' (512 bytes, 'float[8][16]') [shmem-out-of-bounds]
  out[threadIdx.x] = tile[0][0];
}

// The same box without a swizzle fits.
__global__ void fits(const __grid_constant__ CUtensorMap narrowNone, float *out) {
  __shared__ alignas(128) float tile[8][16];
  __shared__ uint64_t bar;
  load(tile, narrowNone, &bar);
  out[threadIdx.x] = tile[0][0];
}

template <CUtensorMapSwizzle Swizzle> CUtensorMap narrow(float *g) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {16, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void launch(float *g, float *out) {
  sizedByBox<<<1, 128>>>(narrow<CU_TENSOR_MAP_SWIZZLE_128B>(g), out);
  fits<<<1, 128>>>(narrow<CU_TENSOR_MAP_SWIZZLE_NONE>(g), out);
}
