// RUN: %check_all_front_ends %s shmem-bank-conflict

// ldmatrix rows addressed as integers, as hand-written tensor-core GEMMs do
// (`base = __cvta_generic_to_shared(smem)`, then `base + row * 128 + chunk
// * 16`, XOR-swizzled on the address). Adding bytes keeps the row's
// pointer; XOR with values below the buffer's alignment moves the offset
// only. ncu on the H200 (ldmatrix-h200.tsv): x4 over 128-byte rows 32
// wavefronts against 4, the chunk XORed with row % 8 4.

__device__ __forceinline__ void ldmatrixX4(unsigned reg[4], int addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(reg[0]), "=r"(reg[1]), "=r"(reg[2]), "=r"(reg[3])
               : "r"(addr));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x4.shared.b16: lanes 0-7 {{.*}}(32 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
}

__device__ void use(unsigned r[4]);

// 16 rows of 128 bytes, the second 8-byte-column half at +16.
__global__ void rows128(int n) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  int lane = threadIdx.x % 32;
  unsigned r[4];
  const int row = base + (lane % 16) * 128 + (lane / 16) * 16;
  for (int k = 0; k < 4; k++) {
    ldmatrixX4(r, row + k * 32);
    use(r);
  }
}

// The same rows with the 16-byte chunk XORed with row % 8, on the address.
__global__ void rows128Swizzled(int n) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  int lane = threadIdx.x % 32;
  unsigned r[4];
  const int row = base + (lane % 16) * 128 + (lane / 16) * 16;
  for (int k = 0; k < 4; k++) {
    // Written out (not through ldmatrixX4) so that a finding here would
    // have a place of its own.
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"((row + k * 32) ^ ((lane % 8) << 4)));
    use(r);
  }
}

// gau-nernst/learn-cuda's swizzle (02c_matmul_sm120/common.h): the 16-byte
// chunk XORed with (row % 8) / std::max(128 / STRIDE, 1). std::max returns
// a reference; its value is the larger argument. Over 128-byte rows that is
// the XOR with row % 8 (4 wavefronts, the ideal); dividing by 2 leaves
// rows r and r ^ 1 on one chunk (8 wavefronts).
#include "../Inputs/std_minmax.h"

template <int STRIDE, int SPREAD>
__device__ int swizzleChunk(int row, int col) {
  col ^= (row % 8) / std::max(128 / STRIDE, SPREAD);
  return row * STRIDE + col * 16;
}

template <int SPREAD>
__global__ void learnCuda(int n) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  int lane = threadIdx.x % 32;
  unsigned r[4];
  const int addr = base + swizzleChunk<128, SPREAD>(lane % 16, lane / 16);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 2-way bank conflict in ldmatrix.sync.aligned.m8n8.x4.shared.b16: lanes 0, 1 read 2 distinct words of 'smem' in bank 0 (8 wavefronts instead of 4) [shmem-bank-conflict]
  use(r);
}

void launchLearnCuda() {
  learnCuda<1><<<1, 32>>>(0);
  learnCuda<2><<<1, 32>>>(0);
}

// learn-cuda's matmul_v2 shape: the consumer warps of a warp-specialised
// kernel keep a stage index across a loop of run-time length. Only they
// run the loop, so only their values say whether the index varies across
// iterations; the producer warp's (never assigned there) do not. The
// stage's rows stay known, and their conflict is found.
// shmem-lint: block=288
__global__ void specialisedStages(int iters) {
  extern __shared__ __align__(1024) char smem[];
  const int base = static_cast<int>(__cvta_generic_to_shared(smem));
  int lane = threadIdx.x % 32;
  if (threadIdx.x / 32 == 8) {
    // The producer warp would issue the copies here.
  } else {
    const int rows = base + (lane % 16) * 128 + (lane / 16) * 16;
    unsigned r[4];
    int stage = 0;
    for (int it = 0; it < iters; it++) {
      for (int k = 0; k < 4; k++) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"((rows + stage * 32768) ^ (k * 32)));
        // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x4.shared.b16: lanes 0-7 {{.*}}(32 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
        use(r);
      }
      stage = (stage + 1) % 2;
    }
  }
}
