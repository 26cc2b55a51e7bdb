// RUN: %check_all_front_ends %s shmem-bank-conflict

// A call the walk does not follow (past the inlining depth of 12, or a
// recursive one) leaves what the callee does out of every check: it is
// said as a remark, not left silent.

// Twelve calls deep (ggml's flash attention reaches its cp.async and
// memcpy helpers through eight or nine): the walk follows every one, and
// finds the conflict in the innermost.
__device__ float e11(float *s) { return s[threadIdx.x * 32]; }
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:41: warning: 32-way bank conflict{{.*}} [shmem-bank-conflict]
__device__ float e10(float *s) { return e11(s); }
__device__ float e9(float *s) { return e10(s); }
__device__ float e8(float *s) { return e9(s); }
__device__ float e7(float *s) { return e8(s); }
__device__ float e6(float *s) { return e7(s); }
__device__ float e5(float *s) { return e6(s); }
__device__ float e4(float *s) { return e5(s); }
__device__ float e3(float *s) { return e4(s); }
__device__ float e2(float *s) { return e3(s); }
__device__ float e1(float *s) { return e2(s); }
__device__ float e0(float *s) { return e1(s); }
__global__ void twelve(float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = e0(s);
  // CHECK-MESSAGES-DAG: :[[@LINE-1]]:22: note: in the call from kernel 'twelve'
}

// Thirteen: the thirteenth call is not followed, and that is said.
__device__ float d12(float *s) { return s[threadIdx.x * 32]; }
__device__ float d11(float *s) { return d12(s); }
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:41: remark: call to 'd12' not followed: inlining depth of 12 reached{{( \[shmem-bank-conflict\])?}}
__device__ float d10(float *s) { return d11(s); }
__device__ float d9(float *s) { return d10(s); }
__device__ float d8(float *s) { return d9(s); }
__device__ float d7(float *s) { return d8(s); }
__device__ float d6(float *s) { return d7(s); }
__device__ float d5(float *s) { return d6(s); }
__device__ float d4(float *s) { return d5(s); }
__device__ float d3(float *s) { return d4(s); }
__device__ float d2(float *s) { return d3(s); }
__device__ float d1(float *s) { return d2(s); }
__device__ float d0(float *s) { return d1(s); }
// Recursion: not followed either.
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:54: remark: call to 'fact' not followed: it calls itself through the calls walked to reach it{{( \[shmem-bank-conflict\])?}}
__global__ void thirteen(float *out) {
  // CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: kernel 'thirteen' not fully analysed for a block of 32 threads (launch at line {{[0-9]+}})
  __shared__ float s[1024];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = d0(s) + fact(threadIdx.x & 3);
  // CHECK-MESSAGES-DAG: :[[@LINE-1]]:22: note: in the call from kernel 'thirteen'
  // CHECK-MESSAGES-DAG: :[[@LINE-2]]:30: note: in the call from kernel 'thirteen'
}

int main() {
  twelve<<<1, 32>>>(nullptr);
  thirteen<<<1, 32>>>(nullptr);
}
