// RUN: %check_all_front_ends %s shmem-bank-conflict

// A local declared without an initialiser holds no value until assigned,
// and reading it before is undefined: a branch that assigns it on each
// side leaves each thread with its side's value, not an unknown.

// Odd lanes take column 0, even lanes column 8: 16 rows on each bank.
// shmem-lint: block=32
__global__ void assignedOnBothSides(float *out) {
  __shared__ float t[32][32];
  int c;
  if (threadIdx.x & 1)
    c = 0;
  else
    c = 8;
  out[threadIdx.x] = t[threadIdx.x][c];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 16-way bank conflict: lanes 1, 3, ..., 31 read 16 distinct words of 't' in bank 0 (16 wavefronts instead of 1); pad the row of 't' to 33 elements [shmem-bank-conflict]
}

// The same through a pointer: lanes 0-15 read down a column.
// shmem-lint: block=32
__global__ void pointerOnBothSides(float *out) {
  __shared__ float s[32 * 32];
  const float *p;
  if (threadIdx.x < 16)
    p = &s[threadIdx.x * 32];
  else
    p = &s[threadIdx.x];
  out[threadIdx.x] = *p;
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 16-way bank conflict: lanes 0-15 read 16 distinct words of 's' in bank 0 (16 wavefronts instead of 1)
}

// Each side gives half the lanes half the words: together every lane its
// own bank. Either side's formula alone in every lane would be 2-way.
// shmem-lint: block=32
__global__ void halvesInterleaved(float *out) {
  __shared__ float s[64];
  int c;
  if (threadIdx.x < 16)
    c = threadIdx.x * 2;
  else
    c = (threadIdx.x - 16) * 2 + 1;
  out[threadIdx.x] = s[c];
}

// A switch's cases assign it: see switch-cases.cu.
// shmem-lint: block=32
__global__ void assignedByCases(float *out) {
  __shared__ float t[32][32];
  int c;
  switch (threadIdx.x & 1) {
  case 0:
    c = 0;
    break;
  default:
    c = 16;
    break;
  }
  out[threadIdx.x] = t[threadIdx.x][c];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 16-way bank conflict: lanes 0, 2, ..., 30 read 16 distinct words of 't' in bank 0 (16 wavefronts instead of 1)
}

// A counter declared without a value and set under a branch (Rodinia's
// lud_diagonal): the threads past the diagonal read down column i of a
// 16-float-wide tile, two banks for 15 lanes (i = 0). The inner loop runs
// from i = 1 on, for 14 lanes: 7-way (loop-trips.cu).
// shmem-lint: block=16
__global__ void counterUnderBranch(float *m) {
  int i, j;
  __shared__ float shadow[16][16];
  for (i = 0; i < 16; i++)
    shadow[i][threadIdx.x] = m[i * 16 + threadIdx.x];
  __syncthreads();
  for (i = 0; i < 15; i++) {
    if (threadIdx.x > i) {
      for (j = 0; j < i; j++)
        shadow[threadIdx.x][i] -= shadow[threadIdx.x][j] * shadow[j][i];
      shadow[threadIdx.x][i] /= shadow[i][i];
    }
    __syncthreads();
  }
}
// CHECK-MESSAGES: :[[@LINE-6]]:9: warning: 7-way bank conflict: lanes 2, 4, ..., 14 read and write 7 distinct words of 'shadow' in bank 1 (7 wavefronts instead of 1)
// CHECK-MESSAGES: :[[@LINE-7]]:35: warning: 7-way bank conflict: lanes 2, 4, ..., 14 read 7 distinct words of 'shadow' in bank 0 (7 wavefronts instead of 1)
// CHECK-MESSAGES: :[[@LINE-7]]:7: warning: 8-way bank conflict: lanes 1, 3, ..., 15 read and write 8 distinct words of 'shadow' in bank 16 (8 wavefronts instead of 1)
