// Another program's 'oneWarp', built from the same tree: with two
// definitions of the name, main.cu's launch could call either.
__global__ void oneWarp(float *out) {
  __shared__ float row[32];
  row[threadIdx.x % 32] = threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = row[31 - threadIdx.x % 32];
}
