// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Known limit (found in ggml's rwkv_wkv_f32 and gated_linear_attn_f32): a
// loop whose counter starts at a per-thread value and whose bound is
// shifted by the same value, `for (t = base + tid; t < end + tid; t += C)`,
// runs the same number of times in every thread, but its condition is
// taken to differ between threads and the barriers in it are reported.
// This test pins the false alarm; the same loop over `t` from `base` is
// silent.

// shmem-lint: block=64
__global__ void shifted(const float *k, float *out, int base, int end, int C) {
  __shared__ float s[64];
  for (int t = base + threadIdx.x; t < end + threadIdx.x; t += C) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 't < end + threadIdx.x' of the loop at line 14 differs between threads
    s[threadIdx.x] = k[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: __syncthreads() runs a thread-dependent number of times: the condition 't < end + threadIdx.x' of the loop at line 14 differs between threads
    out[t] = s[63 - threadIdx.x];
  }
}

// shmem-lint: block=64
__global__ void unshifted(const float *k, float *out, int base, int end, int C) {
  __shared__ float s[64];
  for (int t = base; t < end; t += C) {
    __syncthreads();
    s[threadIdx.x] = k[t + threadIdx.x];
    __syncthreads();
    out[t + threadIdx.x] = s[63 - threadIdx.x];
  }
}
