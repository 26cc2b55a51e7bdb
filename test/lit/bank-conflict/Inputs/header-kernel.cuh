// A kernel defined in a header and launched from the file that includes it.
__global__ void inHeader(float *out) {
  __shared__ float t[32][17];
  out[0] = t[threadIdx.y][threadIdx.x];
}
