__global__ void k(float *p) {
  __shared__ float s[32]
  s[threadIdx.x] = p[0];
}
