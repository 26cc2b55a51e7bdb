// One finding of each kind for the HTML report tests.

// shmem-lint: block=32x8
__global__ void transposeNaive(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A stride of 8 words: 8-way (a 1-D array: no what-if layouts); s[5] is
// a broadcast and no finding.
// shmem-lint: block=64
__global__ void strided(float *out) {
  __shared__ float s[2048];
  s[threadIdx.x] = 0;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 8] + s[5];
}

// shmem-lint: block=256
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[257];
  s[threadIdx.x + 1] = in[threadIdx.x];
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 1];
}

// shmem-lint: block=256
__global__ void halfBlock(float *out) {
  __shared__ float s[256];
  if (threadIdx.x < 128) {
    s[threadIdx.x] = 1;
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}
