// RUN: %check_all_front_ends %s shmem-bank-conflict

// A launch helper that takes the kernel and the block as parameters
// (gau-nernst/learn-cuda's `launch_kernel(kernel, blocks, threads, smem,
// args...)`): each call of the helper is a launch of the kernel it passes,
// with the block it passes, at the call.

template <typename Kernel, typename... Args>
void launchKernel(Kernel *kernel, int blocks, int threads, Args... args) {
  kernel<<<blocks, threads>>>(args...);
}

__global__ void throughHelper(float *out) {
  __shared__ float s[64][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 64 threads (launch at line [[@LINE+21]]){{$}}
}

// A helper whose block is not one of its parameters gives no shape here:
// the kernel's own facts (its array bounds the block to 128) decide.
template <typename Kernel>
void launchComputed(Kernel *kernel, int warps, float *out) {
  dim3 block(warps * 32);
  kernel<<<1, block>>>(out);
}

__global__ void computedBlock(float *out) {
  __shared__ float s[128][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 128 threads (x = 128 assumed: blockDim.x is at most 128 since 's' has 128 elements where every thread indexes it by threadIdx.x (line [[@LINE-2]])); state the shape with '// shmem-lint: block=X[xY[xZ]]' above the kernel or the BlockDim option
}

void run(float *out) {
  const int threads = 64;
  auto kernel = throughHelper;
  launchKernel(kernel, 1, threads, out);
  launchComputed(computedBlock, 2, out);
}

// A helper that takes the launch's configuration as one object (ggml's
// `ggml_cuda_kernel_launch(kernel, launch_params, args...)`): the block is
// what the object's constructor copies into the field the launch reads,
// from the call's argument or a const local it initialises.
struct LaunchParams {
  dim3 blocks;
  dim3 threads;
  unsigned shmem;
  LaunchParams(const dim3 &b, const dim3 &t, unsigned s)
      : blocks(b), threads(t), shmem(s) {}
};

template <typename Kernel, typename... Args>
void launchWith(Kernel kernel, const LaunchParams &p, Args... args) {
  kernel<<<p.blocks, p.threads, p.shmem>>>(args...);
}

template <typename T>
__global__ void throughParams(T *out) {
  __shared__ T s[32][32];
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 32x8 threads (launch at line [[@LINE+21]]){{$}}
}

__global__ void throughTemporary(float *out) {
  __shared__ float s[64][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 64 threads (launch at line [[@LINE+15]]){{$}}
}

// A configuration the caller may change after building it: no shape.
__global__ void changedParams(float *out) {
  __shared__ float s[128][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 128 threads (x = 128 assumed
}

void runWithParams(float *out, int n) {
  dim3 block(32, 8, 1);
  const LaunchParams params = LaunchParams(dim3(n), block, 0);
  launchWith(throughParams<float>, params, out);
  launchWith(throughTemporary, LaunchParams(dim3(n), dim3(64), 0), out);
  LaunchParams later(dim3(n), dim3(64), 0);
  later.threads = dim3(n);
  launchWith(changedParams, later, out);
}
