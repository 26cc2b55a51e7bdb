// RUN: %check_all_front_ends %s shmem-bank-conflict

// Kernels launched through a function pointer (cuda-samples' transpose
// picks one of eight with `kernel = &transposeNaive; ...;
// kernel<<<grid, threads>>>(...)`): each kernel the translation unit
// assigns to the pointer gets the launch's block shape.

// Row y, column x of a 32-word-wide array: in a 16x16 block lanes 16-31
// are the next row, 32 words on, in the same banks as lanes 0-15.
__global__ void rows(float *out) {
  __shared__ float s[16 * 32];
  s[threadIdx.y * 32 + threadIdx.x] = 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 2-way bank conflict: lanes 0, 16 write 2 distinct words of 's' in bank 0 (2 wavefronts instead of 1)
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 16x16 threads (launch at line [[@LINE+12]])
}

// The same code launched as 256x1 through another pointer: one row per
// warp, conflict-free.
__global__ void rowsToo(float *out) {
  __shared__ float s[16 * 32];
  s[threadIdx.y * 32 + threadIdx.x] = 0.0f;
}

void host(bool pick) {
  void (*k)(float *) = rows;
  k<<<1, dim3(16, 16)>>>(nullptr);
  void (*other)(float *);
  other = &rowsToo;
  (*other)<<<1, 256>>>(nullptr);
}
