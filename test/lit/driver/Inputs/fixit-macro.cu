// The tile's size is a macro: no padding fix-it (the edit would change the
// macro for every use), so the text shows none.
#define TILE 32
__global__ void macro(float *out, int c) {
  __shared__ float tile[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[0] = tile[threadIdx.x][c];
}

int main() { macro<<<1, dim3(32, 8)>>>(nullptr, 0); }
