// RUN: %check_all_front_ends %s shmem-bank-conflict

// A kernel parameter that every launch in the file passes one integer
// constant for (a literal, or a `const` local set to one) is analysed as
// that constant: the finding is the one that holds for the program as
// written, not one conditional on the parameter.

// Launched with ld = 32: 32-way, for certain.
__global__ void strideFromLaunch(float *out, int ld) {
  __shared__ float buf[32 * 64];
  out[threadIdx.x] = buf[threadIdx.x * ld];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'buf' in bank 0 (32 wavefronts instead of 1){{.*}} [shmem-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32 threads (launch at line 40; 'ld' = 32 at every launch)
}

// Launched with ld = 33 (through a const local): conflict-free, silent.
__global__ void paddedFromLaunch(float *out, int ld) {
  __shared__ float buf[33 * 64];
  out[threadIdx.x] = buf[threadIdx.x * ld];
}

// Launched with 32 and with 33: not one constant, so the finding stays
// conditional on ld.
__global__ void twoStrides(float *out, int ld) {
  __shared__ float buf[33 * 64];
  out[threadIdx.x] = buf[threadIdx.x * ld];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict when 'ld' is a multiple of 32; conflict-free when 'ld' is odd{{.*}} [shmem-bank-conflict]
}

// Launched through a pointer as well: the pointer's arguments are not
// seen, so ld stays unknown.
__global__ void alsoThroughPointer(float *out, int ld) {
  __shared__ float buf[32 * 64];
  out[threadIdx.x] = buf[threadIdx.x * ld];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict when 'ld' is a multiple of 32{{.*}} [shmem-bank-conflict]
}

void launch(int n) {
  const int padded = 33;
  strideFromLaunch<<<1, 32>>>(nullptr, 32);
  paddedFromLaunch<<<1, 32>>>(nullptr, padded);
  twoStrides<<<1, 32>>>(nullptr, 32);
  twoStrides<<<1, 32>>>(nullptr, 33);
  alsoThroughPointer<<<1, 32>>>(nullptr, 32);
  void (*k)(float *, int) = alsoThroughPointer;
  k<<<1, 32>>>(nullptr, n);
}
