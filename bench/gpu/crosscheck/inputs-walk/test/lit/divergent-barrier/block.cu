// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Block barriers under branches, in a block of 256 threads (the launches at
// the end of the file).

__global__ void halfBlock(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  if (tid < 128) {
    s[tid] = in[tid];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 128 (128 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: this condition depends on threadIdx.x; hoist the barrier out of the branch so that every thread of the block reaches it
    out[tid] = s[127 - tid];
  }
}

__global__ void elseBranch(float *out) {
  __shared__ float s[256];
  if (threadIdx.x % 2 == 0) {
    out[threadIdx.x] = 0;
  } else {
    s[threadIdx.x] = 1;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x % 2 == 1 (128 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    out[threadIdx.x] = s[threadIdx.x ^ 1];
  }
}

// The value of the condition is data: no per-thread witness, but the
// decision is the same.
__global__ void dataDependent(float *out, const float *in) {
  if (in[threadIdx.x] > 0.0f)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'in[threadIdx.x] > 0.0f' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on the value loaded by 'in[threadIdx.x]' from a thread-dependent address; hoist the barrier out of the branch so that every thread of the block reaches it
}

// Each warp takes its own side: warp-uniform is not block-uniform.
__global__ void firstWarp(float *out) {
  unsigned warp = threadIdx.x / 32;
  if (warp == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 32 (32 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
}

// Only the right-hand operand of && depends on the thread.
__global__ void shortCircuit(float *out, int n) {
  if (n > 4 && threadIdx.x < 64)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'threadIdx.x < 64' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: this condition depends on threadIdx.x;
}

__global__ void switchOnThread(float *out) {
  switch (threadIdx.x & 3) {
  case 0:
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x % 4 == 0 (64 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    break;
  default:
    break;
  }
}

// A value loaded per thread selects a case the walk cannot compute.
__global__ void switchOnData(const int *in) {
  switch (in[threadIdx.x]) {
  case 0:
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'in[threadIdx.x]' selects this case; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
    break;
  default:
    break;
  }
}

// Atomics return a different value to every thread.
__global__ void atomicTicket(int *counter) {
  int ticket = atomicAdd(counter, 1);
  if (ticket == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by the threads for which 'ticket == 0' is true; the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on the result of 'atomicAdd';
}

// A value assigned under a thread-dependent branch differs after the join.
__global__ void assignedUnderBranch(float *out, int n) {
  int phase = 0;
  if (threadIdx.x < 16)
    phase = 1;
  if (phase == 1)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() is reached only by threads with threadIdx.x < 16 (16 of 256 threads); the other threads skip it, so the block may hang or synchronise at the wrong barrier [shmem-divergent-barrier]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: this condition depends on 'phase', which is assigned under the thread-dependent branch at line [[@LINE-5]];
}

//===----------------------------------------------------------------------===//
// Silent: conditions every thread of the block agrees on.
//===----------------------------------------------------------------------===//

__global__ void guardClosedBeforeBarrier(float *out, const float *in, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = in[i];
  }
  __syncthreads();
  if (i < n)
    out[i] = s[255 - threadIdx.x];
}

__global__ void reduction(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void blockCondition(float *out) {
  if (blockIdx.x == 0) {
    __syncthreads();
  }
  if (gridDim.x > 1 && blockIdx.y % 2 == 1)
    __syncthreads();
}

__global__ void parameterCondition(float *out, int mode, const int *flags) {
  if (mode > 2)
    __syncthreads();
  // A load every thread makes from the same address.
  if (flags[blockIdx.x] != 0)
    __syncthreads();
  __shared__ int decided;
  if (threadIdx.x == 0)
    decided = flags[0];
  __syncthreads();
  if (decided)
    __syncthreads();
}

template <int Stages> __global__ void templateCondition(float *out) {
  if (Stages > 1)
    __syncthreads();
  for (int k = 0; k < Stages; ++k)
    __syncthreads();
}

// Every thread of a 256-thread block passes this test.
__global__ void wholeBlock(float *out) {
  if (threadIdx.x < 256)
    __syncthreads();
  if (threadIdx.x < blockDim.x)
    __syncthreads();
}

// Block-wide reductions return the same value to every thread.
__global__ void collectiveCondition(const float *in) {
  int any = __syncthreads_or(in[threadIdx.x] > 0.0f);
  if (any)
    __syncthreads();
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  halfBlock<<<1, 256>>>(nullptr, nullptr);
  elseBranch<<<1, 256>>>(nullptr);
  dataDependent<<<1, 256>>>(nullptr, nullptr);
  firstWarp<<<1, 256>>>(nullptr);
  shortCircuit<<<1, 256>>>(nullptr, argc);
  switchOnThread<<<1, 256>>>(nullptr);
  switchOnData<<<1, 256>>>(nullptr);
  atomicTicket<<<1, 256>>>(nullptr);
  assignedUnderBranch<<<1, 256>>>(nullptr, argc);
  guardClosedBeforeBarrier<<<4, 256>>>(nullptr, nullptr, argc);
  reduction<<<4, 256>>>(nullptr, nullptr);
  blockCondition<<<4, 256>>>(nullptr);
  parameterCondition<<<4, 256>>>(nullptr, argc, nullptr);
  templateCondition<3><<<1, 256>>>(nullptr);
  wholeBlock<<<1, 256>>>(nullptr);
  collectiveCondition<<<1, 256>>>(nullptr);
}
