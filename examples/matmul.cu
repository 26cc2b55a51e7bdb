// Tiled matrix multiplication, C = A * B, with 16x16 tiles.
//
// matmulTransposedTile stores the B tile transposed so that the inner
// product reads "a row of Bs". With 16x16 blocks a warp holds two rows of
// 16 threads, and threads tx, tx+2, ... of a row land 32 words apart in
// Bs[tx][ty]: an 8-way conflict on the store and on the read, which a
// padded row of 18 floats removes. The loop also lacks its trailing
// barrier, so the next iteration's stores race with this iteration's reads.
// matmulTiled is the textbook version and is clean.
#include <cuda_runtime.h>

#define BS 16

__global__ void matmulTransposedTile(const float *A, const float *B, float *C,
                                     int n) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / BS; ++t) {
    As[ty][tx] = A[row * n + t * BS + tx];
    Bs[tx][ty] = B[(t * BS + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[tx][k];
  }
  C[row * n + col] = acc;
}

__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / BS; ++t) {
    As[ty][tx] = A[row * n + t * BS + tx];
    Bs[ty][tx] = B[(t * BS + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

void matmul(const float *A, const float *B, float *C, int n) {
  dim3 block(BS, BS), grid(n / BS, n / BS);
  matmulTransposedTile<<<grid, block>>>(A, B, C, n);
  matmulTiled<<<grid, block>>>(A, B, C, n);
}
