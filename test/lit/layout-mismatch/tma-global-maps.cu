// RUN: %check_all_front_ends %s shmem-layout-mismatch

// Tensor maps that reach the kernel through global or constant memory, as
// pranjalssh/fast.cu's kernels 2-6 pass them: a helper encodes a host map,
// copies it into cudaMalloc'd memory with cudaMemcpy and returns the device
// pointer, a global pointer keeps it, and the kernel takes
// `const CUtensorMap *`, launched through a pointer chosen by `?:`. And a
// `__constant__` map filled by cudaMemcpyToSymbol. The layout is the encode's
// either way: the plain read of the 128B-swizzled box gets 224 of 256
// elements wrong, as with a __grid_constant__ map (layout-mismatch/tma.cu).
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
    tma_load_2d(TILE, MAP, 0, 0, &bar);                                        \
  }                                                                            \
  mbar_wait(&bar, 0);

template <bool Plain>
__global__ void viaPointer(const CUtensorMap *map, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], map)
  if (Plain)
    out[t] = tile[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[1][0]' as element (1, 0), but the TMA copy at line [[@LINE-3]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][4]' and 'tile[1][0]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
  else
    out[t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

__constant__ CUtensorMap constMap;

__global__ void viaConstant(float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], &constMap)
  out[t] = tile[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[1][0]' as element (1, 0), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][4]' and 'tile[1][0]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
}

// Not swizzled: the plain read is right.
__global__ void viaPointerPlain(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float tile[8][32];
  LOAD(&tile[0][0], map)
  out[t] = tile[r][c];
}

// Launched through a variadic helper (gau-nernst/learn-cuda's
// launch_kernel): the kernel and the map reach the launch as the helper's
// parameters.
__global__ void viaHelper(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], &map)
  out[t] = tile[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'tile' is read through a different layout than it was written with: thread 32 reads 'tile[1][0]' as element (1, 0), but the TMA copy at line [[@LINE-2]] (8 x 32 box of 4-byte elements, SWIZZLE_128B) put element (1, 0) at 'tile[1][4]' and 'tile[1][0]' holds element (1, 4) (224 of 256 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the copy lays 'tile' out with SWIZZLE_128B: read element (r, c) as tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4]
}

template <typename Kernel, typename... Args>
void launchKernel(Kernel *kernel, int blocks, int threads, Args... args) {
  kernel<<<blocks, threads>>>(args...);
}

// A map pointer the file does not fill: what is not analysed is said.
__global__ void fromCaller(const CUtensorMap *map, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  LOAD(&tile[0][0], map)
  // CHECK-MESSAGES: :[[@LINE-1]]:3: remark: the bytes of this TMA copy not analysed: no launch in this file passes 'map' a tensor map made by cuTensorMapEncodeTiled here [shmem-layout-mismatch]
  out[t] = tile[r][c];
}

template <CUtensorMapSwizzle Swizzle>
void encodeInto(CUtensorMap *map, float *g) {
  cuuint64_t dims[2] = {256, 64};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, Swizzle,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <CUtensorMapSwizzle Swizzle>
CUtensorMap *allocateMap(float *g) {
  CUtensorMap *device;
  cudaMalloc(&device, sizeof(CUtensorMap));
  CUtensorMap host;
  encodeInto<Swizzle>(&host, g);
  cudaMemcpy(device, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  return device;
}

CUtensorMap *swizzledMap = 0;
CUtensorMap *plainMap = nullptr;

void launch(float *g, float *out, bool plain) {
  if (!swizzledMap)
    swizzledMap = allocateMap<CU_TENSOR_MAP_SWIZZLE_128B>(g);
  plainMap = allocateMap<CU_TENSOR_MAP_SWIZZLE_NONE>(g);
  auto *kernel = plain ? viaPointer<true> : viaPointer<false>;
  kernel<<<1, 256>>>(swizzledMap, out);
  viaPointerPlain<<<1, 256>>>(plainMap, out);
  CUtensorMap host;
  encodeInto<CU_TENSOR_MAP_SWIZZLE_128B>(&host, g);
  cudaMemcpyToSymbol(constMap, &host, sizeof(CUtensorMap));
  viaConstant<<<1, 256>>>(out);
}

void launchThroughHelper(float *g, float *out) {
  CUtensorMap map;
  encodeInto<CU_TENSOR_MAP_SWIZZLE_128B>(&map, g);
  auto kernel = viaHelper;
  launchKernel(kernel, 1, 256, map, out);
}

void launchGiven(const CUtensorMap *given, float *out) {
  fromCaller<<<1, 256>>>(given, out);
}
