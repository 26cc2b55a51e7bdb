// __shared__ cuda::barrier and cuda::pipeline_shared_state objects, as CUDA's
// samples declare them (simpleAWBarrier, globalToShmemAsyncCopy): clang
// refuses them, nvcc skips their constructors; the driver analyses them.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>

constexpr int B = 16;

// globalToShmemAsyncCopy's AWBarrier kernel: copies tied to the barrier,
// complete at arrive_and_wait(), which is also the block's barrier.
__global__ void __launch_bounds__(B * B) tiled(float *c, const float *a, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float as[B][B];
  if (threadIdx.x == 0 && threadIdx.y == 0)
    init(&bar, blockDim.x * blockDim.y);
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < n; k += B) {
    if (threadIdx.x < B / 4)
      cuda::memcpy_async(&as[threadIdx.y][threadIdx.x * 4],
                         &a[k + threadIdx.y * n + threadIdx.x * 4],
                         sizeof(float4), bar);
    bar.arrive_and_wait();
    for (int j = 0; j < B; ++j)
      sum += as[threadIdx.y][j];
    bar.arrive_and_wait();
  }
  c[threadIdx.y * B + threadIdx.x] = sum;
}

// The same, read before the wait: the copy may still be writing.
__global__ void __launch_bounds__(B * B) early(float *c, const float *a) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ alignas(16) float as[B][B];
  if (threadIdx.x == 0 && threadIdx.y == 0)
    init(&bar, blockDim.x * blockDim.y);
  __syncthreads();
  cuda::memcpy_async(&as[threadIdx.y][threadIdx.x], &a[threadIdx.y * B + threadIdx.x],
                     sizeof(float), bar);
  float v = as[threadIdx.y][threadIdx.x];
  bar.arrive_and_wait();
  c[threadIdx.y * B + threadIdx.x] = v;
}

// No second arrive_and_wait: the next iteration's copy overwrites what
// other threads still read.
__global__ void __launch_bounds__(B * B) noTrailing(float *c, const float *a, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float as[B][B];
  if (threadIdx.x == 0 && threadIdx.y == 0)
    init(&bar, blockDim.x * blockDim.y);
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < n; k += B) {
    cuda::memcpy_async(&as[threadIdx.y][threadIdx.x],
                       &a[k + threadIdx.y * n + threadIdx.x], sizeof(float), bar);
    bar.arrive_and_wait();
    sum += as[threadIdx.x][threadIdx.y];
  }
  c[threadIdx.y * B + threadIdx.x] = sum;
}

// simpleAWBarrier's reduction: a split arrive() and wait() between the
// warps' partial sums and their final sum.
__global__ void __launch_bounds__(256) split(double *out, const double *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ double partial[8];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  double v = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  auto token = bar.arrive();
  bar.wait(static_cast<decltype(token) &&>(token));
  if (threadIdx.x < 8)
    out[blockIdx.x * 8 + threadIdx.x] = partial[threadIdx.x];
}

// The same, read between arrive() and wait(): other warps may not have
// written their sums yet.
__global__ void __launch_bounds__(256) splitEarly(double *out, const double *in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ double partial[8];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  double v = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = v;
  auto token = bar.arrive();
  if (threadIdx.x < 8)
    out[blockIdx.x * 8 + threadIdx.x] = partial[threadIdx.x];
  bar.wait(static_cast<decltype(token) &&>(token));
}

// Only the first half-warp arrives: the others' waits never complete.
__global__ void __launch_bounds__(64) someArrive(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x < 16)
    bar.arrive_and_wait();
  out[threadIdx.x] = 1.0f;
}

// globalToShmemAsyncCopy's shared-state pipeline: producers' copies are
// waited for by the consumers, stage by stage.
__global__ void __launch_bounds__(B * (B + 2)) sharedState(float *c, const float *a, int n) {
  __shared__ float as[4][B][B];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 4> state;
  auto pipe = cuda::make_pipeline(cooperative_groups::this_thread_block(), &state,
                                  threadIdx.y < B ? cuda::pipeline_role::consumer
                                                  : cuda::pipeline_role::producer);
  float sum = 0;
  for (int k = 0, i = 0; k < n; k += B, ++i) {
    if (threadIdx.y >= B) {
      pipe.producer_acquire();
      for (int r = threadIdx.y - B; r < B; r += 2)
        cuda::memcpy_async(&as[i % 4][r][threadIdx.x], &a[k + r * n + threadIdx.x],
                           sizeof(float), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      for (int j = 0; j < B; ++j)
        sum += as[i % 4][threadIdx.y][j];
      pipe.consumer_release();
    }
  }
  if (threadIdx.y < B)
    c[threadIdx.y * B + threadIdx.x] = sum;
}

// The CUDA programming guide's block copy tied to a barrier, the barrier
// initialised with block.size(): guide is clean, guideEarly reads before
// the barrier that completes the copy.
__global__ void __launch_bounds__(256) guide(int *out, const int *in) {
  __shared__ int shared[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, shared, in, sizeof(int) * block.size(), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = shared[(threadIdx.x + 1) % 256];
}
__global__ void __launch_bounds__(256) guideEarly(int *out, const int *in) {
  __shared__ int shared[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, shared, in, sizeof(int) * block.size(), bar);
  int v = shared[(threadIdx.x + 64) % 256];
  bar.arrive_and_wait();
  out[threadIdx.x] = v;
}

void run(float *c, const float *a, double *d, const double *e, int n) {
  tiled<<<1, dim3(B, B)>>>(c, a, n);
  early<<<1, dim3(B, B)>>>(c, a);
  noTrailing<<<1, dim3(B, B)>>>(c, a, n);
  split<<<1, 256>>>(d, e);
  splitEarly<<<1, 256>>>(d, e);
  someArrive<<<1, 64>>>(c);
  sharedState<<<1, dim3(B, B + 2)>>>(c, a, n);
  guide<<<1, 256>>>((int *)c, (const int *)a);
  guideEarly<<<1, 256>>>((int *)c, (const int *)a);
}
