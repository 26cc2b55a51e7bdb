// Two accesses whose width the compiler decides (--sass, --ncu-report):
// the unrolled stores and loads of 'temp' are 4-byte accesses in the source
// that nvcc merges into 16-byte ones (st.shared.v4.f32 / ld.shared.v4.f32,
// STS.128 / LDS.128), and the column read of 'tile' stays 4 bytes.
// ncu/ and sass/ beside it hold what ncu and nvcc made of it.
#define ALIGN16 __attribute__((aligned(16)))

// shmem-lint: block=32
__global__ void unrolled(const float *in, float *out) {
  __shared__ ALIGN16 float temp[32 * 4];
  int tid = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    temp[tid * 4 + i] = in[tid * 4 + i];
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    s += temp[tid * 4 + i];
  out[tid] = s;
}

// shmem-lint: block=32
__global__ void column(const float *in, float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][1];
}

int main() {
  float *d;
  cudaMalloc(&d, 1 << 16);
  unrolled<<<4, 32>>>(d, d + 4096);
  column<<<4, 32>>>(d, d + 4096);
  cudaDeviceSynchronize();
  return 0;
}
