// Filled through a strided global load into a padded tile and read back
// unpadded: one uncoalesced-transfer and one layout-mismatch finding. With
// -DFIXED the load is contiguous and both sides index alike: none.
// shmem-lint: block=32x32
__global__ void k(float *out, const float *in) {
  __shared__ float t[32 * 33];
  int r = threadIdx.y, c = threadIdx.x;
#ifdef FIXED
  t[r * 33 + c] = in[r * 32 + c];
  __syncthreads();
  out[r * 32 + c] = t[r * 33 + c];
#else
  t[r * 33 + c] = in[2 * (r * 32 + c)];
  __syncthreads();
  out[r * 32 + c] = t[r * 32 + c];
#endif
}
