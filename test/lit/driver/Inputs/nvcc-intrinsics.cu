// Code nvcc compiles and clang's CUDA headers alone do not: the float and
// vector overloads of the cache-hint stores and loads (__stcs, __stcg,
// __stwb, __ldca, __ldlu), as llm.c's kernels write them; host isfinite
// with <cmath> (llm.c's common.h); <omp.h>, which GCC, nvcc's host
// compiler, always finds (llm.c's matmul files, Rodinia's kmeans).
#include <cmath>
#ifdef WITH_OMP
#include <omp.h>
#endif

__global__ void streamOut(float *out, const float *in, float4 *out4) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = __ldca(in + threadIdx.x) + __ldlu(in);
  __syncthreads();
  __stcs(out + threadIdx.x, tile[threadIdx.x][0]);
  __stcg(out, 1.0f);
  __stwb(out4, make_float4(0, 0, 0, 0));
}

int main() {
  float x = 1;
#ifdef WITH_OMP
  omp_set_num_threads(2);
#endif
  return isfinite(x) && !isnan(x) && !isinf(x) ? 0 : 1;
}
