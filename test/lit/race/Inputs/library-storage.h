// A library's block collectives on shared storage the caller declares, as
// CUB's BlockReduce takes its TempStorage, and a helper writing through a
// shared pointer. The pragma makes this a system header, as the toolkit's
// (and CUB's) are: the walk does not enter its code.
#pragma clang system_header
template <int Threads> struct BlockSum {
  struct Storage {
    float partial[Threads / 32];
  };
  __device__ BlockSum(Storage &s) : s(s) {}
  __device__ float sum(float v) {
    s.partial[threadIdx.x / 32] = v;
    __syncthreads();
    float t = 0;
    for (int w = 0; w < Threads / 32; ++w)
      t += s.partial[w];
    return t;
  }
  Storage &s;
};
__device__ inline void library_fill(float *dst, float v) {
  dst[threadIdx.x] = v;
}
__device__ inline float library_twice(float x) { return 2 * x; }
// A value type with its own assignment, as cuda_fp16's __half2 has.
struct Pair {
  unsigned bits;
  __device__ Pair &operator=(const Pair &o) {
    bits = o.bits;
    return *this;
  }
};
