// RUN: %check_all_front_ends %s shmem-bank-conflict

// A call the compiler can evaluate (a constexpr function of constant
// arguments) is taken at its value, as nvcc folds it: its loops need not
// be unrolled by the walk, however long (ggml's mmq looks its tile sizes
// up in a constexpr table of some 380 tests).

constexpr __device__ int rowStride(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += 1;
  return s;
}

// 96 iterations, more than the walk unrolls: the stride is 96 all the
// same, 96 = 0 (mod 32), so every lane is in bank 0.
// shmem-lint: block=32
__global__ void foldedStride(float *out) {
  __shared__ float s[32 * 96];
  out[threadIdx.x] = s[threadIdx.x * rowStride(96)];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 0 (32 wavefronts instead of 1)
}

// Negative: a stride of 97 is odd, conflict-free. (Walked, the stride was
// an unknown, and the finding conditional on it.)
// shmem-lint: block=32
__global__ void foldedOddStride(float *out) {
  __shared__ float s[32 * 97];
  out[threadIdx.x] = s[threadIdx.x * rowStride(97)];
}

// Negative: an argument that differs between threads is no constant, so
// the call is walked per thread: a permutation of the lanes, whose
// banks differ (one value for every lane would be 32-way).
constexpr __device__ int swizzle(int lane) { return lane ^ (lane >> 3); }
// shmem-lint: block=32
__global__ void perThreadArgument(float *out) {
  __shared__ float s[32 * 32];
  out[threadIdx.x] = s[threadIdx.x * 32 + swizzle(threadIdx.x) % 32];
}
