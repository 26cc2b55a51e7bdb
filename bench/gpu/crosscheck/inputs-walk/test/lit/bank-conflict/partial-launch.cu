// RUN: %check_all_front_ends %s shmem-bank-conflict

// Launch shapes that are only partly constant keep their constant parts;
// the rest is guessed (and said to be), unless the kernel states it.

#include <cassert>

// x is a constant, y a variable: x is kept, y is guessed so that the block
// has 256 threads.
__global__ void rows(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0
// CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 32x8 threads (launch at line {{[0-9]+}}; y = 8 assumed); state the shape with
}

// y is a constant: x is guessed.
__global__ void columns(float *out) {
  __shared__ float t[64][32];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0
// CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 32x8 threads (launch at line {{[0-9]+}}; x = 32 assumed); state the shape with
}

// The kernel states the part the launch does not: nothing is guessed, and
// the note asks for no annotation.
__global__ void stated(float *out) {
  __shared__ float t[32][32];
  assert(blockDim.y == 4);
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0
// CHECK-MESSAGES: :[[@LINE-7]]:17: note: analysed for a block of 32x4 threads (launch at line {{[0-9]+}}; blockDim.y == 4 by the assert at line [[@LINE-5]]){{$}}
}

// A kernel that never reads threadIdx.y: rows that cannot tell themselves
// apart would repeat one another, and y is 1.
__global__ void flat(float *out) {
  __shared__ float t[64 * 32];
  t[threadIdx.x * 32] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 't' in bank 0
// CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 64 threads (launch at line {{[0-9]+}}){{$}}
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x];
}

// No part of the launch is a constant: the default shape.
__global__ void unknown(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.x % 32][0] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict
// CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 256 threads (assumed); state the shape with
}

// A launch that gives both parts as constants is the shape itself.
__global__ void constant(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict
// CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 32x2 threads (launch at line {{[0-9]+}}){{$}}
}

// Rodinia's style: a dim3 declared empty, its parts assigned. x is given
// one constant, y a variable: 128 x 2.
__global__ void assigned(float *out) {
  __shared__ float t[128][32];
  t[threadIdx.x][threadIdx.y] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict
// CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 128x2 threads (launch at line {{[0-9]+}}; y = 2 assumed); state the shape with
}

// dim3(s, s): one value for x and y. Where the kernel's arrays bound both
// (every thread indexes a 32 x 32 tile by threadIdx.y and .x), one tile per
// block: 32 x 32.
__global__ void square(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 32-way bank conflict
// CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 32x32 threads (launch at line {{[0-9]+}}; x = y = 32 assumed (the launch gives both as one value), the most 't' allows: 't' has 32 elements where every thread indexes it by threadIdx.x (line [[@LINE-4]])); state the shape with
}

// Where nothing bounds them, a square of 256 threads.
__global__ void squareUnbounded(float *out, int n) {
  __shared__ float t[32][32];
  if (n > 0)
    t[threadIdx.y % 32][threadIdx.x % 32] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 2-way bank conflict
// CHECK-MESSAGES: :[[@LINE-5]]:17: note: analysed for a block of 16x16 threads (launch at line {{[0-9]+}}; x = y = 16 assumed (the launch gives both as one value)); state the shape with
}

// A square bounded by a stated condition rather than an array.
__global__ void squareAsserted(float *out) {
  __shared__ float t[32][32];
  assert(blockDim.x <= 8 && blockDim.y <= 8);
  t[threadIdx.y][threadIdx.x] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 4-way bank conflict
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 8-way bank conflict
// CHECK-MESSAGES: :[[@LINE-8]]:17: note: analysed for a block of 8x8 threads (launch at line {{[0-9]+}}; x = y = 8 assumed (the launch gives both as one value), the most the assert at line [[@LINE-6]] allows); state the shape with
}

// A part changed after it is given (threads.x++ in a loop): not known.
__global__ void incremented(float *out) {
  __shared__ float t[64][32];
  t[threadIdx.x % 64][0] = threadIdx.x;
// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict
// CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 256 threads (launch at line {{[0-9]+}}; x = 256 assumed); state the shape with
}

void launch(float *out, int by, int n) {
  dim3 block(32, by);
  rows<<<1, block>>>(out);
  columns<<<1, dim3(n, 8)>>>(out);
  stated<<<1, dim3(32, by)>>>(out);
  flat<<<1, dim3(64, by)>>>(out);
  unknown<<<1, n>>>(out);
  constant<<<1, dim3(32, 2)>>>(out);
  dim3 threads;
  threads.x = 128;
  threads.y = by;
  assigned<<<1, threads>>>(out);
  square<<<1, dim3(n, n)>>>(out);
  squareUnbounded<<<1, dim3(n, n)>>>(out, n);
  squareAsserted<<<1, dim3(n, n)>>>(out);
  dim3 grown;
  grown.x = 64;
  for (int i = 0; i < n; ++i)
    grown.x++;
  incremented<<<1, grown>>>(out);
}
