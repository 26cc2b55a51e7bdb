// Matrix transpose through a shared-memory tile (the classic example from
// NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++").
//
// shmem-lint finds the 32-way bank conflict of the column read in
// transposeNaiveTile and offers the padding fix; transposePadded is the fix
// applied and is clean.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transposeNaiveTile(float *out, const float *in, int width,
                                   int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposePadded(float *out, const float *in, int width,
                                int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int n) {
  dim3 grid(n / TILE, n / TILE), block(TILE, ROWS);
  transposeNaiveTile<<<grid, block>>>(out, in, n, n);
  transposePadded<<<grid, block>>>(out, in, n, n);
}
