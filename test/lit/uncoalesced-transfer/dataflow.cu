// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer

// Which global accesses feed or drain shared memory: the loaded value
// reaches a shared store through locals, conversions, arithmetic, helper
// functions, vector types and cache-hinted loads.

__device__ float scale(float v, float k) { return v * k; }

__device__ void stage(float *dst, const float *src, int stride) {
  dst[threadIdx.x] = src[threadIdx.x * stride];
  // Named after the kernel's buffer; a note shows the call.
  // CHECK-MESSAGES: :[[@LINE-2]]:22: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 128 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE+13]]:3: note: in the call from kernel 'throughLocals'
}

__global__ void throughLocals(float *out, const float *in, float k) {
  __shared__ float s[6][128];
  float v = in[threadIdx.x * 4];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: global load from 'in' is uncoalesced: a warp's request touches 16 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 16 bytes apart [shmem-uncoalesced-transfer]
  v = v * k + 1.0f;
  s[0][threadIdx.x] = v;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the loaded value is stored to 's' here
  // Through a helper function's result, and a helper that stores itself.
  s[1][threadIdx.x] = scale(in[threadIdx.x * 2 + 1], k);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors
  stage(s[2], in, 32);
  // Cache-hinted load.
  s[3][threadIdx.x] = __ldg(&in[threadIdx.x * 8]);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 32 bytes apart [shmem-uncoalesced-transfer]
  // Assigned under a branch: the threads that loaded still feed the tile;
  // only they count (16 lanes, 64 bytes).
  float w = 0.0f;
  if (threadIdx.x % 32 < 16)
    w = in[threadIdx.x * 3];
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: global load from 'in' is uncoalesced: a warp's request touches 6 sectors of 32 bytes for 64 bytes, where 2 would do; successive lanes are 12 bytes apart [shmem-uncoalesced-transfer]
  s[4][threadIdx.x] = w;
  // The loaded value only decides an index or a branch: no transfer.
  int idx = (int)in[threadIdx.x * 16];
  if (in[threadIdx.x * 32] > 0.0f)
    s[5][idx & 127] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 6][threadIdx.x];
}

// Vector types: float4 lanes back to back are 16 sectors for 512 bytes
// (ideal); every other float4 is 32 sectors for the same 512 bytes.
__global__ void vectors(float4 *out, const float4 *in) {
  __shared__ float4 s[2][64];
  float4 a = in[threadIdx.x];
  s[0][threadIdx.x] = a;
  float4 b = in[2 * threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 512 bytes, where 16 would do; successive lanes are 32 bytes apart [shmem-uncoalesced-transfer]
  s[1][threadIdx.x] = b;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 2][threadIdx.x];
}

// A loop with a run-time trip count: the iteration only shifts the warp.
__global__ void gridStride(float *out, const float *in, int n) {
  __shared__ float s[256];
  float acc = 0.0f;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

int main() {
  throughLocals<<<1, 64>>>(nullptr, nullptr, 2.0f);
  vectors<<<1, 64>>>(nullptr, nullptr);
  gridStride<<<1, 256>>>(nullptr, nullptr, 0);
}
