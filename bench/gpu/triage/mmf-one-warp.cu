// ggml's mul_mat_f epilogue (mmf.cuh:231-266 at the corpus commit), written
// anew: the warps' mma fragments go through shared memory, each lane
// writing its own rows and columns, then each lane sums a column. The
// barriers around it are `if (nwarps > 1) __syncthreads();`, so with one
// warp (ggml launches nwarps = 1 through 5) nothing orders one lane's write
// before another lane's read. `synced` is the same with __syncwarp().
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

constexpr int kiw = 16 + 4; // rows of the buffer, padded

template <int nwarps, bool sync>
__global__ void epilogue(const float *in, float *out) {
  __shared__ float buf[8 * kiw];
  const int lane = threadIdx.x;
  if (nwarps > 1)
    __syncthreads();
  // A 16 x 8 tile of an m16n8 accumulator: lane holds rows lane/4 and
  // lane/4 + 8, columns 2*(lane%4) and 2*(lane%4) + 1.
  for (int l = 0; l < 4; ++l) {
    const int i = (l / 2) * 8 + lane / 4;
    const int j = 2 * (lane % 4) + l % 2;
    buf[j * kiw + i] = in[lane * 4 + l];
  }
  if (nwarps > 1)
    __syncthreads();
  if (sync)
    __syncwarp();
  float sum = 0;
  if (lane < 16)
    for (int j = 0; j < 8; ++j)
      sum += buf[j * kiw + lane];
  out[lane] = sum;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  float h[128];
  for (int k = 0; k < 128; ++k)
    h[k] = k;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    cudaError_t e = cudaDeviceSynchronize();
    float o[32];
    cudaMemcpy(o, out, sizeof(o), cudaMemcpyDeviceToHost);
    printf("%s: %s, row 0 sums to %g (expected %g)\n", name,
           cudaGetErrorString(e), o[0], 52.0);
  };
  run("oneWarp", [&] { epilogue<1, false><<<1, 32>>>(in, out); });
  run("synced", [&] { epilogue<1, true><<<1, 32>>>(in, out); });
  return 0;
}
