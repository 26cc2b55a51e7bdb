// CUB's BlockExchange<int, 128, 4> both ways. Parsed as user code, CUB's
// per-thread items (`temp[tid * 4 + i]`) are four 32-bit accesses that
// shmem-lint reports as 4-way; nvcc merges them into one 128-bit access
// (run.sh shows the SASS and the wavefronts ncu measures).
#include <cub/block/block_exchange.cuh>
#include <cstdio>
constexpr int Threads = 128, Items = 4;
__global__ void blockedToStriped(int *data) {
  using Exchange = cub::BlockExchange<int, Threads, Items>;
  __shared__ typename Exchange::TempStorage temp;
  int items[Items];
  for (int i = 0; i < Items; ++i)
    items[i] = data[(blockIdx.x * Threads + threadIdx.x) * Items + i];
  Exchange(temp).BlockedToStriped(items, items);
  for (int i = 0; i < Items; ++i)
    data[blockIdx.x * Threads * Items + i * Threads + threadIdx.x] = items[i];
}
__global__ void stripedToBlocked(int *data) {
  using Exchange = cub::BlockExchange<int, Threads, Items>;
  __shared__ typename Exchange::TempStorage temp;
  int items[Items];
  for (int i = 0; i < Items; ++i)
    items[i] = data[blockIdx.x * Threads * Items + i * Threads + threadIdx.x];
  Exchange(temp).StripedToBlocked(items, items);
  for (int i = 0; i < Items; ++i)
    data[(blockIdx.x * Threads + threadIdx.x) * Items + i] = items[i];
}
int main() {
  int *d; cudaMalloc(&d, Threads * Items * sizeof(int));
  cudaMemset(d, 0, Threads * Items * sizeof(int));
  blockedToStriped<<<1, Threads>>>(d);
  stripedToBlocked<<<1, Threads>>>(d);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
