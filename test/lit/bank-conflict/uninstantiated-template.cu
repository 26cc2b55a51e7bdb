// RUN: %check_all_front_ends %s shmem-bank-conflict

// A kernel template the translation unit never instantiates has no types
// or constants to analyse with: it is said, not passed over (a header-only
// .cuh analysed on its own looked clean).

template <int N>
__global__ void neverInstantiated(float *out) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: remark: kernel template 'neverInstantiated' not analysed: it is never instantiated in this translation unit; analyse the file that launches it, or instantiate it here (template __global__ void neverInstantiated<...>(...);){{( \[shmem-bank-conflict\])?}}
  __shared__ float s[N][N];
  s[threadIdx.x][0] = 1;
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}

// Launched, so instantiated: analysed, and its conflict found.
template <int N>
__global__ void launched(float *out) {
  __shared__ float s[N][N];
  s[threadIdx.x][0] = 1;
  // CHECK-MESSAGES-DAG: :[[@LINE-1]]:3: warning: 32-way bank conflict
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}

// Explicitly instantiated and never launched: analysed too.
template <int N>
__global__ void explicitlyInstantiated(float *out) {
  __shared__ float s[N][N + 1];
  s[threadIdx.x][0] = 1;
  __syncthreads();
  out[threadIdx.x] = s[0][threadIdx.x];
}
template __global__ void explicitlyInstantiated<32>(float *);

void host(float *out) { launched<32><<<1, 32>>>(out); }
