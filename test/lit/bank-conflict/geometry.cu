// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-OPT --tidy-config='{CheckOptions: {shmem-bank-conflict.BlockDim: 16x2}}' --plugin-args=block=16x2 --driver-args=--block-dim=16x2
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %s | FileCheck --check-prefix=NOTES %s
// One shape for every check: the global BlockDim key, the same in clang-tidy
// and the command; a check's own key still wins.
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-OPT --front-ends=tidy,driver --tidy-config='{CheckOptions: {BlockDim: 16x2}}' --driver-args=--block-dim=16x2
// RUN: %check_all_front_ends %s shmem-bank-conflict --front-ends=tidy,driver --tidy-config='{CheckOptions: {BlockDim: 16x2, shmem-bank-conflict.BlockDim: 256}}'

// Where the block shape comes from, and how it changes the answer.

// threadIdx.y is uniform in a warp only when blockDim.x is a multiple of 32:
// launched as 32x8 this row read is conflict-free; as 16x16 a warp holds
// two rows of 16 threads that land 17 words apart.
__global__ void twoShapes(float *out) {
  __shared__ float t[32][17];
  out[0] = t[threadIdx.y][threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 31 read 2 distinct words of 't' in bank 0
  // CHECK-OPT: :[[@LINE-2]]:12: warning: 2-way bank conflict: lanes 0, 31
  // NOTES: geometry.cu:[[@LINE-3]]:12: warning: 2-way
  // NOTES: note: analysed for a block of 16x16 threads (launch at line {{[0-9]+}})
}

// Launched only through cudaLaunchKernel with a 64-thread block: lanes
// 0-31 of each warp read a column of a 32-wide tile.
__global__ void viaApi(float *out) {
  __shared__ float t[64][32];
  out[0] = t[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  // CHECK-OPT: :[[@LINE-2]]:12: warning: 32-way bank conflict
}

// No launch, no annotation: the BlockDim option, else 256 threads assumed.
__global__ void unlaunched(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 16][threadIdx.x / 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 16-way bank conflict
  // CHECK-OPT: :[[@LINE-2]]:12: warning: 16-way bank conflict
  // NOTES: geometry.cu:[[@LINE-3]]:12: warning: 16-way
  // NOTES: note: analysed for a block of 256 threads (assumed); state the shape with '// shmem-lint: block=X[xY[xZ]]' above the kernel or the BlockDim option
}

// A partial warp: 8 threads read 8 words 32 apart.
__global__ void partial(float *out) {
  __shared__ float t[8][32];
  out[0] = t[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words
  // CHECK-OPT: :[[@LINE-2]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words
}

// Two instantiations conflict at one source location: reported once.
template <typename T> __global__ void column(T *out) {
  __shared__ T t[32][32];
  out[0] = t[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  // CHECK-OPT: :[[@LINE-2]]:12: warning: 32-way bank conflict
}

int main() {
  twoShapes<<<1, dim3(32, 8)>>>(nullptr);
  twoShapes<<<1, dim3(16, 16)>>>(nullptr);
  void *args[] = {nullptr};
  cudaLaunchKernel((const void *)viaApi, dim3(1), dim3(64), args, 0, 0);
  partial<<<1, 8>>>(nullptr);
  column<float><<<1, 32>>>(nullptr);
  column<int><<<1, 32>>>(nullptr);
}
