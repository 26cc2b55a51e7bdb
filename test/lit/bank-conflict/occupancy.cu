// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-SM90 --front-ends driver,plugin --driver-args=--cuda-gpu-arch=sm_90 --plugin-args=arch=sm_90
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %s | FileCheck --check-prefix=NOTES %s
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict --cuda-gpu-arch=sm_90 %s | FileCheck --check-prefix=NOTES-SM90 %s

// Padding costs shared memory, and shared memory decides how many blocks
// an SM runs at once and whether the kernel builds: the padding advice
// weighs both for the architecture analysed (the device compilation's;
// the clang plugin's host pass takes arch=, default sm_80).

// 45,568 bytes of tile, one warp a block. On sm_90 (233,472 bytes an SM,
// 1,024 reserved a block) 5 blocks fit, and 356 bytes of padding leave 4:
// the swizzle is the better fix there, offered as the fix-it
// (bank-conflict/swizzle-fixit.cu). On sm_80 (167,936 bytes) 3 fit either
// way.
// shmem-lint: block=32
__global__ void nearTheLimit(float *out) {
  __shared__ float tile[89][128];
  // NOTES: :[[@LINE-1]]:20: note: padding 'tile' to [89][129] makes every access to it conflict-free or no worse; it costs 356 more bytes of shared memory (45568 -> 45924); on sm_80, 3 blocks of 32 threads per SM before and after (limited by shared memory per SM; registers, not known from the source, may limit it further)
  // NOTES-SM90: :[[@LINE-2]]:20: note: padding 'tile' to [89][129] makes every access to it conflict-free or no worse; it costs 356 more bytes of shared memory (45568 -> 45924); on sm_90 it lowers the blocks of 32 threads an SM runs at once from 5 to 4 (limited by shared memory per SM; registers, not known from the source, may limit it further)
  tile[threadIdx.x][0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 128 words apart and 128 ≡ 0 (mod 32), so every lane maps to the same bank; pad the row of 'tile' to 129 elements [shmem-bank-conflict]
  // CHECK-SM90: :[[@LINE-2]]:3: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 128 words apart and 128 ≡ 0 (mod 32), so every lane maps to the same bank; pad the row of 'tile' to 129 elements (that costs a block per SM on sm_90, 5 -> 4): swizzle its columns instead, which costs no memory: index it as tile[r][c ^ (r % 128)] wherever it is used (the fix-it rewrites the column of 1 use) [shmem-bank-conflict]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

// 48 KB of tile: any padding is past what a block may declare statically,
// which ptxas rejects ("uses too much shared data (0xc180 bytes, 0xc000
// max)"), so none is offered, on any architecture: the swizzle is.
// shmem-lint: block=32
__global__ void atTheStaticLimit(float *out) {
  __shared__ float tile[96][128];
  tile[threadIdx.x][0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 128 words apart and 128 ≡ 0 (mod 32), so every lane maps to the same bank; padding the rows of 'tile' to 129 elements would take the kernel's static shared memory to 49536 bytes, past the 48 KB a block may declare (nvcc rejects it): swizzle its columns instead, which costs no memory: index it as tile[r][c ^ (r % 128)] wherever it is used (the fix-it rewrites the column of 1 use) [shmem-bank-conflict]
  // CHECK-SM90: :[[@LINE-2]]:3: warning: 32-way bank conflict: {{.*}}past the 48 KB a block may declare (nvcc rejects it){{.*}} [shmem-bank-conflict]
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

// A small tile: the threads bind, and padding changes nothing.
// shmem-lint: block=256
__global__ void small(float *out) {
  __shared__ float tile[32][32];
  // NOTES: :[[@LINE-1]]:20: note: padding 'tile' to [32][33] {{.*}}; on sm_80, 8 blocks of 256 threads per SM before and after (limited by threads per SM; registers, not known from the source, may limit it further)
  tile[threadIdx.x % 32][threadIdx.x / 32] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: {{.*}}pad the row of 'tile' to 33 elements [shmem-bank-conflict]
  // CHECK-SM90: :[[@LINE-2]]:3: warning: {{.*}}pad the row of 'tile' to 33 elements [shmem-bank-conflict]
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x / 32][threadIdx.x % 32];
}
