// Host code nvcc compiles with neither <time.h> nor <string.h> included:
// nvcc's cuda_runtime.h brings both (Rodinia's particlefilter seeds its
// random numbers with time(0)).
__global__ void column(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

long seed(char *dst, const char *src) {
  memcpy(dst, src, 4);
  return (long)time(0);
}
