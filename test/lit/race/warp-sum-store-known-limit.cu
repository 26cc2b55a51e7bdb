// RUN: %check_all_front_ends %s shmem-race

// Known limit (found in ggml's mul_mat_vec_f): after a butterfly reduction
// with __shfl_xor_sync every lane of a warp holds the same sum, and code
// then lets every lane store it (`buf[tid / 32] = sum`). That is a benign
// same-value store, which is only reported with ReportBenign, but shuffles
// are not modelled as giving a warp-uniform value, so it is reported as a
// race of different values. This test pins the false alarm; storing from
// one lane per warp is silent.

// shmem-lint: block=64
__global__ void everyLaneStores(const float *in, float *out) {
  __shared__ float buf[2];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  buf[threadIdx.x / 32] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 1 writes buf[0] (line 17) while thread 0 writes buf[0] (line 17)
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1];
}

// shmem-lint: block=64
__global__ void oneLaneStores(const float *in, float *out) {
  __shared__ float buf[2];
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    buf[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = buf[0] + buf[1];
}
