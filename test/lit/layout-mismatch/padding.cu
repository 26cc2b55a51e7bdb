// RUN: %check_all_front_ends %s shmem-layout-mismatch

// Flat tiles with padded rows: `t[r * 33 + c]` keeps element (r, c) in
// row r of 33 floats; a reader using another row length gets another
// element. The row is the term with the largest constant factor.

// Written padded, read unpadded.
__global__ void paddedThenUnpadded(float *out, const float *in) {
  __shared__ float t[32 * 33];
  int r = threadIdx.y, c = threadIdx.x;
  t[r * 33 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r * 32 + c];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[32] as element (1, 0), but the store at line 11 put element (1, 0) at t[33] (992 of 1024 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: element (1, 0) is stored at t[33] here, through 't[r * 33 + c]'; read 't' through the same index formula
}

// Written unpadded, read padded, the row length a named constant.
constexpr int Pitch = 33;
__global__ void unpaddedThenPadded(float *out, const float *in) {
  __shared__ float t[32 * Pitch];
  int r = threadIdx.y, c = threadIdx.x;
  t[(r << 5) + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[c + r * Pitch];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[33] as element (1, 0), but the store at line 23 put element (1, 0) at t[32] and t[33] holds element (1, 1)
}

// Padded on both sides, read straight and transposed: silent.
__global__ void paddedBothSides(float *out, const float *in) {
  __shared__ float t[32 * 33];
  int r = threadIdx.y, c = threadIdx.x;
  t[r * 33 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[c * 33 + r] + t[r * 33 + c];
}

// A 2-D padded array is indexed the same way on both sides: silent.
__global__ void padded2D(float *out, const float *in) {
  __shared__ float t[32][33];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

// Filled linearly, then read as rows of 32 (or viewed as rows of 64): the
// linear index means no row, so no claim; a re-shaped view of the rows is
// not a padding either.
__global__ void linearFillAndReshape(float *out, const float *in) {
  __shared__ float t[1024];
  __shared__ float u[1024];
  int tid = threadIdx.y * 32 + threadIdx.x;
  t[tid] = in[tid];
  u[threadIdx.y * 32 + threadIdx.x] = in[tid];
  __syncthreads();
  out[tid] = t[threadIdx.y * 33 % 1024 + threadIdx.x] +
             u[(tid / 64) * 64 + tid % 64];
}

// A stencil reading the neighbours of a padded tile: the element at column
// c + 1 is the one written there. Silent.
__global__ void stencil(float *out, const float *in) {
  __shared__ float t[34 * 33];
  int r = threadIdx.y + 1, c = threadIdx.x + 1;
  t[r * 33 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r * 33 + c - 1] + t[r * 33 + c + 1] + t[(r - 1) * 33 + c] +
                    t[(r + 1) * 33 + c];
}

// Strided 1-D indices are not rows: 't[tid * 64]' and 't[tid * 2]' name
// elements 64 * tid and 2 * tid, written or not. Silent.
__global__ void strided1D(short *out) {
  __shared__ short h[32 * 64];
  h[threadIdx.x] = 1;
  h[threadIdx.x * 64] = 2;
  __syncthreads();
  out[threadIdx.x] = h[threadIdx.x * 2];
}

int main() {
  paddedThenUnpadded<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  unpaddedThenPadded<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  paddedBothSides<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  padded2D<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  linearFillAndReshape<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  stencil<<<1, dim3(31, 32)>>>(nullptr, nullptr);
  strided1D<<<1, 32>>>(nullptr);
}
