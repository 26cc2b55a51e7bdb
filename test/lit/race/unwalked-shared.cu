// RUN: %check_all_front_ends %s shmem-race

// Shared memory handed to code the walk does not enter (a system header's,
// as CUB's block collectives and the toolkit's wmma loads are) is accessed
// there unseen: said, where it is handed over, not passed over in silence.
#include "Inputs/library-storage.h"

// Positive: a collective object made on the kernel's storage, and a helper
// given a shared pointer.
__global__ void handedOver(const float *in, float *out) {
  __shared__ BlockSum<128>::Storage storage;
  __shared__ float tile[128];
  float total = BlockSum<128>(storage).sum(in[threadIdx.x]);
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: remark: accesses to shared 'storage' by 'BlockSum' not analysed: its code is in a system header, which the walk does not enter; races and bank conflicts there are not checked{{( \[shmem-race\])?}}
  library_fill(tile, total);
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:3: remark: accesses to shared 'tile' by 'library_fill' not analysed: its code is in a system header, which the walk does not enter; races and bank conflicts there are not checked{{( \[shmem-race\])?}}
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

// Positive: a function defined in another translation unit (-rdc).
__device__ void extern_fill(float *dst, float v);
__global__ void elsewhere(float *out) {
  __shared__ float tile[128];
  extern_fill(tile, 1.0f);
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:3: remark: accesses to shared 'tile' by 'extern_fill' not analysed: its code is not in this translation unit{{( \[shmem-race\])?}}
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

// Positive: a shared pointer passed to a function called through a
// pointer, which the walk does not follow.
__global__ void throughPointer(void (*fill)(float *, float), float *out) {
  __shared__ float tile[128];
  fill(tile, 1.0f);
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:3: remark: accesses to shared 'tile' by a function pointer not analysed: the walk does not follow calls through function pointers{{( \[shmem-race\])?}}
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}

// A value type's own assignment in a system header (cuda_fp16's __half2
// has one) is code the walk does not enter either: the store is said, not
// guessed.
__global__ void pairs(const Pair *in, Pair *out) {
  __shared__ Pair s[128];
  s[threadIdx.x] = in[threadIdx.x];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:18: remark: accesses to shared 's' by 'Pair::operator=' not analysed: its code is in a system header, which the walk does not enter; races and bank conflicts there are not checked{{( \[shmem-race\])?}}
  __syncthreads();
  out[threadIdx.x] = s[127 - threadIdx.x];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:20: remark: accesses to shared 's' by 'Pair::operator=' not analysed: its code is in a system header, which the walk does not enter; races and bank conflicts there are not checked{{( \[shmem-race\])?}}
}

// Negative: a value read here and passed by copy, and the user's own
// helper, which the walk follows (its race is found, nothing is said of
// it as not analysed).
__device__ void own_fill(float *dst, float v) { dst[threadIdx.x] = v; }

__global__ void walked(const float *in, float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float v = library_twice(tile[127 - threadIdx.x]);
  own_fill(tile, v);
// CHECK-MESSAGES-DAG: :[[@LINE-8]]:49: warning: thread 0 writes tile[0] (line [[@LINE-8]]) while thread 127 reads tile[0] (line [[@LINE-2]]); {{.*}} [shmem-race]
  out[threadIdx.x] = tile[threadIdx.x];
}

// Negative (no gap): a pointer the program cannot change is followed to
// its function, and the race in it is found.
__device__ void own_store(float *dst, float v) { dst[127 - threadIdx.x] = v; }
constexpr void (*const_fill)(float *, float) = own_store;

__global__ void constantPointer(const float *in, float *out) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float v = tile[threadIdx.x];
  const_fill(tile, v);
// CHECK-MESSAGES-DAG: :[[@LINE-9]]:50: warning: thread 0 writes tile[127] (line [[@LINE-9]]) while thread 127 reads tile[127] (line [[@LINE-2]]); {{.*}} [shmem-race]
  out[threadIdx.x] = v;
}

int main() {
  handedOver<<<1, 128>>>(nullptr, nullptr);
  walked<<<1, 128>>>(nullptr, nullptr);
  throughPointer<<<1, 128>>>(nullptr, nullptr);
  elsewhere<<<1, 128>>>(nullptr);
  pairs<<<1, 128>>>(nullptr, nullptr);
  constantPointer<<<1, 128>>>(nullptr, nullptr);
}
