// RUN: %check_all_front_ends %s shmem-layout-mismatch

// Reads of tiles that TMA copies filled, against the layout the tensor map
// gives them. readPlain and readSwizzled are bench/gpu/tma/tma.cu's kernels:
// on the H200, tile[r][c] of the 128B-swizzled box gets 224 of 256 elements
// wrong per block, the swizzled read none; a destination 128 bytes past a
// 1024-byte boundary is swizzled as from the boundary (all 256 wrong
// relative to the tile), one 16 bytes off fails with 'misaligned address'.
#include "../Inputs/tma_helpers.h"

#define LOAD(TILE, MAP)                                                        \
  __shared__ uint64_t bar;                                                     \
  int t = threadIdx.x, r = t / 32, c = t % 32;                                 \
  if (t == 0) {                                                                \
    mbar_init(&bar, 1);                                                        \
    fence_proxy_async();                                                       \
  }                                                                            \
  __syncthreads();                                                             \
  if (t == 0) {                                                                \
    mbar_expect_tx(&bar, 1024);                                                \
    tma_load_2d(TILE, &MAP, 0, 0, &bar);                                       \
  }                                                                            \
  mbar_wait(&bar, 0);

__global__ void readPlain(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  out[t] = tile[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[1][0]' as element (1, 0), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][4]' and 'tile[1][0]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
}

__global__ void readSwizzled(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

// A flat tile read row-major: the same mistake.
__global__ void readFlat(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[256];
  LOAD(tile, sw128)
  out[t] = tile[t];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[32]' as element (1, 0), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[36]' and 'tile[32]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r * 32 + ((c / 4) ^ (r % 8)) * 4 + c % 4]
}

// No swizzle: a plain read is right, a padded tile is not (TMA never pads).
__global__ void plain(const __grid_constant__ CUtensorMap none, float *out) {
  __shared__ alignas(128) float tile[8][32];
  LOAD(&tile[0][0], none)
  out[t] = tile[r][c];
}

__global__ void padded(const __grid_constant__ CUtensorMap none, float *out) {
  __shared__ alignas(128) float tile[8][33];
  LOAD(&tile[0][0], none)
  out[t] = tile[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[1][0]' as element (1, 0), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_NONE) put element (1, 0) at 'tile[0][32]' and 'tile[1][0]' holds element (1, 1) (217 of 249 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy writes rows of 128 bytes, and 'tile' has rows of 132: a TMA box is never padded; declare the rows as 32 elements (a swizzle mode, not padding, avoids bank conflicts)
}

// SWIZZLE_64B over rows of 16 floats: two rows per 128 bytes.
__global__ void swizzle64(const __grid_constant__ CUtensorMap sw64, float *out) {
  __shared__ alignas(512) float tile[16][16];
  LOAD(&tile[0][0], sw64)
  int rr = t / 16, cc = t % 16;
  out[t] = tile[rr][((cc / 4) ^ ((rr / 2) % 4)) * 4 + cc % 4];
  out[256 + t] = tile[rr][cc];
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[2][0]' as element (2, 0), but the TMA copy at line [[@LINE-4]] (16 x 16 box of 4-byte elements, SWIZZLE_64B) put element (2, 0) at 'tile[2][4]' and 'tile[2][0]' holds element (2, 4) (192 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the copy lays 'tile' out with SWIZZLE_64B: read element (r, c) as tile[rr][((cc / 4) ^ ((rr / 2) % 4)) * 4 + cc % 4]
}

// SWIZZLE_32B over rows of 8 floats (32 bytes): the chunk XORed with
// (r / 4) % 2, as the H200's layout table has it for 32B boxes
// (TmaLayoutCalibrationTest): the plain read is wrong in rows 4-7 of every
// 8, the swizzled one right.
__global__ void swizzle32(const __grid_constant__ CUtensorMap sw32, float *out) {
  __shared__ alignas(256) float tile[32][8];
  LOAD(&tile[0][0], sw32)
  int rr = t / 8, cc = t % 8;
  out[t] = tile[rr][((cc / 4) ^ ((rr / 4) % 2)) * 4 + cc % 4];
  out[256 + t] = tile[rr][cc];
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[4][0]' as element (4, 0), but the TMA copy at line [[@LINE-4]] (32 x 8 box of 4-byte elements, SWIZZLE_32B) put element (4, 0) at 'tile[4][4]' and 'tile[4][0]' holds element (4, 4) (128 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the copy lays 'tile' out with SWIZZLE_32B: read element (r, c) as tile[rr][((cc / 4) ^ ((rr / 4) % 2)) * 4 + cc % 4]
}

// Reads through a swizzle formula judge the element the index means without
// its XOR against the one the copy put there (bench/gpu/tma/tma.cu's
// readWrongMask and readElementXor: 128 and 224 of 256 wrong on the H200).
__global__ void wrongMask(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  out[t] = tile[r][((c / 4) ^ (r % 4)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different swizzle than it was written with: thread 128 reads 'tile[4][0]' as element (4, 0) (its index without the XOR), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (4, 0) at 'tile[4][16]' and 'tile[4][0]' holds element (4, 16) (128 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
}

__global__ void elementXor(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  out[t] = tile[r][c ^ (r % 8)];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different swizzle than it was written with: thread 32 reads 'tile[1][1]' as element (1, 0) (its index without the XOR), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][4]' and 'tile[1][1]' holds element (1, 5) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
}

// A flat tile: right through the swizzle, wrong through another.
__global__ void flatXor(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[256];
  LOAD(tile, sw128)
  out[t] = tile[r * 32 + ((c / 4) ^ (r % 8)) * 4 + c % 4];
  out[256 + t] = tile[r * 32 + ((c / 4) ^ (r / 2)) * 4 + c % 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'tile' is read through a different swizzle than it was written with: thread 32 reads 'tile[32]' as element (1, 0) (its index without the XOR), but the TMA copy at line [[@LINE-3]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[36]' and 'tile[32]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r * 32 + ((c / 4) ^ (r % 8)) * 4 + c % 4]
}

// 2-byte elements: a 16-byte chunk is 8 of them, so CUTLASS's
// `c ^ ((r % 8) << 3)` is the 128B swizzle, and `<< 2` is not.
__global__ void halves(const __grid_constant__ CUtensorMap h128, unsigned short *out) {
  __shared__ alignas(1024) unsigned short tile[8][64];
  LOAD(&tile[0][0], h128)
  int cc = c * 2;
  out[t] = tile[r][cc ^ ((r % 8) << 3)];
  out[256 + t] = tile[r][cc ^ ((r % 8) << 2)];
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'tile' is read through a different swizzle than it was written with: thread 32 reads 'tile[1][4]' as element (1, 0) (its index without the XOR), but the TMA copy at line [[@LINE-4]] (8 x 64 box of 2-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][8]' and 'tile[1][4]' holds element (1, 12) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 8) ^ (r % 8)) * 8 + c % 8]
}

// An XOR with no row in it (a neighbour exchange) is not a swizzle: the
// read is not judged.
__global__ void neighbour(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4] + tile[r][c ^ 1];
}

// The swizzle follows the shared address: a tile 128 bytes past the
// boundary, or one whose alignment does not promise the boundary.
__global__ void offBoundary(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(1024) float buf[9][32];
  LOAD(&buf[1][0], sw128)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'buf' is laid out by the TMA copy at line [[@LINE-1]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) from byte 128, which is not on a 1024-byte boundary: SWIZZLE_128B swizzles by the bits of the shared address, so the tile is swizzled as if it started 128 bytes earlier and every read through the swizzle formula gets another element; place the tile on a 1024-byte boundary [shmem-layout-mismatch]
  out[t] = buf[1 + r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

__global__ void underAligned(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(16) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'tile' is aligned to 16 bytes only, but the TMA copy at line [[@LINE-1]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) swizzles by the bits of the shared address, which is the pattern a read expects only from a 1024-byte boundary: declare 'tile' alignas(1024) [shmem-layout-mismatch]
  out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

// A tile only wgmma reads (through a descriptor, as pranjalssh/fast.cu's
// kernels 2-7 do) is not judged for the boundary: no read here computes
// the swizzle from its start.
__global__ void wgmmaOnly(const __grid_constant__ CUtensorMap sw128, float *out) {
  __shared__ alignas(128) float tile[8][32];
  LOAD(&tile[0][0], sw128)
  uint64_t desc = (smemAddr(tile) & 0x3FFFF) >> 4;
  asm volatile("// wgmma.mma_async would read %0" ::"l"(desc));
}

__global__ void misaligned(const __grid_constant__ CUtensorMap none, float *out) {
  __shared__ alignas(1024) float buf[264];
  LOAD(&buf[4], none)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: TMA destination not 128-byte aligned: the TMA copy at line [[@LINE-1]] (8 x 32 box of 4-byte elements, SWIZZLE_NONE) writes to 'buf' at byte 16; a bulk tensor copy needs a 128-byte aligned destination, and the launch fails with 'misaligned address' (measured on the H200 with a 16-byte offset) [shmem-layout-mismatch]
  out[t] = buf[4 + t];
}

static CUtensorMap encode(float *g, cuuint32_t cols, cuuint32_t rows,
                          CUtensorMapSwizzle swizzle);

template <int Cols, int Rows, CUtensorMapSwizzle Swizzle>
CUtensorMap makeMap(float *g) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {Cols, Rows};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

CUtensorMap makeHalfMap(unsigned short *g) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(unsigned short)};
  cuuint32_t box[2] = {64, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return map;
}

void launchHalves(unsigned short *g, unsigned short *out) {
  CUtensorMap h128 = makeHalfMap(g);
  halves<<<1, 256>>>(h128, out);
}

void launch(float *g, float *out) {
  CUtensorMap sw128 = makeMap<32, 8, CU_TENSOR_MAP_SWIZZLE_128B>(g);
  CUtensorMap none = makeMap<32, 8, CU_TENSOR_MAP_SWIZZLE_NONE>(g);
  CUtensorMap sw64 = makeMap<16, 16, CU_TENSOR_MAP_SWIZZLE_64B>(g);
  readPlain<<<1, 256>>>(sw128, out);
  readSwizzled<<<1, 256>>>(sw128, out);
  readFlat<<<1, 256>>>(sw128, out);
  plain<<<1, 256>>>(none, out);
  padded<<<1, 256>>>(none, out);
  swizzle64<<<1, 256>>>(sw64, out);
  offBoundary<<<1, 256>>>(sw128, out);
  underAligned<<<1, 256>>>(sw128, out);
  misaligned<<<1, 256>>>(none, out);
  wrongMask<<<1, 256>>>(sw128, out);
  elementXor<<<1, 256>>>(sw128, out);
  flatXor<<<1, 256>>>(sw128, out);
  neighbour<<<1, 256>>>(sw128, out);
  wgmmaOnly<<<1, 256>>>(sw128, out);
  CUtensorMap sw32 = makeMap<8, 32, CU_TENSOR_MAP_SWIZZLE_32B>(g);
  swizzle32<<<1, 256>>>(sw32, out);
}
