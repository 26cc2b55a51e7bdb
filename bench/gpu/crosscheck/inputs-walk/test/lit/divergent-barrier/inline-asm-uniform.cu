// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Inline asm that only computes from its operands (cuda-samples'
// cdpBitonicSort rounds a length up to a power of two with `bfind`) gives
// outputs as uniform as its inputs: a loop bound computed so from a kernel
// parameter is the same in every thread. An asm that reads a special
// register, loads memory or exchanges between lanes gives a value that may
// differ between threads, and so does one computed from threadIdx.

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
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void ofThreadIndex(unsigned *out) {
  __shared__ unsigned s[256];
  unsigned n = highestBit(threadIdx.x + 1u);
  for (unsigned k = 0; k < n; ++k) {
    s[threadIdx.x] = k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void loadsMemory(unsigned *out, const unsigned *len) {
  __shared__ unsigned s[256];
  unsigned n;
  asm("ld.global.u32 %0, [%1];" : "=r"(n) : "l"(len + threadIdx.x));
  for (unsigned k = 0; k < n; ++k) {
    s[threadIdx.x] = k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void readsLaneRegister(unsigned *out, unsigned len) {
  __shared__ unsigned s[256];
  unsigned n;
  asm("add.u32 %0, %1, %%laneid;" : "=r"(n) : "r"(len));
  for (unsigned k = 0; k < n; ++k) {
    s[threadIdx.x] = k;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
  }
  out[threadIdx.x] = s[threadIdx.x];
}
