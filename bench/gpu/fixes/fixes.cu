// The fix-its shmem-lint offers, applied, on the H200 (issue #25): the XOR
// swizzle of test/lit/bank-conflict/swizzle-fixit.cu (a 48 KB tile, where
// padding is past the static limit) before and after, its shared-memory
// wavefronts measured with ncu and its values checked; the named barrier
// of a race in a branch is in bench/gpu/named-barrier (inBranch*).
// run.sh builds and runs this; h200.txt is its output.
#include <cstdio>
#include <cstring>

// shmem-lint: block=32
__global__ void swizzleBefore(float *out) {
  __shared__ float tile[96][128];
  for (int j = 0; j < 3; ++j)
    tile[threadIdx.x + 32 * j][j] = j + threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] =
      tile[0][threadIdx.x % 4] + tile[threadIdx.x + 64][2];
}

// The fix-it applied (clang-tidy --fix).
// shmem-lint: block=32
__global__ void swizzleAfter(float *out) {
  __shared__ float tile[96][128];
  for (int j = 0; j < 3; ++j)
    tile[threadIdx.x + 32 * j][j ^ ((threadIdx.x + 32 * j) % 128)] =
        j + threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 32 + threadIdx.x] =
      tile[0][threadIdx.x % 4] + tile[threadIdx.x + 64][2 ^ ((threadIdx.x + 64) % 128)];
}

int main(int argc, char **argv) {
  const int Blocks = 1;
  float *Out;
  cudaMalloc(&Out, Blocks * 32 * sizeof(float));
  float Host[2][32];
  for (int K = 0; K < 2; ++K) {
    if (K == 0)
      swizzleBefore<<<Blocks, 32>>>(Out);
    else
      swizzleAfter<<<Blocks, 32>>>(Out);
    cudaError_t E = cudaDeviceSynchronize();
    cudaMemcpy(Host[K], Out, 32 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%s: %s\n", K ? "swizzleAfter" : "swizzleBefore",
           cudaGetErrorString(E));
  }
  int Diff = 0;
  for (int T = 0; T < 32; ++T)
    Diff += Host[0][T] != Host[1][T];
  printf("values that differ between before and after: %d of 32\n", Diff);
  return Diff != 0;
}
