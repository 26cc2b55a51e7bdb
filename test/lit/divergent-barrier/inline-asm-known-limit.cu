// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Known limit (found in cuda-samples' cdpBitonicSort): the result of inline
// asm is taken to vary between threads, even when its inputs are uniform
// and its text reads no per-thread register. Here `bfind` of a kernel
// parameter rounds it up to a power of two; the loop bound is the same in
// every thread, but the barrier in the loop is reported. This test pins the
// false alarm; the same bound computed in C++ is (rightly) silent.

__device__ unsigned highestBit(unsigned word) {
  unsigned ret;
  asm("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
  return ret;
}

__global__ void viaAsm(unsigned *out, unsigned len) {
  __shared__ unsigned s[256];
  unsigned len2 = 1u << (highestBit(len - 1u) + 1);
  for (unsigned k = 2; k <= len2; k *= 2) {
    s[threadIdx.x] = k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 'k <= len2' of the loop at line 19 differs between threads
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void viaShift(unsigned *out, unsigned len) {
  __shared__ unsigned s[256];
  unsigned len2 = 1u << len;
  for (unsigned k = 2; k <= len2; k *= 2) {
    s[threadIdx.x] = k;
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}
