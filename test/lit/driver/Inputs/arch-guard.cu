// Parses only for the architecture EXPECT_ARCH names (as __CUDA_ARCH__):
// code guarded by `__CUDA_ARCH__ >= 900` (TMA, wgmma) is the real case.
#if __CUDA_ARCH__ != EXPECT_ARCH
#error "analysed for the wrong architecture"
#endif

__global__ void column(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
}
