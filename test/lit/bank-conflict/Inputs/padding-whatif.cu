// Inputs of padding-whatif.test: tiles whose padding what-if is patched from
// the trace (every use is tile[i][j]) and tiles it must walk again for.

// Every use of 'tile' is an element access: patched.
__global__ void transpose_patched(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// A row pointer escapes: the layout reaches addresses through 'row', so
// the kernel is walked again.
__global__ void transpose_row_pointer(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  float *row = tile[threadIdx.y];
  row[threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// sizeof of the array depends on the padding: walked again.
__global__ void transpose_sizeof(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x] + float(sizeof(tile) / 4096);
  __syncthreads();
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

void launch(const float *in, float *out, int n) {
  transpose_patched<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);
  transpose_row_pointer<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);
  transpose_sizeof<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);
}
