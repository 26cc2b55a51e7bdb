// RUN: %check_all_front_ends %s shmem-bank-conflict

// ldmatrix/stmatrix written as inline PTX: lanes 0 .. 8N-1 each give the
// address of one 16-byte row, served like a 16-byte access in phases of 8
// lanes (ideal: N wavefronts). Figures measured with ncu on an H200 (one
// warp): x4 over 128-byte rows 32 wavefronts against 4, 144-byte rows or
// the 16-byte chunk XORed with row % 8 4, x1 over 128-byte rows 8 against
// 1. Tiles of unsigned short stand for half.

__device__ void use(unsigned a, unsigned b, unsigned c, unsigned d);

// 128-byte rows: the 8 rows of each matrix start in the same 4 banks.
__global__ void x4Rows128() {
  alignas(16) __shared__ unsigned short tile[64][64];
  unsigned lane = threadIdx.x % 32;
  unsigned a, b, c, d;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "r"((unsigned)__cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8])));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x4.shared.b16: lanes 0-7 {{.*}}(32 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
  use(a, b, c, d);
}

__global__ void x2Rows128() {
  alignas(16) __shared__ unsigned short tile[64][64];
  unsigned lane = threadIdx.x % 32;
  unsigned a, b;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(a), "=r"(b)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&tile[lane % 8][(lane / 8) * 8]))));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16: lanes 0-7 {{.*}}(16 wavefronts instead of 2){{.*}} [shmem-bank-conflict]
  use(a, b, 0, 0);
}

// x1 reads lanes 0-7 only: what lanes 8-31 point at does not count.
__global__ void x1Rows128() {
  alignas(16) __shared__ unsigned short tile[64][64];
  unsigned lane = threadIdx.x % 32;
  unsigned a;
  unsigned addr = __cvta_generic_to_shared(&tile[lane][0]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(a)
               : "r"(addr));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x1.shared.b16: lanes 0-7 {{.*}}(8 wavefronts instead of 1){{.*}} [shmem-bank-conflict]
  use(a, 0, 0, 0);
}

// Negative: 144-byte rows (padded by 8 halves) spread the 8 rows over all
// 32 banks.
__global__ void x4Rows144() {
  alignas(16) __shared__ unsigned short tile[64][72];
  unsigned lane = threadIdx.x % 32;
  unsigned a, b, c, d;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "r"((unsigned)__cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8])));
  use(a, b, c, d);
}

// Negative: 128-byte rows with the 16-byte chunk XORed with row % 8.
__global__ void x4Swizzled() {
  alignas(16) __shared__ unsigned short tile[64][64];
  unsigned lane = threadIdx.x % 32;
  unsigned row = lane % 16, chunk = (lane / 16) ^ (row % 8);
  unsigned a, b, c, d;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "r"((unsigned)__cvta_generic_to_shared(&tile[row][chunk * 8])));
  use(a, b, c, d);
}

// stmatrix (sm_90): the same rows, written.
__global__ void stmatrixRows128(unsigned v) {
  alignas(16) __shared__ unsigned short tile[64][64];
  unsigned lane = threadIdx.x % 32;
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
               :
               : "r"((unsigned)__cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8])),
                 "r"(v), "r"(v), "r"(v), "r"(v));
  // CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: warning: 8-way bank conflict in stmatrix.sync.aligned.m8n8.x4.trans.shared.b16: lanes 0-7 write {{.*}}(32 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
}

// Negative: stmatrix over padded rows.
__global__ void stmatrixRows144(unsigned v) {
  alignas(16) __shared__ unsigned short tile[64][72];
  unsigned lane = threadIdx.x % 32;
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
               :
               : "r"((unsigned)__cvta_generic_to_shared(&tile[lane][0])), "r"(v));
}

// Rows padded by 4 halves (136 bytes) are not 16-byte aligned: the launch
// fails.
__global__ void misaligned() {
  alignas(16) __shared__ unsigned short tile[64][68];
  unsigned lane = threadIdx.x % 32;
  unsigned a;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(a)
               : "r"((unsigned)__cvta_generic_to_shared(&tile[lane][0])));
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: misaligned ldmatrix row: lane 1 gives byte 136 of 'tile', not a multiple of 16 (ldmatrix.sync.aligned.m8n8.x1.shared.b16 needs 16-byte aligned rows; the launch fails with a misaligned address) [shmem-bank-conflict]
  use(a, 0, 0, 0);
}

// A wrapper taking the pointer, as ggml's load_ldmatrix or CUTLASS's
// SM75_U32x4_LDSM_N: the access is the caller's pointer.
__device__ void ldsm_x4(const unsigned short *p, unsigned &a, unsigned &b,
                        unsigned &c, unsigned &d) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
  // Above the asm, not below it: the fix-it on 'tile' in the caller makes
  // clang print every line from here to there, a comment below included.
  // CHECK-MESSAGES: :[[@LINE+3]]:{{[0-9]+}}: warning: 8-way bank conflict in ldmatrix.sync.aligned.m8n8.x4.shared.b16: lanes 0-7 {{.*}}(32 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
               : "r"(addr));
}
__global__ void wrapper() {
  alignas(16) __shared__ unsigned short tile[64][64];
  alignas(16) __shared__ unsigned short padded[64][72];
  unsigned lane = threadIdx.x % 32;
  unsigned a, b, c, d;
  ldsm_x4(&tile[lane % 16][(lane / 16) * 8], a, b, c, d);
  ldsm_x4(&padded[lane % 16][(lane / 16) * 8], a, b, c, d);
  use(a, b, c, d);
}

int main() {
  x4Rows128<<<1, 32>>>();
  x2Rows128<<<1, 32>>>();
  x1Rows128<<<1, 32>>>();
  x4Rows144<<<1, 32>>>();
  x4Swizzled<<<1, 32>>>();
  stmatrixRows128<<<1, 32>>>(0);
  stmatrixRows144<<<1, 32>>>(0);
  misaligned<<<1, 32>>>();
  wrapper<<<1, 32>>>();
}
