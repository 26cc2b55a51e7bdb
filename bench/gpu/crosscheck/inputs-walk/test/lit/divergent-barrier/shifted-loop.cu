// RUN: %check_all_front_ends %s shmem-divergent-barrier

// A loop whose counter starts at a per-thread value and whose bound is
// shifted by the same value, `for (t = base + tid; t < end + tid; t += C)`
// (ggml's rwkv_wkv_f32 and gated_linear_attn_f32), runs the same number of
// times in every thread: the per-thread parts cancel in the comparison. A
// bound shifted by another per-thread value, a step that differs between
// threads, or shifts chosen by a thread-dependent branch do not cancel.

// shmem-lint: block=64
__global__ void shifted(const float *k, float *out, int base, int end, int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  for (int t = base + tid; t < end + tid; t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    out[t] = s[63 - tid];
  }
}

// shmem-lint: block=64
__global__ void shiftedBuiltin(const float *k, float *out, int n, int C) {
  __shared__ float s[64];
  for (int t = threadIdx.x; t - threadIdx.x < n; t += C) {
    __syncthreads();
    s[threadIdx.x] = k[t];
    __syncthreads();
    out[t] = s[63 - threadIdx.x];
  }
}

// shmem-lint: block=64
__global__ void otherShift(const float *k, float *out, int base, int end,
                           int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  for (int t = base + tid; t < end + 2 * tid; t += C) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
    s[tid] = k[t];
  }
}

// shmem-lint: block=64
__global__ void varyingStep(const float *k, float *out, int base, int end) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  for (int t = base + tid; t < end + tid; t += tid + 1) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
    s[tid] = k[t];
  }
}

// shmem-lint: block=64
__global__ void branchChosen(const float *k, float *out, int a, int b,
                             int end) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  int t;
  if (tid < 16)
    t = a + tid;
  else
    t = b + tid;
  for (; t < end + tid; t += 64) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
    s[tid] = k[t];
  }
}

// shmem-lint: block=64
__global__ void negated(const float *k, float *out, int base, int end) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  for (int t = base - tid; t < end + tid; t += 64) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times
    s[tid] = k[t];
  }
}
