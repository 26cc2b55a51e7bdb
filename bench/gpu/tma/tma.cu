// TMA (cp.async.bulk.tensor) tiles with swizzle modes on the GPU machine
// (run.sh): where the hardware puts each element of a box in shared memory,
// what a misaligned destination does, what reading a swizzled tile with and
// without the swizzle gives, what reading it before the mbarrier completes
// gives, and the bank conflicts of plain against swizzled column reads.
//
//   ./tma <test> [blocks]
//
//   layout        every element's byte offset for {none, 32B, 64B, 128B}
//                 swizzle x {4, 2}-byte elements x box widths x {8, 16} rows;
//                 writes tma-layout.tsv and checks the XOR formula
//   misaligned    128B swizzle into buffer+0 (control), +128 and +16
//   readPlain     8x32 float tile, 128B swizzle, read as tile[r][c]
//   readSwizzled  the same read through the 128B swizzle: all right
//   noWait        readers do not wait on the mbarrier: stale reads (a race)
//   waitThenSync  thread 0 waits, then __syncthreads(): all right
//   bankPlain     one warp reads column 0 down 32 rows, unswizzled index
//   bankSwizzled  the same column through the swizzle (for ncu)
//   readWrongMask the 8x32 tile through ((c/4) ^ (r%4))*4 + c%4: the XOR
//                 of SWIZZLE_64B applied to a SWIZZLE_128B tile
//   readElementXor the tile through c ^ (r%8): elements XORed, not chunks
//   readGlobalMap readPlain with the map in global memory (cudaMemcpy'd,
//                 passed as const CUtensorMap *): the same layout
//   pipelineReleased / pipelineNoRelease
//                 a warp-specialised 3-stage pipeline, 6 iterations: one
//                 producer thread, 256 consumers; before refilling a stage
//                 the producer waits on its "empty" mbarrier (released by
//                 the consumers), or only for its own earlier copy there
//   placement     the shared addresses nvcc gives alignas(128) tiles and a
//                 dynamic buffer after static barriers (pranjalssh/fast.cu's
//                 kernels 2-7 swizzle such tiles by 128B)
//
// The device side is inline PTX only (no cuda::barrier or cuda::ptx), in one
// small helper per instruction, so that what shmem-lint must recognise is
// exactly the PTX that CUTLASS-style kernels write. Every tensor map is
// encoded with cuTensorMapEncodeTiled from constant arrays in the host
// function that launches its kernel, so the analyser can follow the map from
// the encode call to the launch.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// ---------------------------------------------------------------------------
// Device helpers, one PTX instruction each.

__device__ __forceinline__ unsigned smemAddr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Arrival count `count`; the phase completes when that many arrivals and
// every expected transaction byte have come in.
__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
               :
               : "r"(smemAddr(bar)), "r"(count)
               : "memory");
}

// Orders this thread's earlier generic-proxy shared accesses (the mbarrier
// init, the fill of a buffer) before later async-proxy (TMA) accesses.
__device__ __forceinline__ void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// One arrival that also raises the phase's expected transaction count by
// `bytes`; the TMA's complete_tx then counts them down.
__device__ __forceinline__ void mbar_expect_tx(uint64_t *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               :
               : "r"(smemAddr(bar)), "r"(bytes)
               : "memory");
}

// The box at coordinates (c0 innermost, c1) of the tensor map into dst;
// completion is signalled as transaction bytes on bar. The map is the
// kernel parameter itself (__grid_constant__), passed by generic address.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *tmap,
                                            int c0, int c1, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
               ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :
               : "r"(smemAddr(dst)),
                 "l"(reinterpret_cast<uint64_t>(tmap)), "r"(c0), "r"(c1),
                 "r"(smemAddr(bar))
               : "memory");
}

// Whether the phase of parity `phase` has completed (may suspend a while).
__device__ __forceinline__ bool mbar_try_wait(uint64_t *bar, unsigned phase) {
  unsigned done;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t"
               "}"
               : "=r"(done)
               : "r"(smemAddr(bar)), "r"(phase)
               : "memory");
  return done != 0;
}

// Blocks until the phase of parity `phase` has completed. The loop is in
// the asm (as CUTLASS writes it); the braces scope the label, so the helper
// can be inlined more than once per kernel.
__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smemAddr(bar))
               : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned phase) {
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "MBAR_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra MBAR_WAIT;\n\t"
               "}"
               :
               : "r"(smemAddr(bar)), "r"(phase)
               : "memory");
}

// mbar_wait with a time limit, for the probes whose copies may never
// complete (a misaligned destination, a guessed byte count): false when
// about two seconds pass first. The kernel then exits with the copy still
// outstanding, which is only acceptable because the result is discarded.
__device__ bool mbar_wait_bounded(uint64_t *bar, unsigned phase) {
  long long t0 = clock64();
  while (!mbar_try_wait(bar, phase))
    if (clock64() - t0 > 4000000000LL)
      return false;
  return true;
}

// ---------------------------------------------------------------------------
// Layout probes.

constexpr int kProbeBytes = 32 * 1024;
constexpr int kProbeThreads = 128;

// Fills buf with 0xFF, loads the box at (0,0) to buf + dstOffset, waits, and
// copies all of buf to out (info[0]: buf's shared address, info[1]: whether
// the copy completed), so the host sees every byte the copy touched.
__device__ void probeBody(unsigned char *buf, uint64_t *bar,
                          const CUtensorMap *tmap, uint4 *out, unsigned *info,
                          unsigned bytes, unsigned dstOffset) {
  int tid = threadIdx.x;
  uint4 *b4 = reinterpret_cast<uint4 *>(buf);
  for (int i = tid; i < kProbeBytes / 16; i += blockDim.x)
    b4[i] = make_uint4(~0u, ~0u, ~0u, ~0u);
  // Each filling thread orders its stores before the TMA's writes.
  fence_proxy_async();
  if (tid == 0)
    mbar_init(bar, 1);
  fence_proxy_async();
  __syncthreads();
  if (tid == 0) {
    mbar_expect_tx(bar, bytes);
    tma_load_2d(buf + dstOffset, tmap, 0, 0, bar);
  }
  bool done = mbar_wait_bounded(bar, 0);
  __syncthreads();
  for (int i = tid; i < kProbeBytes / 16; i += blockDim.x)
    out[i] = b4[i];
  if (tid == 0) {
    info[0] = smemAddr(buf);
    info[1] = done;
  }
}

// Shows where each box element lands for the map's swizzle mode, with the
// destination at a 1024-byte-aligned buffer (the 128B pattern repeats every
// 8 rows x 128 bytes, so at 1024 it starts with the buffer; CUTLASS aligns
// swizzled tiles so).
__global__ void layoutProbe(const __grid_constant__ CUtensorMap tmap,
                            uint4 *out, unsigned *info, unsigned bytes) {
  __shared__ alignas(1024) unsigned char buf[kProbeBytes];
  __shared__ alignas(8) uint64_t bar;
  probeBody(buf, &bar, &tmap, out, info, bytes, 0);
}

// The same with the destination dstOffset bytes into the buffer: whether a
// 128-byte-aligned (but not 1024) or a 16-byte-aligned destination faults,
// and if not, whether the swizzle follows the destination or the address.
__global__ void misalignedProbe(const __grid_constant__ CUtensorMap tmap,
                                uint4 *out, unsigned *info, unsigned bytes,
                                unsigned dstOffset) {
  __shared__ alignas(1024) unsigned char buf[kProbeBytes];
  __shared__ alignas(8) uint64_t bar;
  probeBody(buf, &bar, &tmap, out, info, bytes, dstOffset);
}

// ---------------------------------------------------------------------------
// Reading an 8x32 float tile loaded with the 128B swizzle. Element (r, c)
// sits at 16-byte chunk (c/4) ^ (r%8) of row r.

// Thread 0 inits the mbarrier and issues the copy; every thread waits.
// tile[r][c] is right only in row 0 (where the XOR is 0): shows that an
// unswizzled index into a swizzled tile reads the wrong elements (no race).
__global__ void readPlain(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ alignas(8) uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
  }
  mbar_wait(&bar, 0);
  out[blockIdx.x * 256 + t] = tile[r][c];
}

// The same read through the swizzle: every thread gets element (r, c).
__global__ void readSwizzled(const __grid_constant__ CUtensorMap tmap,
                             float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ alignas(8) uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
  }
  mbar_wait(&bar, 0);
  out[blockIdx.x * 256 + t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

// The readers do not wait for the copy: they race with the TMA's writes
// and mostly read the -1 fill. This race is the point of the kernel. Thread
// 0 waits after its read so that no copy is outstanding at exit.
__global__ void noWait(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ alignas(8) uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  tile[r][c] = -1.0f;
  fence_proxy_async(); // the fill before the TMA's writes (no WAW race)
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
  }
  out[blockIdx.x * 256 + t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
  if (t == 0)
    mbar_wait(&bar, 0);
}

// Only thread 0 waits; __syncthreads() then carries the completion to the
// other threads: every read is right (no race), the fill never shows.
__global__ void waitThenSync(const __grid_constant__ CUtensorMap tmap,
                             float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ alignas(8) uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  tile[r][c] = -1.0f;
  fence_proxy_async();
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (t == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
    mbar_wait(&bar, 0);
  }
  __syncthreads();
  out[blockIdx.x * 256 + t] = tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
}

// ---------------------------------------------------------------------------
// Bank conflicts of a column read from a 32x32 float tile loaded with the
// 128B swizzle, one warp. Lane l reads row (l + i) % 32 in iteration i (a
// rotation, so the warp's access pattern is the same every iteration but
// the load cannot be hoisted out of the loop): 64 shared loads on one line.

// Unswizzled index: every lane's word is in bank 0, a 32-way conflict (32
// wavefronts per load); the values are the wrong elements.
__global__ void bankPlain(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tile[32][32];
  __shared__ alignas(8) uint64_t bar;
  int l = threadIdx.x;
  if (l == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (l == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
  }
  mbar_wait(&bar, 0);
  float sum = 0;
#pragma unroll 1
  for (int i = 0; i < 64; ++i) {
    int r = (l + i) % 32;
    sum += tile[r][0];
  }
  out[l] = sum;
}

// Through the swizzle: column 0 of row r is in chunk r % 8, i.e. banks
// 4*(r%8); lanes l, l+8, l+16, l+24 share one: a 4-way conflict (4
// wavefronts per load), and the values are right.
__global__ void bankSwizzled(const __grid_constant__ CUtensorMap tmap,
                             float *out) {
  __shared__ alignas(1024) float tile[32][32];
  __shared__ alignas(8) uint64_t bar;
  int l = threadIdx.x;
  if (l == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  if (l == 0) {
    mbar_expect_tx(&bar, sizeof(tile));
    tma_load_2d(tile, &tmap, 0, 0, &bar);
  }
  mbar_wait(&bar, 0);
  float sum = 0;
#pragma unroll 1
  for (int i = 0; i < 64; ++i) {
    int r = (l + i) % 32;
    sum += tile[r][((0 / 4) ^ (r % 8)) * 4 + 0];
  }
  out[l] = sum;
}


// Reads through a swizzle formula that is not the copy's. The tile and the
// copy are readPlain's; only the index differs.
#define LOAD_8x32(MAP)                                                         \
  __shared__ alignas(1024) float tile[8][32];                                  \
  __shared__ alignas(8) uint64_t bar;                                          \
  int t = threadIdx.x, r = t / 32, c = t % 32;                                 \
  if (t == 0) {                                                                \
    mbar_init(&bar, 1);                                                        \
    fence_proxy_async();                                                       \
  }                                                                            \
  __syncthreads();                                                             \
  if (t == 0) {                                                                \
    mbar_expect_tx(&bar, sizeof(tile));                                        \
    tma_load_2d(tile, MAP, 0, 0, &bar);                                        \
  }                                                                            \
  mbar_wait(&bar, 0);

// SWIZZLE_64B's XOR (r % 4) on a SWIZZLE_128B tile: rows 4-7 wrong.
__global__ void readWrongMask(const __grid_constant__ CUtensorMap tmap,
                              float *out) {
  LOAD_8x32(&tmap)
  out[blockIdx.x * 256 + t] = tile[r][((c / 4) ^ (r % 4)) * 4 + c % 4];
}

// The row XORed into the element index rather than the 16-byte chunk.
__global__ void readElementXor(const __grid_constant__ CUtensorMap tmap,
                               float *out) {
  LOAD_8x32(&tmap)
  out[blockIdx.x * 256 + t] = tile[r][c ^ (r % 8)];
}

// readPlain with the map in global memory: the same layout, the same
// wrong reads.
__global__ void readGlobalMap(const CUtensorMap *tmap, float *out) {
  LOAD_8x32(tmap)
  out[blockIdx.x * 256 + t] = tile[r][c];
}


// A warp-specialised pipeline: thread 0 fills stage i % 3 with rows
// 8i..8i+7, after the consumers released it (Release), or after only its
// own earlier copy into the stage landed (the full barrier's previous
// phase); threads 32..287 wait for the stage, read element (r, c) of it
// through the swizzle and release it. out[i][t - 32] is what consumer t
// read in iteration i; a wait that times out (a phase the producer ran two
// ahead of) is counted in *timeouts. Without the release the
// producer may overwrite a stage the consumers have not read yet: the race
// this kernel is for.
template <bool Release>
__global__ void pipelineKernel(const __grid_constant__ CUtensorMap tmap,
                               float *out, unsigned *timeouts) {
  constexpr int STAGES = 3, ITERS = 6;
  __shared__ alignas(1024) float tiles[STAGES][8][32];
  __shared__ alignas(8) uint64_t full[STAGES], empty[STAGES];
  int t = threadIdx.x;
  if (t == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 256);
    }
    fence_proxy_async();
  }
  __syncthreads();
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < ITERS; ++i) {
        int s = i % STAGES;
        if (i >= STAGES && Release)
          mbar_wait(&empty[s], (i / STAGES - 1) & 1);
        else if (i >= STAGES)
          mbar_wait(&full[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  for (int i = 0; i < ITERS; ++i) {
    int s = i % STAGES;
    size_t at = (blockIdx.x * ITERS + i) * 256 + t - 32;
    if (!mbar_wait_bounded(&full[s], (i / STAGES) & 1))
      atomicAdd(timeouts, 1u);
    // Time between the wait and the read, as a consumer's MMAs take (the
    // clobber keeps the read after it).
    asm volatile("nanosleep.u32 %0;" ::"r"(2000) : "memory");
    out[at] = tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
}

// Where alignas(128) tiles land: fast.cu's kernel 2 declares two 8 KB bf16
// tiles alignas(128) and two barriers; kernels 3-7 carve their tiles from
// `extern __shared__ __align__(128)` memory after static barriers.
__global__ void placementStatic(unsigned *out) {
  __shared__ alignas(128) unsigned short sA[64 * 64];
  __shared__ alignas(128) unsigned short sB[64 * 64];
  __shared__ alignas(8) uint64_t barA, barB;
  if (threadIdx.x == 0) {
    out[0] = smemAddr(sA);
    out[1] = smemAddr(sB);
    out[2] = smemAddr(&barA);
    out[3] = smemAddr(&barB);
    sA[0] = sB[0] = 0;
  }
}

__global__ void placementDynamic(unsigned *out) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ alignas(8) uint64_t full[3], empty[3];
  if (threadIdx.x == 0) {
    out[0] = smemAddr(smem);
    out[1] = smemAddr(full);
    out[2] = smemAddr(empty);
    smem[0] = 0;
  }
}

// ---------------------------------------------------------------------------
// Host.

static bool check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  printf("%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

static bool checkCu(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *s = nullptr;
  cuGetErrorString(r, &s);
  printf("%s: CUresult %d (%s)\n", what, (int)r, s ? s : "?");
  return false;
}

// The swizzle of span S (0: none) applied to byte offset b: the 16-byte
// chunk index (bits 4..) XORed with the 128-byte row index (bits 7..),
// log2(S/16) bits of each.
static long swizzle(long b, int S) {
  return S ? b ^ (((b >> 7) & (S / 16 - 1)) << 4) : b;
}

// Byte offset of (r, c) for row pitch P and swizzle span S.
static long formula(int r, int c, int E, int P, int S) {
  return swizzle((long)r * P + (long)c * E, S);
}

static const char *swizzleName(int S) {
  return S == 0 ? "none" : S == 32 ? "32B" : S == 64 ? "64B" : "128B";
}

// The layout probes' global matrix: kGRows x kGCols elements of E bytes,
// element (r, c) holding the integer r * kGCols + c + 1 in E bytes (+1 so
// that a zero the copy might write as padding names no element). A box at
// (0, 0) never holds a 0xFF byte (c < 128, r < 16), so the probe buffer's
// 0xFF fill marks exactly the bytes the copy did not write.
constexpr int kGRows = 64, kGCols = 256;

static void *makeIdMatrix(int E) {
  std::vector<unsigned char> h((size_t)kGRows * kGCols * E);
  for (int r = 0; r < kGRows; ++r)
    for (int c = 0; c < kGCols; ++c) {
      uint32_t id = r * kGCols + c + 1;
      memcpy(&h[((size_t)r * kGCols + c) * E], &id, E); // little endian
    }
  void *g = nullptr;
  if (!check(cudaMalloc(&g, h.size()), "cudaMalloc"))
    exit(1);
  cudaMemcpy(g, h.data(), h.size(), cudaMemcpyHostToDevice);
  return g;
}

// Where each element of a cols x rows box landed in a probe buffer: byte
// offset from the buffer start (-1: not found; the first if found twice),
// the highest byte written + 1, and counts of repeated elements, zero
// words and other values from outside the box.
struct Landing {
  std::vector<long> at;
  long touched = 0;
  int found = 0, dup = 0, zero = 0, stray = 0;
};

static Landing scan(const unsigned char *buf, int E, int cols, int rows) {
  Landing L;
  L.at.assign((size_t)cols * rows, -1);
  for (long b = 0; b < kProbeBytes; ++b)
    if (buf[b] != 0xFF)
      L.touched = b + 1;
  for (long b = 0; b + E <= kProbeBytes; b += E) {
    uint32_t v = 0;
    memcpy(&v, buf + b, E);
    if (E == 2 ? v == 0xFFFF : v == 0xFFFFFFFFu)
      continue;
    if (v == 0) {
      ++L.zero;
      continue;
    }
    int r = (v - 1) / kGCols, c = (v - 1) % kGCols;
    if (r >= rows || c >= cols) {
      ++L.stray;
      continue;
    }
    long &slot = L.at[(size_t)r * cols + c];
    if (slot >= 0) {
      ++L.dup;
    } else {
      ++L.found;
      slot = b;
    }
  }
  return L;
}

// Elements whose landing differs from formula(P, S) shifted by base.
static int mismatches(const Landing &L, int E, int cols, int rows, int P,
                      int S, long base = 0) {
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (L.at[(size_t)r * cols + c] != base + formula(r, c, E, P, S))
        ++bad;
  return bad;
}

static int testLayout() {
  const int spans[4] = {0, 32, 64, 128};
  const CUtensorMapSwizzle modes[4] = {
      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
      CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};
  const int elemBytes[2] = {4, 2};
  const int innerBytes[5] = {16, 32, 64, 128, 256};
  const int boxRows[2] = {8, 16};

  uint4 *out;
  unsigned *info;
  if (!check(cudaMalloc(&out, kProbeBytes), "cudaMalloc") ||
      !check(cudaMalloc(&info, 2 * sizeof(unsigned)), "cudaMalloc"))
    return 1;
  std::vector<unsigned char> h(kProbeBytes);
  FILE *tsv = fopen("tma-layout.tsv", "w");
  if (!tsv) {
    perror("tma-layout.tsv");
    return 1;
  }
  fprintf(tsv, "swizzle\telem_bytes\tbox_cols\tbox_rows\tr\tc\tbyte\n");
  int configs = 0, holding = 0;
  for (int m = 0; m < 4; ++m)
    for (int E : elemBytes) {
      void *g = makeIdMatrix(E);
      for (int inner : innerBytes)
        for (int rows : boxRows) {
          const int S = spans[m];
          if (S && inner > S)
            continue; // the encode rejects a box wider than the span
          const int cols = inner / E;
          const cuuint64_t dims[2] = {kGCols, kGRows};
          const cuuint64_t strides[1] = {(cuuint64_t)kGCols * E};
          const cuuint32_t box[2] = {(cuuint32_t)cols, (cuuint32_t)rows};
          const cuuint32_t elemStrides[2] = {1, 1};
          CUtensorMap map;
          char what[96];
          snprintf(what, sizeof what, "layout swizzle=%s E=%d box=%dx%d",
                   swizzleName(S), E, cols, rows);
          CUresult res = cuTensorMapEncodeTiled(
              &map,
              E == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                     : CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
              2, g, dims, strides, box, elemStrides,
              CU_TENSOR_MAP_INTERLEAVE_NONE, modes[m],
              CU_TENSOR_MAP_L2_PROMOTION_NONE,
              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
          if (!checkCu(res, what))
            continue;
          cudaMemset(out, 0, kProbeBytes);
          cudaMemset(info, 0, 2 * sizeof(unsigned));
          layoutProbe<<<1, kProbeThreads>>>(map, out, info,
                                           (unsigned)(cols * rows * E));
          if (!check(cudaGetLastError(), what) ||
              !check(cudaDeviceSynchronize(), what))
            return 1;
          unsigned hinfo[2];
          cudaMemcpy(h.data(), out, kProbeBytes, cudaMemcpyDeviceToHost);
          cudaMemcpy(hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost);
          ++configs;
          Landing L = scan(h.data(), E, cols, rows);
          for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
              fprintf(tsv, "%s\t%d\t%d\t%d\t%d\t%d\t%ld\n", swizzleName(S), E,
                      cols, rows, r, c, L.at[(size_t)r * cols + c]);
          // The hypothesis: a swizzled box keeps rows of at least the span;
          // an unswizzled one packs rows at the box width (a multiple of 16).
          int P = S ? (inner > S ? inner : S) : (inner + 15) / 16 * 16;
          int bad = mismatches(L, E, cols, rows, P, S);
          holding += bad == 0;
          printf("%s: buf%%1024=%u %s found %d/%d dup %d zero %d stray %d "
                 "touched %ld | P=%d S=%d: %s",
                 what, hinfo[0] % 1024, hinfo[1] ? "complete" : "TIMEOUT",
                 L.found, cols * rows, L.dup, L.zero, L.stray, L.touched, P,
                 S, bad ? "FAILS" : "holds");
          if (bad)
            printf(" (%d wrong)", bad);
          // Any other pitch that fits with this span, or failing that, any
          // span and pitch.
          int shown = 0;
          for (int pass = 0; pass < 2 && !shown; ++pass)
            for (int S2 : spans)
              for (int P2 = 16; P2 <= 1024 && shown < 4; P2 += 16)
                if ((pass ? S2 != S : S2 == S && P2 != P) &&
                    mismatches(L, E, cols, rows, P2, S2) == 0) {
                  printf("%s P=%d S=%d fits", shown ? "," : " | also:", P2,
                         S2);
                  ++shown;
                }
          printf("\n");
        }
      cudaFree(g);
    }
  fclose(tsv);
  printf("layout: formula holds in %d of %d configs\n", holding, configs);
  cudaFree(out);
  cudaFree(info);
  return 0;
}

// One misaligned-destination case; false when the launch failed (the
// context is then reset, so the next case starts clean).
static bool misalignedCase(unsigned off) {
  const int E = 4, cols = 32, rows = 8;
  void *g = makeIdMatrix(E);
  uint4 *out;
  unsigned *info;
  cudaMalloc(&out, kProbeBytes);
  cudaMalloc(&info, 2 * sizeof(unsigned));
  cudaMemset(out, 0, kProbeBytes);
  cudaMemset(info, 0, 2 * sizeof(unsigned));
  const cuuint64_t dims[2] = {kGCols, kGRows};
  const cuuint64_t strides[1] = {kGCols * sizeof(float)};
  const cuuint32_t box[2] = {32, 8};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, "misaligned encode"))
    exit(1);
  misalignedProbe<<<1, kProbeThreads>>>(map, out, info, 32 * 8 * 4, off);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("misaligned dst=buf+%u: launch %s, sync %s\n", off,
         cudaGetErrorString(launch), cudaGetErrorString(sync));
  if (launch != cudaSuccess || sync != cudaSuccess) {
    cudaDeviceReset();
    cudaFree(0);
    return false;
  }
  std::vector<unsigned char> h(kProbeBytes);
  unsigned hinfo[2];
  cudaMemcpy(h.data(), out, kProbeBytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(hinfo, info, sizeof hinfo, cudaMemcpyDeviceToHost);
  Landing L = scan(h.data(), E, cols, rows);
  // Relative to the destination: the swizzle of (r*128 + c*4), shifted by
  // off. Relative to the address: the swizzle of the shared address itself
  // (buf's misalignment included), less buf's address.
  int relDst = mismatches(L, E, cols, rows, 128, 128, off);
  long a = hinfo[0] % 1024;
  int relAddr = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (L.at[(size_t)r * cols + c] !=
          swizzle(a + off + r * 128 + c * 4, 128) - a)
        ++relAddr;
  long first = L.at[0], lo = kProbeBytes;
  for (long v : L.at)
    if (v >= 0 && v < lo)
      lo = v;
  printf("misaligned dst=buf+%u: buf%%1024=%ld %s found %d/256 dup %d zero %d "
         "stray %d touched %ld, (0,0) at %ld, lowest %ld | swizzle relative "
         "to dst: %d wrong | relative to the shared address: %d wrong\n",
         off, a, hinfo[1] ? "complete" : "TIMEOUT", L.found, L.dup, L.zero,
         L.stray, L.touched, first, lo, relDst, relAddr);
  for (int r = 0; r < 2; ++r) {
    printf("  row %d chunks at:", r);
    for (int c = 0; c < cols; c += 4)
      printf(" %ld", L.at[(size_t)r * cols + c]);
    printf("\n");
  }
  cudaFree(g);
  cudaFree(out);
  cudaFree(info);
  return true;
}

static int testMisaligned() {
  const unsigned offsets[3] = {0, 128, 16};
  for (unsigned off : offsets)
    misalignedCase(off);
  return 0;
}

// The tile tests' global matrix: 32 x 32 floats, element (r, c) = r*32+c+1
// (exact, and never the -1 fill nor 0).
static float *makeTileMatrix() {
  std::vector<float> h(32 * 32);
  for (int i = 0; i < 32 * 32; ++i)
    h[i] = float(i + 1);
  float *g = nullptr;
  if (!check(cudaMalloc(&g, h.size() * sizeof(float)), "cudaMalloc"))
    exit(1);
  cudaMemcpy(g, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  return g;
}

// readPlain / readSwizzled: threads whose value is not element (r, c).
static int testRead(bool swizzled, int blocks) {
  const char *name = swizzled ? "readSwizzled" : "readPlain";
  float *g = makeTileMatrix();
  float *out;
  cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float));
  const cuuint64_t dims[2] = {32, 32};
  const cuuint64_t strides[1] = {32 * sizeof(float)};
  const cuuint32_t box[2] = {32, 8};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, name))
    return 1;
  if (swizzled)
    readSwizzled<<<blocks, 256>>>(map, out);
  else
    readPlain<<<blocks, 256>>>(map, out);
  if (!check(cudaGetLastError(), name) || !check(cudaDeviceSynchronize(), name))
    return 1;
  std::vector<float> h((size_t)blocks * 256);
  cudaMemcpy(h.data(), out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  long wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t)
      wrong += h[(size_t)b * 256 + t] != float(t + 1); // element (r, c)
  printf("%s: %d blocks, wrong %ld of %ld (readPlain expects 224 per block: "
         "rows 1-7; readSwizzled 0)\n",
         name, blocks, wrong, (long)blocks * 256);
  printf("%s: block 0 row 1 read:", name);
  for (int c = 0; c < 32; ++c)
    printf(" %g", h[32 + c]);
  printf("\n");
  cudaFree(g);
  cudaFree(out);
  return 0;
}

// readWrongMask / readElementXor / readGlobalMap: threads whose value is not
// element (r, c), as testRead counts them.
static int testReadVariant(const char *name, int blocks) {
  float *g = makeTileMatrix();
  float *out;
  cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float));
  const cuuint64_t dims[2] = {32, 32};
  const cuuint64_t strides[1] = {32 * sizeof(float)};
  const cuuint32_t box[2] = {32, 8};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, name))
    return 1;
  CUtensorMap *deviceMap = nullptr;
  if (!strcmp(name, "readWrongMask")) {
    readWrongMask<<<blocks, 256>>>(map, out);
  } else if (!strcmp(name, "readElementXor")) {
    readElementXor<<<blocks, 256>>>(map, out);
  } else {
    cudaMalloc(&deviceMap, sizeof(CUtensorMap));
    cudaMemcpy(deviceMap, &map, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
    readGlobalMap<<<blocks, 256>>>(deviceMap, out);
  }
  if (!check(cudaGetLastError(), name) || !check(cudaDeviceSynchronize(), name))
    return 1;
  std::vector<float> h((size_t)blocks * 256);
  cudaMemcpy(h.data(), out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  long wrong = 0, wrongBlock0 = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t) {
      bool w = h[(size_t)b * 256 + t] != float(t + 1); // element (r, c)
      wrong += w;
      wrongBlock0 += w && b == 0;
    }
  printf("%s: %d blocks, wrong %ld of %ld (%ld of 256 in block 0)\n", name,
         blocks, wrong, (long)blocks * 256, wrongBlock0);
  printf("%s: block 0 rows 1 and 4 read:", name);
  for (int c = 0; c < 32; ++c)
    printf(" %g", h[32 + c]);
  printf(" |");
  for (int c = 0; c < 32; ++c)
    printf(" %g", h[128 + c]);
  printf("\n");
  cudaFree(deviceMap);
  cudaFree(g);
  cudaFree(out);
  return 0;
}

// placement: the shared addresses of placementStatic's and
// placementDynamic's objects, and whether each tile is on a 1024-byte
// boundary (what SWIZZLE_128B's pattern assumes).
static int testPlacement() {
  unsigned *out;
  cudaMalloc(&out, 8 * sizeof(unsigned));
  unsigned h[8];
  placementStatic<<<1, 32>>>(out);
  if (!check(cudaGetLastError(), "placementStatic") ||
      !check(cudaDeviceSynchronize(), "placementStatic"))
    return 1;
  cudaMemcpy(h, out, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("placementStatic: sA %u (%% 1024 = %u), sB %u (%% 1024 = %u), "
         "barA %u, barB %u\n",
         h[0], h[0] % 1024, h[1], h[1] % 1024, h[2], h[3]);
  cudaMemset(out, 0xff, 8 * sizeof(unsigned));
  placementDynamic<<<1, 32, 32 * 1024>>>(out);
  if (!check(cudaGetLastError(), "placementDynamic") ||
      !check(cudaDeviceSynchronize(), "placementDynamic"))
    return 1;
  cudaMemcpy(h, out, 3 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("placementDynamic: smem %u (%% 1024 = %u), full %u, empty %u\n", h[0],
         h[0] % 1024, h[1], h[2]);
  cudaFree(out);
  return 0;
}

// pipelineReleased / pipelineNoRelease: consumer reads that are not the
// element of their own iteration (rows 8i..8i+7 of a 48 x 32 matrix).
static int testPipeline(bool release, int blocks) {
  const char *name = release ? "pipelineReleased" : "pipelineNoRelease";
  const int ITERS = 6;
  std::vector<float> m(48 * 32);
  for (int i = 0; i < 48 * 32; ++i)
    m[i] = float(i + 1);
  float *g = nullptr, *out = nullptr;
  cudaMalloc(&g, m.size() * sizeof(float));
  cudaMemcpy(g, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMalloc(&out, (size_t)blocks * ITERS * 256 * sizeof(float));
  const cuuint64_t dims[2] = {32, 48};
  const cuuint64_t strides[1] = {32 * sizeof(float)};
  const cuuint32_t box[2] = {32, 8};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, name))
    return 1;
  unsigned *timeouts = nullptr, timedOut = 0;
  cudaMalloc(&timeouts, sizeof(unsigned));
  cudaMemset(timeouts, 0, sizeof(unsigned));
  if (release)
    pipelineKernel<true><<<blocks, 288>>>(map, out, timeouts);
  else
    pipelineKernel<false><<<blocks, 288>>>(map, out, timeouts);
  if (!check(cudaGetLastError(), name) || !check(cudaDeviceSynchronize(), name))
    return 1;
  std::vector<float> h((size_t)blocks * ITERS * 256);
  cudaMemcpy(h.data(), out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&timedOut, timeouts, sizeof(unsigned), cudaMemcpyDeviceToHost);
  long wrong = 0, ahead = 0, wrongBlocks = 0;
  for (int b = 0; b < blocks; ++b) {
    long w = 0;
    for (int i = 0; i < ITERS; ++i)
      for (int t = 0; t < 256; ++t) {
        float v = h[((size_t)b * ITERS + i) * 256 + t];
        float want = float((8 * i + t / 32) * 32 + t % 32 + 1);
        if (v != want) {
          ++w;
          // The same element of the stage's next fill: overwritten early.
          ahead += i + 3 < ITERS && v == want + 3 * 8 * 32;
        }
      }
    wrong += w;
    wrongBlocks += w > 0;
  }
  printf("%s: %d blocks, wrong %ld of %ld consumer reads (%ld of them the "
         "stage's next fill), %u waits timed out; blocks with a wrong read "
         "%ld\n",
         name, blocks, wrong, (long)blocks * ITERS * 256, ahead, timedOut,
         wrongBlocks);
  cudaFree(timeouts);
  cudaFree(g);
  cudaFree(out);
  return 0;
}

// noWait / waitThenSync: reads of the -1 fill (stale), of the right
// element, and of anything else.
static int testStale(bool waitFirst, int blocks) {
  const char *name = waitFirst ? "waitThenSync" : "noWait";
  float *g = makeTileMatrix();
  float *out;
  cudaMalloc(&out, (size_t)blocks * 256 * sizeof(float));
  const cuuint64_t dims[2] = {32, 32};
  const cuuint64_t strides[1] = {32 * sizeof(float)};
  const cuuint32_t box[2] = {32, 8};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, name))
    return 1;
  if (waitFirst)
    waitThenSync<<<blocks, 256>>>(map, out);
  else
    noWait<<<blocks, 256>>>(map, out);
  if (!check(cudaGetLastError(), name) || !check(cudaDeviceSynchronize(), name))
    return 1;
  std::vector<float> h((size_t)blocks * 256);
  cudaMemcpy(h.data(), out, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  long stale = 0, right = 0, other = 0, staleBlocks = 0;
  for (int b = 0; b < blocks; ++b) {
    long s = 0;
    for (int t = 0; t < 256; ++t) {
      float v = h[(size_t)b * 256 + t];
      if (v == -1.0f)
        ++s;
      else if (v == float(t + 1)) // element (t / 32, t % 32)
        ++right;
      else
        ++other;
    }
    stale += s;
    staleBlocks += s > 0;
  }
  printf("%s: %d blocks, stale %ld, right %ld, other %ld of %ld reads; "
         "blocks with a stale read %ld\n",
         name, blocks, stale, right, other, (long)blocks * 256, staleBlocks);
  cudaFree(g);
  cudaFree(out);
  return 0;
}

// bankPlain / bankSwizzled: the per-lane sums against what the host
// expects (the plain read's sum is of the wrong elements, but known).
static int testBank(bool swizzled) {
  const char *name = swizzled ? "bankSwizzled" : "bankPlain";
  float *g = makeTileMatrix();
  float *out;
  cudaMalloc(&out, 32 * sizeof(float));
  const cuuint64_t dims[2] = {32, 32};
  const cuuint64_t strides[1] = {32 * sizeof(float)};
  const cuuint32_t box[2] = {32, 32};
  const cuuint32_t elemStrides[2] = {1, 1};
  CUtensorMap map;
  CUresult res = cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims, strides, box,
      elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!checkCu(res, name))
    return 1;
  if (swizzled)
    bankSwizzled<<<1, 32>>>(map, out);
  else
    bankPlain<<<1, 32>>>(map, out);
  if (!check(cudaGetLastError(), name) || !check(cudaDeviceSynchronize(), name))
    return 1;
  float h[32];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  // Physical word 0 of row r holds element (r, 4*(r%8)); the swizzled
  // index reads element (r, 0). Each row is read twice in 64 iterations.
  double expect = 0;
  for (int r = 0; r < 32; ++r)
    expect += 2.0 * (r * 32 + (swizzled ? 0 : 4 * (r % 8)) + 1);
  int wrong = 0;
  for (int l = 0; l < 32; ++l)
    wrong += h[l] != (float)expect;
  printf("%s: lane sums wrong %d of 32 (expected %g, lane 0 %g); ncu: 64 "
         "shared loads, %s wavefronts each\n",
         name, wrong, expect, h[0], swizzled ? "4" : "32");
  cudaFree(g);
  cudaFree(out);
  return 0;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  int blocks = argc > 2 ? atoi(argv[2]) : 0;
  if (!check(cudaFree(0), "init"))
    return 1;
  if (!strcmp(which, "layout"))
    return testLayout();
  if (!strcmp(which, "misaligned"))
    return testMisaligned();
  if (!strcmp(which, "readPlain") || !strcmp(which, "readSwizzled"))
    return testRead(which[4] == 'S', blocks > 0 ? blocks : 64);
  if (!strcmp(which, "pipelineReleased") ||
      !strcmp(which, "pipelineNoRelease"))
    return testPipeline(which[8] == 'R', blocks > 0 ? blocks : 1024);
  if (!strcmp(which, "placement"))
    return testPlacement();
  if (!strcmp(which, "readWrongMask") || !strcmp(which, "readElementXor") ||
      !strcmp(which, "readGlobalMap"))
    return testReadVariant(which, blocks > 0 ? blocks : 64);
  if (!strcmp(which, "noWait") || !strcmp(which, "waitThenSync"))
    return testStale(which[0] == 'w', blocks > 0 ? blocks : 1024);
  if (!strcmp(which, "bankPlain") || !strcmp(which, "bankSwizzled"))
    return testBank(which[4] == 'S');
  fprintf(stderr,
          "usage: %s layout|misaligned|readPlain|readSwizzled|noWait|"
          "waitThenSync|bankPlain|bankSwizzled|readWrongMask|"
          "readElementXor|readGlobalMap|pipelineReleased|"
          "pipelineNoRelease|placement [blocks]\n",
          argv[0]);
  return 2;
}
