// Conflicts only with the compile database's -DWIDTH=32; without it, WIDTH
// is undefined and the file does not compile.
#include "tiles.cuh"

__global__ void rows(float *out) {
  __shared__ float t[32][WIDTH];
  t[threadIdx.x][0] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[0][threadIdx.x];
}

void launch(float *o) {
  rows<<<1, 32>>>(o);
  columnRead<<<1, dim3(32, 32)>>>(o);
}
