// Built with -DN=64 (as the README's example): N is also a parameter name
// in the toolkit's cuda.h, which clang's CUDA mode includes and nvcc does
// not.
__global__ void k(float *out) {
  __shared__ float t[N][N];
  t[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  out[0] = t[threadIdx.x][0];
}
