// RUN: %check_all_front_ends %s shmem-layout-mismatch

// Common tiled kernels whose producers and consumers agree on the layout:
// all silent, including tiles read transposed on purpose, but for the
// last one.

// The textbook transpose: stored row-wise, read transposed.
__global__ void transpose(float *out, const float *in, int width) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Tiled matrix multiplication with a run-time number of tiles.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// A tree reduction in place.
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// A swizzled tile in a template, consistent in every instantiation.
template <int N>
__global__ void swizzledCopy(float *out, const float *in) {
  __shared__ float t[N][N];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c ^ (r % N)] = in[r * N + c];
  __syncthreads();
  out[c * N + r] = t[c][r ^ (c % N)];
}

// Dynamic shared memory with a padded flat layout used the same way.
__global__ void dynamicPadded(float *out, const float *in) {
  extern __shared__ float buf[];
  int r = threadIdx.y, c = threadIdx.x;
  buf[r * 33 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = buf[c * 33 + r];
}

// The matmul with its B tile stored swizzled (to spread a transposed
// store over the banks) but read as if plain.
__global__ void matmulSwizzledB(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx ^ ty] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'Bs' is read through a different layout than it was written with: thread (0,0) reads Bs[1][0] as element (1, 0), but the store at line 82 put element (1, 0) at Bs[1][1] and Bs[1][0] holds element (1, 1)
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main() {
  transpose<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, 256);
  matmul<<<dim3(8, 8), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 128);
  reduce<<<8, 256>>>(nullptr, nullptr);
  swizzledCopy<32><<<1, dim3(32, 32)>>>(nullptr, nullptr);
  swizzledCopy<16><<<1, dim3(16, 16)>>>(nullptr, nullptr);
  dynamicPadded<<<1, dim3(32, 32), 32 * 33 * 4>>>(nullptr, nullptr);
  matmulSwizzledB<<<dim3(8, 8), dim3(16, 16)>>>(nullptr, nullptr, nullptr, 128);
}
