// Two patterns shmem-lint reports in ggml's template instances
// (docs/evaluation.md, "ggml's whole backend"), reduced to what they do to
// shared memory, to see what the H200 and compute-sanitizer make of them.
// run.sh builds and runs this file; h200.txt is its output.
#include <cstdio>

// fattn-mma-f16.cuh:1494-1564 at ggml d99724f2: __syncthreads() in both
// arms of a threadIdx.y-dependent branch (two aligned bar.sync).
__global__ void bothArms(int *out, int np) {
  __shared__ int s[128];
  const int tid = threadIdx.y * 32 + threadIdx.x;
  if (np > 1 && threadIdx.y % np == 0) {
    s[tid] = tid;
    __syncthreads();
    out[tid] = s[(tid + 32) % 128];
  } else if (np > 1) {
    s[tid] = tid;
    __syncthreads();
    out[tid] = s[(tid + 32) % 128];
  }
}

// mmf.cuh:140-160: lane 0 initialises slot_map[j], then the lane whose id
// matches stores its index, with no __syncwarp() between the two stores.
__global__ void slotMap(const int *ids, int expert, int *out) {
  __shared__ int slot_map[4];
  const int j = threadIdx.y;
  if (threadIdx.x == 0)
    slot_map[j] = -1;
  for (int k = threadIdx.x; k < 64; k += 32)
    if (ids[j * 64 + k] == expert) {
      slot_map[j] = k;
      break;
    }
  __syncwarp();
  if (threadIdx.x == 0)
    out[j] = slot_map[j];
}

int main() {
  int *out, *ids;
  cudaMallocManaged(&out, 128 * sizeof(int));
  cudaMallocManaged(&ids, 4 * 64 * sizeof(int));
  for (int i = 0; i < 4 * 64; ++i)
    ids[i] = (i % 64 == 7 + (i / 64)) ? 5 : 0; // row j matches at k = 7 + j
  bothArms<<<1, dim3(32, 4)>>>(out, 2);
  cudaError_t E = cudaDeviceSynchronize();
  int Wrong = 0;
  for (int t = 0; t < 128; ++t)
    Wrong += out[t] != (t + 32) % 128;
  printf("bothArms: %s, %d of 128 values wrong\n", cudaGetErrorString(E), Wrong);
  slotMap<<<1, dim3(32, 4)>>>(ids, 5, out);
  E = cudaDeviceSynchronize();
  printf("slotMap: %s, slots %d %d %d %d (expected 7 8 9 10)\n",
         cudaGetErrorString(E), out[0], out[1], out[2], out[3]);
  return 0;
}
