// RUN: %check_all_front_ends %s shmem-race
// RUN: %check_all_front_ends %s shmem-race --prefix=CHECK-DATA --tidy-config='{CheckOptions: {shmem-race.ReportDataDependent: true}}' --plugin-args=report-data-dependent=1 --driver-args=--report-data-dependent=1

// Addresses that depend on data can't be enumerated. A claim needs
// evidence: a read-modify-write of one data-dependent element, or a store
// whose index the data cannot make distinct (the same in every thread of
// the block or of a warp). Any other data-dependent access next to another
// access of the array is a possible race only with ReportDataDependent
// (prefix CHECK-DATA).

// A lookup table fills the first 256 words of a dynamic buffer and a byte
// indexes it (rodinia's huffman vlc_encode_kernel_sm64huff): the reads stay
// in words 0-255 while the writes go to words 256 and up, but the analysis
// does not bound a data-dependent index by its type.
// shmem-lint: block=256
__global__ void lutThenScan(const unsigned *in, const unsigned *lut,
                            unsigned *out) {
  extern __shared__ unsigned sm[];
  unsigned *table = sm;
  unsigned *as = sm + 256;
  table[threadIdx.x] = lut[threadIdx.x];
  __syncthreads();
  unsigned char byte = (unsigned char)in[threadIdx.x];
  unsigned len = table[byte];
  as[threadIdx.x] = len;
  // CHECK-DATA: :[[@LINE-1]]:3: warning: possible race: threads write an element of sm (line [[@LINE-1]]) while other threads read it (line [[@LINE-2]]), and an address depends on data (value loaded from memory); no barrier between them [shmem-race]
  __syncthreads();
  out[threadIdx.x] = as[255 - threadIdx.x];
}

// The table in its own array: silent in both settings.
// shmem-lint: block=256
__global__ void lutSeparate(const unsigned *in, const unsigned *lut,
                            unsigned *out) {
  __shared__ unsigned table[256];
  __shared__ unsigned as[256];
  table[threadIdx.x] = lut[threadIdx.x];
  __syncthreads();
  unsigned char byte = (unsigned char)in[threadIdx.x];
  unsigned len = table[byte];
  as[threadIdx.x] = len;
  __syncthreads();
  out[threadIdx.x] = as[255 - threadIdx.x];
}

// Stream compaction: each kept value goes to the slot a shared prefix sum
// gave it, in the buffer that holds the sums.
// shmem-lint: block=128
__global__ void compact(const int *in, int *out) {
  extern __shared__ int buf[];
  int *pos = buf;
  int *kept = buf + 128;
  int v = in[threadIdx.x];
  pos[threadIdx.x] = v > 0;
  __syncthreads();
  for (int d = 1; d < 128; d *= 2) {
    int t = threadIdx.x >= d ? pos[threadIdx.x - d] : 0;
    __syncthreads();
    pos[threadIdx.x] += t;
    __syncthreads();
  }
  if (v > 0)
    kept[pos[threadIdx.x] - 1] = v;
  // CHECK-DATA: :[[@LINE-1]]:5: warning: possible race: threads write an element of buf (line [[@LINE-1]]) while other threads read it (line [[@LINE-1]]), and an address depends on data (value loaded from shared memory); no barrier between them [shmem-race]
  __syncthreads();
  out[threadIdx.x] = kept[threadIdx.x];
}

// Reading at a data-dependent index right after the tile is written: a race
// unless every thread picks its own element.
// shmem-lint: block=128
__global__ void gather(const int *idx, float *out) {
  __shared__ float s[128];
  s[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = s[idx[threadIdx.x] & 127];
  // CHECK-DATA: :[[@LINE-1]]:22: warning: possible race: threads read an element of s (line [[@LINE-1]]) while other threads write it (line [[@LINE-2]]), and an address depends on data (value loaded from memory); no barrier between them [shmem-race]
}

// Each thread stores to a slot of its own, by a permutation: no claim.
// shmem-lint: block=128
__global__ void permute(const int *perm, const float *in, float *out) {
  __shared__ float s[128];
  s[perm[threadIdx.x] & 127] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

//===----------------------------------------------------------------------===//
// With evidence: reported in both settings.
//===----------------------------------------------------------------------===//

// Two threads that pick one bin lose an update.
// shmem-lint: block=128
__global__ void histogram(const unsigned char *data, unsigned *global) {
  __shared__ unsigned hist[16];
  if (threadIdx.x < 16)
    hist[threadIdx.x] = 0;
  __syncthreads();
  hist[data[blockIdx.x * 128 + threadIdx.x] % 16] += 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: possible race: non-atomic read-modify-write of an element of hist (line [[@LINE-1]]) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
  // CHECK-DATA: :[[@LINE-2]]:3: warning: possible race: non-atomic read-modify-write of an element of hist (line [[@LINE-2]]) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&global[threadIdx.x], hist[threadIdx.x]);
}

// One index for the whole block, loaded from memory: every thread writes
// the same element.
// shmem-lint: block=64
__global__ void blockIndex(const int *in, const int *idx, int *out) {
  __shared__ int s[64];
  s[idx[blockIdx.x] & 63] = in[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes the element of s that thread 0 writes (line [[@LINE-1]]): its index depends on data (value loaded from memory) but is the same in every thread of the block; no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  // CHECK-DATA: :[[@LINE-2]]:3: warning: thread 32 writes the element of s that thread 0 writes (line [[@LINE-2]]): its index depends on data (value loaded from memory) but is the same in every thread of the block; no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// One index per warp: the lanes of a warp write one element.
// shmem-lint: block=64
__global__ void warpIndex(const int *in, const int *idx, int *out) {
  __shared__ int s[64];
  s[idx[threadIdx.x / 32] & 63] = in[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 1 writes the element of s that thread 0 writes (line [[@LINE-1]]): its index depends on data (value loaded from memory) but is the same in every lane of a warp; no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  // CHECK-DATA: :[[@LINE-2]]:3: warning: thread 1 writes the element of s that thread 0 writes (line [[@LINE-2]]): its index depends on data (value loaded from memory) but is the same in every lane of a warp; no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same value to the same element: benign, silent (ReportBenign shows
// it); one thread storing: nothing to pair with itself, but it may meet the
// other store.
// shmem-lint: block=64
__global__ void uniformIndexSameValue(const int *idx, int *out) {
  __shared__ int s[64];
  s[idx[0] & 63] = 1;
  if (threadIdx.x == 0)
    s[(idx[1] & 31) + 32] = out[0];
  // CHECK-DATA: :[[@LINE-1]]:5: warning: possible race: threads write an element of s (line [[@LINE-1]]) while other threads write it (line [[@LINE-3]]), and an address depends on data (value loaded from memory); no barrier between them [shmem-race]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
