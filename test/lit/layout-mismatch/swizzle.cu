// RUN: %check_all_front_ends %s shmem-layout-mismatch

// XOR and rotation swizzles: the element a thread means is given by the
// row and the un-swizzled column its index formula computes; a read is
// reported when that element was stored to other bytes.

// Stored swizzled, read plain: row r > 0 reads another element.
__global__ void swizzledThenPlain(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c ^ (r % 32)] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[1][0] as element (1, 0), but the store at line 11 put element (1, 0) at t[1][1] and t[1][0] holds element (1, 1) (992 of 1024 reads get another element than they index) [shmem-layout-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: element (1, 0) is stored at t[1][1] here, through 't[r][c ^ (r % 32)]'; read 't' through the same index formula
}

// Stored plain, read through a swizzle.
__global__ void plainThenSwizzled(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r][c ^ r];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[1][1] as element (1, 0), but the store at line 22 put element (1, 0) at t[1][0] and t[1][1] holds element (1, 1) (992 of 1024 reads
}

// Two different swizzles.
__global__ void twoSwizzles(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c ^ (r & 7)] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r][c ^ (r % 32)];
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 't' is read through a different layout than it was written with: thread (0,8) reads t[8][8] as element (8, 0), but the store at line 32 put element (8, 0) at t[8][0]
}

// The same swizzle on both sides, spelled differently (& 31 for % 32, the
// swizzled column computed into a local first): silent.
__global__ void sameSwizzle(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c ^ (r % 32)] = in[r * 32 + c];
  __syncthreads();
  int sc = c ^ (r & 31);
  out[r * 32 + c] = t[r][sc];
}

// A swizzled tile read transposed through the same swizzle: silent.
__global__ void swizzledTransposed(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c ^ r] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[c][r ^ c];
}

// A rotation (skew) stored and read consistently, then read plain.
__global__ void rotation(float *out, const float *in) {
  __shared__ float t[32][32];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][(c + r) % 32] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[c][(r + c) % 32];
  out[1024 + r * 32 + c] = t[r][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 't' is read through a different layout than it was written with: thread (0,1) reads t[1][0] as element (1, 0), but the store at line 62 put element (1, 0) at t[1][1] and t[1][0] holds element (1, 31)
}

// A 32x8 block storing the tile in four unrolled steps, and a reader
// looping over the rows: the swizzle term varies with the row across the
// iterations, so it is recognised in both.
__global__ void unrolled(float *out, const float *in) {
  __shared__ float t[32][32];
  for (int j = 0; j < 32; j += 8)
    t[threadIdx.y + j][threadIdx.x ^ (threadIdx.y + j)] = in[(threadIdx.y + j) * 32 + threadIdx.x];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < 32; ++k)
    acc += t[k][threadIdx.x ^ k];
  for (int k = 0; k < 32; ++k)
    acc += t[k][threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 't' is read through a different layout than it was written with: thread (0,0) reads t[1][0] as element (1, 0), but the store at line 75 put element (1, 0) at t[1][1]
  out[threadIdx.y * 32 + threadIdx.x] = acc;
}

// Not swizzles: a neighbour exchange (constant XOR) and a butterfly whose
// XOR term is the same in every thread of each step.
__global__ void exchanges(float *out, const float *in) {
  __shared__ float t[32][32];
  __shared__ float s[256];
  int r = threadIdx.y, c = threadIdx.x;
  t[r][c] = in[r * 32 + c];
  s[r * 32 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r][c ^ 1];
  for (int k = 1; k < 32; k <<= 1)
    out[r * 32 + c] += t[r][c ^ k] + s[(r * 32 + c) ^ k];
}

int main() {
  swizzledThenPlain<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  plainThenSwizzled<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  twoSwizzles<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  sameSwizzle<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  swizzledTransposed<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  rotation<<<1, dim3(32, 32)>>>(nullptr, nullptr);
  unrolled<<<1, dim3(32, 8)>>>(nullptr, nullptr);
  exchanges<<<1, dim3(32, 8)>>>(nullptr, nullptr);
}
