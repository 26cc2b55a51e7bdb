// RUN: %check_all_front_ends %s shmem-race

// Shared memory reached through a reference member that the object's
// constructor set (CUB's `TempStorage &temp_storage`): the walk follows the
// constructor, so the accesses the methods make are ordered, or not, by the
// barriers around the calls like any other.

struct Buffer {
  float (&cells)[64];
  __device__ explicit Buffer(float (&c)[64]) : cells(c) {}
  __device__ void put(float v) { cells[threadIdx.x] = v; }
  __device__ float neighbour() const { return cells[(threadIdx.x + 1) % 64]; }
};

// shmem-lint: block=64
__global__ void unordered(const float *in, float *out) {
  __shared__ float s[64];
  Buffer b(s);
  b.put(in[threadIdx.x]);
  out[threadIdx.x] = b.neighbour();
}
// CHECK-MESSAGES: :12:47: warning: thread 31 reads s[32] (line 12) while thread 32 writes s[32] (line 11); no barrier between them; add __syncthreads() between line 19 and line 20

// shmem-lint: block=64
__global__ void ordered(const float *in, float *out) {
  __shared__ float s[64];
  Buffer b(s);
  b.put(in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = b.neighbour();
}

// A public member could be changed by any code, so the walk does not keep
// it; an index built from it is not known, but it is not data either: no
// claim, rather than a possible race "on data". (CUB's BlockHistogramSort
// indexes its bins by such a `linear_tid`.)
struct Slots {
  float (&cells)[64];
  int tid;
  __device__ explicit Slots(float (&c)[64]) : cells(c), tid(threadIdx.x) {}
  __device__ void put(float v) { cells[tid] = v; }
};

// shmem-lint: block=64
__global__ void publicMember(const float *in) {
  __shared__ float s[64];
  Slots(s).put(in[threadIdx.x]);
  Slots(s).put(in[threadIdx.x] + 1.0f);
}
