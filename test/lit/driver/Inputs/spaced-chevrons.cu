// Launches written as Rodinia's particlefilter writes them: nvcc reads
// `<< <` and `>> >` as the launch chevrons, clang does not.
template <class T> struct Box { T Value; };

__global__ void column(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

__global__ void rows(float *out, int n) {
  __shared__ float s[64];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * n) % 64];
}

// Nested template arguments closed by `>> >` are C++ and stay as written.
Box<Box<Box<int>> > nested;

void run(float *out, int n) {
  column << < 1, 32 >> > (out);
  rows<< <1, 64>>>(out, 2);
  rows <<<1, 64 >> >(out, 2);
  column<<<(n > 0 ? n : 1), 32>>>(out);
}
