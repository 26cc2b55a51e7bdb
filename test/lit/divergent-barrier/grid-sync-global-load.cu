// RUN: %check_all_front_ends %s shmem-divergent-barrier

// A loop whose condition is reloaded from global memory after a grid-wide
// reduction (cuda-samples' conjugateGradientMultiBlockCG) is grid-uniform:
// every thread of the launch loads one word in one interval of grid
// barriers, so they load one value (a write there would be a race). A load
// from a block's shared memory, or at an address that differs between
// blocks, is one value per block only, and a grid.sync() it decides is
// reported.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void solve(float *residual, float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  float r = *residual;
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    if (threadIdx.x == 0 && blockIdx.x == 0)
      *residual *= 0.5f;
    grid.sync();
    r = *residual;
  }
}

__device__ double grid_result;

__global__ void solveDeviceVariable(float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  double r = grid_result;
  for (int k = 0; r > tol && k < 100; ++k) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    r = grid_result;
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

__global__ void perBlockAddress(float *residual, float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  float r = residual[blockIdx.x];
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: grid.sync() runs a thread-dependent number of times
    r = residual[blockIdx.x];
  }
}

__global__ void sharedResult(float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float s;
  if (threadIdx.x == 0)
    s = x[blockIdx.x];
  __syncthreads();
  float r = s;
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: grid.sync() runs a thread-dependent number of times
    r -= 1.0f;
  }
}

__global__ void movedPointer(float *residual, float *x, float tol) {
  cg::grid_group grid = cg::this_grid();
  residual += blockIdx.x;
  float r = *residual;
  while (r > tol) {
    x[threadIdx.x] *= 0.5f;
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: grid.sync() runs a thread-dependent number of times
    r = *residual;
  }
}
