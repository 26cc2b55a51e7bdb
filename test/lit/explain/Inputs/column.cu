// The kernel `explain --shape 32x32 --type float --index 'tile[lane][5]'`
// stands for, written out: the check's picture must be explain's.
// shmem-lint: block=32
__global__ void column(float *out) {
  __shared__ float tile[32][32];
  unsigned lane = threadIdx.x % 32;
  out[threadIdx.x] = tile[lane][5];
}
