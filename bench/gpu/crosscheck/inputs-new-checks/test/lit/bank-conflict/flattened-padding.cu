// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %s | FileCheck --check-prefix=NOTES %s
// The fix-its apply, and the fixed file is clean:
// RUN: cp %s %t.cu
// RUN: %clang-tidy --load=%tidy_plugin --checks=-*,shmem-bank-conflict --fix --quiet %t.cu -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 %cuda_flags > /dev/null 2>&1
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %t.cu | FileCheck --check-prefix=AFTER %s

// Padding a flattened array (`s[r * LD + c]`) means changing its row
// stride. A fix-it edits the stride's definition only when every index of
// the array goes through that one stride and the stride means nothing else.

// A local constexpr stride; the size is spelled with it, so it follows.
__global__ void namedStride(float *out, const float *in) {
  constexpr int TILE = 32;
  constexpr int LD = 32;
  // FIXED: {{^}}  constexpr int LD = 33;
  __shared__ float s[TILE * LD];
  // FIXED: {{^}}  __shared__ float s[TILE * LD];
  s[threadIdx.y * LD + threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * LD + threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 0 (32 wavefronts instead of 1); successive lanes are 32 words apart{{.*}}; pad the rows of 's' to 33 elements by changing 'LD' to 33 [shmem-bank-conflict]
  // NOTES: :[[@LINE-8]]:17: note: changing 'LD' from 32 to 33 makes every access to 's' conflict-free or no worse; it costs 128 more bytes of shared memory (4096 -> 4224)
}

// A macro stride and a size spelled as a product of literals.
#define LDM 32
// FIXED: {{^}}#define LDM 33
__global__ void macroStride(float *out) {
  __shared__ float m[32 * 32];
  // FIXED: {{^}}  __shared__ float m[32 * 33];
  m[threadIdx.y * LDM + threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = m[threadIdx.x * LDM + threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: {{.*}}; pad the rows of 'm' to 33 elements by changing 'LDM' to 33 [shmem-bank-conflict]
}

// An enumerator and a one-literal size.
enum { PITCH = 32 };
// FIXED: {{^}}enum { PITCH = 33 };
__global__ void enumStride(float *out) {
  __shared__ float e[1024];
  // FIXED: {{^}}  __shared__ float e[1056];
  out[threadIdx.x] = e[PITCH * threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: {{.*}}; pad the rows of 'e' to 33 elements by changing 'PITCH' to 33 [shmem-bank-conflict]
  // NOTES: :[[@LINE-7]]:8: note: changing 'PITCH' from 32 to 33 makes every access to 'e' conflict-free or no worse; it costs 128 more bytes of shared memory (4096 -> 4224)
}

// The stride is also the pitch of a global array: no fix-it, a note.
constexpr int GP = 32;
// FIXED: {{^}}constexpr int GP = 32;
__global__ void sharedMeaning(float *out) {
  __shared__ float g[32 * GP];
  out[blockIdx.x * GP + threadIdx.x] = g[threadIdx.x * GP];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 32-way bank conflict: {{.*}}; pad the rows of 'g' to 33 elements [shmem-bank-conflict]
  // NOTES: :[[@LINE-2]]:20: note: 'GP' is also used here, so no fix-it is offered: give 'g' a row stride of its own, 33; a row stride of 33 makes every access to 'g' conflict-free or no worse; it costs 128 more bytes of shared memory (4096 -> 4224)
}

// A macro stride that is also a global pitch: no fix-it either.
#define PW 32
// FIXED: {{^}}#define PW 32
__global__ void macroElsewhere(float *out) {
  __shared__ float p[32 * PW];
  out[blockIdx.x * PW] = p[threadIdx.x * PW];
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 32-way bank conflict: {{.*}}; pad the rows of 'p' to 33 elements [shmem-bank-conflict]
  // NOTES: :[[@LINE-2]]:20: note: 'PW' is also used here, so no fix-it is offered: give 'p' a row stride of its own, 33; {{.*}}
}

// A literal stride: no fix-it, advice to name one.
__global__ void literalStride(float *out) {
  __shared__ float l[32 * 32];
  // FIXED: {{^}}  __shared__ float l[32 * 32];
  out[threadIdx.x] = l[threadIdx.x * 32 + threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: {{.*}}; pad the rows of 'l' to 33 elements [shmem-bank-conflict]
  // NOTES: :[[@LINE-2]]:22: note: the row stride of 'l' is the literal 32, so no fix-it is offered: introduce a named row stride (e.g. 'constexpr int LD = 33;') and use it in every index of 'l'; a row stride of 33 makes every access to 'l' conflict-free or no worse; it costs 128 more bytes of shared memory (4096 -> 4224)
}

// One index does not use the stride (a flat copy): changing the stride
// would change which element it names, so no padding is suggested.
constexpr int MX = 32;
// FIXED: {{^}}constexpr int MX = 32;
__global__ void mixedIndexing(float *out, const float *in) {
  __shared__ float x[32 * MX];
  x[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = x[threadIdx.x * MX];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'x' in bank 0 (32 wavefronts instead of 1); successive lanes are 32 words apart and 32 ≡ 0 (mod 32), so every lane maps to the same bank [shmem-bank-conflict]
}

// No padding works for both accesses: a swizzle is suggested instead.
__global__ void noPadding(float *out) {
  constexpr int SW = 32;
  // FIXED: {{^}}  constexpr int SW = 32;
  __shared__ float w[64 * SW];
  out[0] = w[threadIdx.x * SW];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: {{.*}}; no row stride for 'w' makes every access to it conflict-free or no worse: use an XOR swizzle applied at both the store and the load [shmem-bank-conflict]
  out[1] = w[threadIdx.x * 2 * SW];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: {{.*}}; no row stride for 'w' makes every access to it conflict-free or no worse: use an XOR swizzle applied at both the store and the load [shmem-bank-conflict]
}

// After the fix-its, only the kernels that got none still conflict.
// AFTER-NOT: warning: {{.*}} of 's'
// AFTER-NOT: warning: {{.*}} of 'm'
// AFTER-NOT: warning: {{.*}} of 'e'
// AFTER-DAG: warning: 32-way bank conflict: {{.*}} of 'g'
// AFTER-DAG: warning: 32-way bank conflict: {{.*}} of 'l'
// AFTER-DAG: warning: 32-way bank conflict: {{.*}} of 'p'

int main() {
  namedStride<<<1, dim3(32, 8)>>>(nullptr, nullptr);
  macroStride<<<1, dim3(32, 8)>>>(nullptr);
  enumStride<<<1, 32>>>(nullptr);
  sharedMeaning<<<1, 32>>>(nullptr);
  macroElsewhere<<<1, 32>>>(nullptr);
  literalStride<<<1, dim3(32, 8)>>>(nullptr);
  mixedIndexing<<<1, 32>>>(nullptr, nullptr);
  noPadding<<<1, 32>>>(nullptr);
}
