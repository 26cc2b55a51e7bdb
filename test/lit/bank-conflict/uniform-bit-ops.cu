// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-UNCOND --tidy-config='{CheckOptions: {shmem-bank-conflict.ReportConditional: false}}' --plugin-args=report-conditional=0 --driver-args=--report-conditional=0

// Unknown uniform values (kernel parameters, loop counters) combined with
// the lane through bit operations are not affine: the check enumerates the
// unknown's residues modulo 32 and compares the degrees.

// An XOR swizzle with a uniform value permutes the banks: conflict-free for
// every value, so silent.
__global__ void swizzleParam(float *out, int c) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x][(c ^ threadIdx.x) % 32];
}
__global__ void swizzleLoop(float *out, const float *in, int n) {
  __shared__ float s[32 * 32];
  s[threadIdx.x * 32 + ((threadIdx.x ^ blockIdx.x) & 31)] = in[threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += s[threadIdx.x * 32 + ((k ^ threadIdx.x) & 31)];
  out[0] = acc;
}

// The swizzled column lands in one bank for every value of c.
__global__ void alwaysConflicted(float *out, int c) {
  __shared__ float s[32 * 32];
  out[0] = s[((c ^ threadIdx.x) % 32) * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 0 (32 wavefronts instead of 1) [shmem-bank-conflict]
  // CHECK-UNCOND: :[[@LINE-2]]:12: warning: 32-way bank conflict: lanes 0-31
}

// A mask: 2^popcount(c mod 32) distinct words, all in bank 0.
__global__ void maskedByParam(float *out, int c) {
  __shared__ float s[32 * 32];
  out[0] = s[(threadIdx.x & c) * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict when 'c' ≡ 31 (mod 32); conflict-free when 'c' is a multiple of 32: lanes 0-31 read 32 distinct words of 's' in bank 0 (32 wavefronts instead of 1) [shmem-bank-conflict]
}

// Half-word elements: residues modulo 64 matter; XOR is still a permutation.
__global__ void swizzleShort(short *out, int c) {
  __shared__ short h[64 * 64];
  out[0] = h[threadIdx.x * 64 + ((c ^ (2 * threadIdx.x)) & 63)];
  out[1] = h[((c ^ threadIdx.x) & 63) * 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'h' in bank 0 (32 wavefronts instead of 1) [shmem-bank-conflict]
  // CHECK-UNCOND: :[[@LINE-2]]:12: warning: 32-way bank conflict: lanes 0-31
}

// Division brings in the high bits of c: no claim.
__global__ void divided(float *out, int c) {
  __shared__ float s[32 * 64];
  out[0] = s[((c ^ threadIdx.x) / 3) * 32];
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  swizzleParam<<<1, 32>>>(nullptr, argc);
  swizzleLoop<<<1, 32>>>(nullptr, nullptr, argc);
  alwaysConflicted<<<1, 32>>>(nullptr, argc);
  maskedByParam<<<1, 32>>>(nullptr, argc);
  swizzleShort<<<1, 32>>>(nullptr, argc);
  divided<<<1, 32>>>(nullptr, argc);
}
