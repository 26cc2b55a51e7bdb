// RUN: %check_all_front_ends %s shmem-bank-conflict

// Launches through a configuration object (CUDA 11.8+'s
// `cudaLaunchKernelEx(&config, kernel, args...)`, the form cluster launches
// and programmatic dependent launches need): the block is what
// `config.blockDim` holds at the call, its last assignment before it or
// the object's initialiser.

__global__ void assignedBlock(float *out) {
  __shared__ float s[256][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 64 threads (launch at line [[@LINE+51]]){{$}}
}

__global__ void initialisedBlock(float *out) {
  __shared__ float s[32][32];
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32x4 threads (launch at line [[@LINE+48]]){{$}}
}

// The integer arguments the C++ overload passes are seen: a stride of 2
// is a 2-way conflict.
__global__ void constantStride(float *out, int stride) {
  __shared__ float s[64];
  out[threadIdx.x] = s[threadIdx.x * stride];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 2-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32 threads (launch at line [[@LINE+42]]; 'stride' = 2 at every launch){{$}}
}

// A part of the block written (`blockDim.x = n`): no shape from the
// launch; the kernel's own facts decide.
__global__ void partWritten(float *out) {
  __shared__ float s[128][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 128 threads (x = 128 assumed
}

// The object handed to a function that may change it: no shape either.
__global__ void handedOn(float *out) {
  __shared__ float s[96][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 96 threads (x = 96 assumed
}

// A block assigned after the launch is another launch's.
__global__ void assignedAfter(float *out) {
  __shared__ float s[256][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32 threads (launch at line [[@LINE+30]]){{$}}
}

void prepare(cudaLaunchConfig_t *config);

void run(float *out, int n) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n);
  config.blockDim = dim3(64);
  config.dynamicSmemBytes = 0;
  cudaLaunchKernelEx(&config, assignedBlock, out);

  cudaLaunchConfig_t fixed = {dim3(n), dim3(32, 4), 0, 0, nullptr, 0};
  void *args[] = {&out};
  cudaLaunchKernelExC(&fixed, (const void *)initialisedBlock, args);

  cudaLaunchConfig_t strided = {dim3(1), dim3(32), 0, 0, nullptr, 0};
  cudaLaunchKernelEx(&strided, constantStride, out, 2);

  cudaLaunchConfig_t part = {};
  part.blockDim = dim3(32);
  part.blockDim.x = n;
  cudaLaunchKernelEx(&part, partWritten, out);

  cudaLaunchConfig_t other = {dim3(1), dim3(32), 0, 0, nullptr, 0};
  prepare(&other);
  cudaLaunchKernelEx(&other, handedOn, out);

  cudaLaunchConfig_t twice = {};
  twice.blockDim = dim3(32);
  cudaLaunchKernelEx(&twice, assignedAfter, out);
  twice.blockDim = dim3(128);
}

// A braced list assigned (CUTLASS-style launchers copy the block so).
__global__ void bracedBlock(float *out) {
  __shared__ float s[32][32];
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32x2 threads (launch at line [[@LINE+7]]){{$}}
}

void runBraced(float *out) {
  constexpr int Block = 32;
  cudaLaunchConfig_t config;
  config.blockDim = {Block, 2, 1};
  cudaLaunchKernelEx(&config, bracedBlock, out);
}
