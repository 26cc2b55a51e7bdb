// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %s | FileCheck --check-prefix=NOTES %s
// The fix-its apply, and the swizzled kernels are clean for every check,
// their elements where they were (the layout check agrees):
// RUN: cp %s %t.cu
// RUN: %clang-tidy --load=%tidy_plugin --checks=-*,shmem-bank-conflict --fix --quiet %t.cu -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 %cuda_flags > /dev/null 2>&1
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %not %shmem-lint --checks='shmem-*' %t.cu | FileCheck --check-prefix=AFTER --implicit-check-not=warning: %s
// AFTER: :{{[0-9]+}}:3: warning: 32-way bank conflict: {{.*}}'pinned'

// An XOR swizzle (element (r, c) at (r, c ^ (r % C))) costs no shared
// memory but must be applied at every producer and consumer. It is the
// fix-it where padding is not: past the static limit, when padding costs a
// block per SM, or when no padding works; and only when every use of the
// array can be rewritten the same way and the kernel, analysed with every
// access moved, is conflict-free or no worse on it.

// 48 KB of tile: padding is past the static limit. The transposing read
// keeps its column (row 0); the others are rewritten.
// shmem-lint: block=32
__global__ void atTheStaticLimit(float *out) {
  __shared__ float tile[96][128];
  // (The expectation stands above: clang prints the lines between the
  // fix-its, and a comment there with its text would match itself.)
  // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: 32-way bank conflict: {{.*}}; padding the rows of 'tile' to 129 elements would take the kernel's static shared memory to 49536 bytes, past the 48 KB a block may declare (nvcc rejects it): swizzle its columns instead, which costs no memory: index it as tile[r][c ^ (r % 128)] wherever it is used (the fix-it rewrites the column of 2 uses) [shmem-bank-conflict]
  for (int j = 0; j < 3; ++j)
    tile[threadIdx.x + 32 * j][j] = j;
  // FIXED: {{^}}    tile[threadIdx.x + 32 * j][j ^ ((threadIdx.x + 32 * j) % 128)] = j;
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x] + tile[threadIdx.x + 64][2];
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 32-way bank conflict: {{.*}}(the fix-it of another warning on it rewrites the column of 2 uses) [shmem-bank-conflict]
  // FIXED: {{^}}  out[threadIdx.x] = tile[0][threadIdx.x] + tile[threadIdx.x + 64][2 ^ ((threadIdx.x + 64) % 128)];
}

// A pointer to an element may read the tile with another layout: no
// swizzle fix-it, and the note says why.
// shmem-lint: block=32
__global__ void pinned(float *out) {
  __shared__ float pinned[96][128];
  // NOTES: :[[@LINE-1]]:20: note: no swizzle fix-it: line [[@LINE+5]] takes the address of an element, which a pointer may read with another layout
  pinned[threadIdx.x][0] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict: {{.*}}(nvcc rejects it): use an XOR swizzle (e.g. column ^ row) applied identically where 'pinned' is written and read [shmem-bank-conflict]
  // FIXED: {{^}}  pinned[threadIdx.x][0] = threadIdx.x;
  __syncthreads();
  const float *p = &pinned[0][0];
  out[threadIdx.x] = p[threadIdx.x];
}
