// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %exit_status %shmem-lint --checks=shmem-bank-conflict %s | FileCheck --check-prefix=NOTES %s
// RUN: %exit_status %shmem-lint --checks=shmem-race %s | FileCheck --check-prefix=FIRST %s

// A `shmem-lint:` comment meant as a block shape that cannot be used is
// said at the comment; the kernel is then analysed as if it were absent.
// Each kernel reads a column of a 32x32 tile: a 32-way conflict whatever
// the shape, so the note shows which shape was used. Every check reads the
// shape, so the first enabled check says it (FIRST).

// shmem-lint: block=2000
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block=2000' has 2000 threads, more than a block can have; expected {{.*}} with at most 1024 threads
// NOTES: geometry-comments.cu:[[@LINE-2]]:4: warning: block shape comment ignored
// NOTES: note: so kernel 'tooMany' is analysed for a block of 256 threads (assumed)
// FIRST: geometry-comments.cu:[[@LINE-4]]:4: warning: block shape comment ignored: {{.*}} [shmem-race]
__global__ void tooMany(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: blcok=64
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: unknown key 'blcok' (did you mean 'block'?); expected
// NOTES: note: so kernel 'misspelt' is analysed for a block of 128 threads (launch at line {{[0-9]+}})
__global__ void misspelt(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

/* shmem-lint: block=abc */
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block=abc' is not a block shape; expected
__global__ void notANumber(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: block=0
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block=0' has a dimension of 0; expected
__global__ void zero(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: block=32x33x2
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block=32x33x2' has 2112 threads, more than a block can have; expected
__global__ void tooManyIn3D(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: block=4x4x4x4
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block=4x4x4x4' has more than three dimensions; expected
__global__ void fourDims(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: warp=16
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: unknown key 'warp' (the only key is 'block'); expected
__global__ void otherKey(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// shmem-lint: block=
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: 'block' needs a value; expected
__global__ void noValue(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
}

// A malformed comment nearer the kernel than a valid one is said, and the
// valid one is used.
// shmem-lint: block=32x4
// shmem-lint: blok=1
// CHECK-MESSAGES: :[[@LINE-1]]:4: warning: block shape comment ignored: unknown key 'blok' (did you mean 'block'?)
// NOTES: note: so kernel 'validAbove' is analysed for a block of 32x4 threads (shmem-lint annotation)
__global__ void validAbove(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  // NOTES: geometry-comments.cu:[[@LINE-2]]:12: warning: 32-way
  // NOTES: note: analysed for a block of 32x4 threads (shmem-lint annotation)
}

// Negative: valid comments, in every form accepted before, say nothing
// more than the finding, and prose about the tool is no directive.
// shmem-lint: block=32x8
__global__ void valid2D(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  // NOTES: geometry-comments.cu:[[@LINE-2]]:12: warning: 32-way
  // NOTES: note: analysed for a block of 32x8 threads (shmem-lint annotation)
}

/* shmem-lint: block=(16, 2) */
__global__ void validParens(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 16-way bank conflict
  // NOTES: geometry-comments.cu:[[@LINE-2]]:12: warning: 16-way
  // NOTES: note: analysed for a block of 16x2 threads (shmem-lint annotation)
}

// shmem-lint: block = 1024 (the widest block)
// shmem-lint: checked in CI
__global__ void validWithText(float *out) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x % 32][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  // NOTES: geometry-comments.cu:[[@LINE-2]]:12: warning: 32-way
  // NOTES: note: analysed for a block of 1024 threads (shmem-lint annotation)
}

int main() { misspelt<<<1, 128>>>(nullptr); }
