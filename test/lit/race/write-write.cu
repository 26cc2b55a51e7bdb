// RUN: %check_all_front_ends %s shmem-race
// RUN: %check_all_front_ends %s shmem-race --prefix=CHECK-BENIGN --tidy-config='{CheckOptions: {shmem-race.ReportBenign: true}}' --plugin-args=report-benign=1 --driver-args=--report-benign=1

// Write-write races, benign same-value stores, atomics and addresses that
// depend on data.

// Every thread stores its own index to one word: the last writer wins.
// shmem-lint: block=256
__global__ void lastWriterWins(int *out) {
  __shared__ int owner;
  owner = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: thread 32 writes owner (line 11) while thread 0 writes owner (line 11); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
// CHECK-BENIGN: :[[@LINE-2]]:3: warning: thread 32 writes owner (line 11) while thread 0 writes owner (line 11); no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer [shmem-race]
  __syncthreads();
  out[threadIdx.x] = owner;
}

// Every thread stores the same value: benign, reported only with
// ReportBenign.
// shmem-lint: block=256
__global__ void sameValue(int *out) {
  __shared__ int flag;
  __shared__ float scale;
  flag = 1;
// CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 32 writes flag (line 24) while thread 0 writes flag (line 24) with no barrier between them; every thread stores the same value [shmem-race]
  scale = 0.5f;
// CHECK-BENIGN: :[[@LINE-1]]:3: warning: benign race: thread 32 writes scale (line 26) while thread 0 writes scale (line 26) with no barrier between them; every thread stores the same value [shmem-race]
  __syncthreads();
  out[threadIdx.x] = flag * scale;
}

// A single writer: silent.
// shmem-lint: block=256
__global__ void singleWriter(int *out) {
  __shared__ int owner;
  if (threadIdx.x == 0)
    owner = 42;
  __syncthreads();
  out[threadIdx.x] = owner;
}

// Atomics don't race with atomics, wherever they point.
// shmem-lint: block=256
__global__ void atomicCounters(const int *keys, int *out) {
  __shared__ int count[16];
  if (threadIdx.x < 16)
    count[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&count[threadIdx.x % 16], 1);
  atomicAdd(&count[keys[threadIdx.x] & 15], 1);
  __syncthreads();
  if (threadIdx.x < 16)
    out[threadIdx.x] = count[threadIdx.x];
}

// A plain store into a word other threads update atomically is a race.
// shmem-lint: block=256
__global__ void atomicAndStore(int *out) {
  __shared__ int count[16];
  atomicAdd(&count[threadIdx.x % 16], 1);
  if (threadIdx.x == 40)
    count[0] = 0;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 40 writes count[0] (line 62) while thread 0 atomically updates count[0] (line 60); no barrier between them; add __syncthreads() between line 60 and line 62 [shmem-race]
// CHECK-BENIGN: :[[@LINE-2]]:5: warning: thread 40 writes count[0] (line 62) while thread 0 atomically updates count[0] (line 60); no barrier between them; add __syncthreads() between line 60 and line 62 [shmem-race]
}

// A histogram with a non-atomic update: the address depends on data, so no
// witness, but two threads picking one bin lose an update.
// shmem-lint: block=256
__global__ void histogram(const unsigned char *data, int n, unsigned *global) {
  __shared__ unsigned hist[16];
  if (threadIdx.x < 16)
    hist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += 256)
    hist[data[i] % 16] += 1;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: possible race: non-atomic read-modify-write of an element of hist (line 76) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
// CHECK-BENIGN: :[[@LINE-2]]:5: warning: possible race: non-atomic read-modify-write of an element of hist (line 76) whose address depends on data (value loaded from memory); two threads that pick the same element lose an update; use an atomic (atomicAdd) [shmem-race]
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&global[threadIdx.x], hist[threadIdx.x]);
}

// The same with atomicAdd: silent.
// shmem-lint: block=256
__global__ void histogramAtomic(const unsigned char *data, int n,
                                unsigned *global) {
  __shared__ unsigned hist[16];
  if (threadIdx.x < 16)
    hist[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += 256)
    atomicAdd(&hist[data[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&global[threadIdx.x], hist[threadIdx.x]);
}

// Shared memory is per block: state written by one thread of each block,
// indexed by blockIdx, then read after a barrier, is fine.
// shmem-lint: block=128
__global__ void perBlockState(int *out) {
  __shared__ int state[4];
  if (threadIdx.x == 0)
    state[blockIdx.x % 4] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = state[blockIdx.x % 4];
}
