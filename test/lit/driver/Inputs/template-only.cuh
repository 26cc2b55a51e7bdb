// A header-only kernel template, analysed on its own: never instantiated.
template <int N>
__global__ void transposeTile(float *out, const float *in) {
  __shared__ float tile[N][N];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
