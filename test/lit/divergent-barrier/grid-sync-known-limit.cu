// RUN: %check_all_front_ends %s shmem-divergent-barrier

// Known limit (found in cuda-samples' conjugateGradientMultiBlockCG): a
// loop whose condition is reloaded from global memory after a grid-wide
// reduction is grid-uniform at run time, but the analysis does not track
// memory contents: a load from a uniform address is block-uniform at best,
// so a grid.sync() in that loop is reported. This test pins the false
// alarm; a block barrier in the same loop is (rightly) not reported.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void solve(float *residual, float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  float r = *residual;
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: grid.sync() runs a thread-dependent number of times
    if (threadIdx.x == 0 && blockIdx.x == 0)
      *residual *= 0.5f;
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: grid.sync() runs a thread-dependent number of times
    r = *residual;
  }
}

__global__ void solveBlock(float *residual, float *x, float tol) {
  float r = *residual;
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    __syncthreads();
    if (threadIdx.x == 0)
      *residual *= 0.5f;
    __syncthreads();
    r = *residual;
  }
}
