// CUB's block-level primitives, instantiated so that shmem-lint analyses
// their shared-memory code (bench/corpus/run.sh cub). Each kernel is
// launched below with the block size its template is instantiated for, so
// the analysis uses that shape. CUB is NVIDIA's; this file only uses it.
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

constexpr int Threads = 128;
constexpr int Items = 4;

template <cub::BlockReduceAlgorithm Algo>
__global__ void reduceKernel(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, Threads, Algo>;
  __shared__ typename Reduce::TempStorage temp;
  int v = in[blockIdx.x * Threads + threadIdx.x];
  int sum = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

template <cub::BlockScanAlgorithm Algo>
__global__ void scanKernel(const int *in, int *out) {
  using Scan = cub::BlockScan<int, Threads, Algo>;
  __shared__ typename Scan::TempStorage temp;
  int v = in[blockIdx.x * Threads + threadIdx.x];
  Scan(temp).ExclusiveSum(v, v);
  out[blockIdx.x * Threads + threadIdx.x] = v;
}

template <cub::BlockLoadAlgorithm Load, cub::BlockStoreAlgorithm Store>
__global__ void loadStoreKernel(const float *in, float *out) {
  using BlockLoad = cub::BlockLoad<float, Threads, Items, Load>;
  using BlockStore = cub::BlockStore<float, Threads, Items, Store>;
  __shared__ union {
    typename BlockLoad::TempStorage load;
    typename BlockStore::TempStorage store;
  } temp;
  float items[Items];
  int base = blockIdx.x * Threads * Items;
  BlockLoad(temp.load).Load(in + base, items);
  for (int i = 0; i < Items; ++i)
    items[i] *= 2.0f;
  __syncthreads(); // temp is reused by the store
  BlockStore(temp.store).Store(out + base, items);
}

__global__ void exchangeKernel(int *data) {
  using Exchange = cub::BlockExchange<int, Threads, Items>;
  __shared__ typename Exchange::TempStorage temp;
  int items[Items];
  for (int i = 0; i < Items; ++i)
    items[i] = data[(blockIdx.x * Threads + threadIdx.x) * Items + i];
  Exchange(temp).BlockedToStriped(items, items);
  for (int i = 0; i < Items; ++i)
    data[blockIdx.x * Threads * Items + i * Threads + threadIdx.x] = items[i];
}

__global__ void radixSortKernel(unsigned *keys) {
  using Sort = cub::BlockRadixSort<unsigned, Threads, Items>;
  __shared__ typename Sort::TempStorage temp;
  unsigned items[Items];
  for (int i = 0; i < Items; ++i)
    items[i] = keys[(blockIdx.x * Threads + threadIdx.x) * Items + i];
  Sort(temp).Sort(items);
  for (int i = 0; i < Items; ++i)
    keys[(blockIdx.x * Threads + threadIdx.x) * Items + i] = items[i];
}

template <cub::BlockHistogramAlgorithm Algo>
__global__ void histogramKernel(const unsigned char *in, unsigned *hist) {
  using Histogram = cub::BlockHistogram<unsigned char, Threads, Items, 256, Algo>;
  __shared__ typename Histogram::TempStorage temp;
  __shared__ unsigned smemHist[256];
  unsigned char items[Items];
  for (int i = 0; i < Items; ++i)
    items[i] = in[(blockIdx.x * Threads + threadIdx.x) * Items + i];
  Histogram(temp).Histogram(items, smemHist);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += Threads)
    atomicAdd(&hist[b], smemHist[b]);
}

void launchAll(int *i, int *o, float *f, float *g, unsigned *k,
               unsigned char *c, unsigned *h) {
  reduceKernel<cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<64, Threads>>>(i, o);
  reduceKernel<cub::BLOCK_REDUCE_RAKING><<<64, Threads>>>(i, o);
  reduceKernel<cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY><<<64, Threads>>>(i, o);
  scanKernel<cub::BLOCK_SCAN_RAKING><<<64, Threads>>>(i, o);
  scanKernel<cub::BLOCK_SCAN_RAKING_MEMOIZE><<<64, Threads>>>(i, o);
  scanKernel<cub::BLOCK_SCAN_WARP_SCANS><<<64, Threads>>>(i, o);
  loadStoreKernel<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE>
      <<<64, Threads>>>(f, g);
  loadStoreKernel<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>
      <<<64, Threads>>>(f, g);
  exchangeKernel<<<64, Threads>>>(i);
  radixSortKernel<<<64, Threads>>>(k);
  histogramKernel<cub::BLOCK_HISTO_SORT><<<64, Threads>>>(c, h);
  histogramKernel<cub::BLOCK_HISTO_ATOMIC><<<64, Threads>>>(c, h);
}
