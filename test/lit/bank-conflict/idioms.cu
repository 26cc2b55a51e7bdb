// RUN: %check_all_front_ends %s shmem-bank-conflict

// Index idioms, constants and control flow the bank check evaluates exactly.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define ROW 32
enum { Cols = 32 };
constexpr int Pad = 0;

// Lane and warp ids through %, &, / and >>.
__global__ void laneIdioms(float *out) {
  __shared__ float s[8][32 * 32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned lane2 = threadIdx.x & 31, warp2 = threadIdx.x >> 5;
  out[0] = s[warp][lane];
  out[1] = s[warp2][lane2 * (ROW + Pad)];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 0
}

// cooperative groups ranks.
__global__ void ranks(float *out) {
  __shared__ float s[32 * 33];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank();
  out[0] = s[r * Cols];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict
  out[1] = s[r * (Cols + 1)];
}

// min/max, ternaries and reassignment.
__global__ void expressions(float *out, int n) {
  __shared__ float s[64 * 32];
  int i = threadIdx.x;
  i = i * 2;
  out[0] = s[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 16 read 2 distinct words of 's'
  int j = threadIdx.x < 16 ? threadIdx.x : threadIdx.x + 16;
  out[1] = s[j];
  // Lanes 16-31 land 32 words further on: the same 16 banks again.
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 2-way bank conflict: lanes 0, 16 read 2 distinct words of 's' in bank 0 (2 wavefronts instead of 1) [shmem-bank-conflict]
  out[2] = s[min(threadIdx.x, 15u) * 32];
  // The lanes clamped to 15 share one word (broadcast): 16 distinct words.
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 16-way bank conflict: lanes 0-31 read 16 distinct words
  out[3] = s[max((int)threadIdx.x, 0)];
}

// Nested loops with constant bounds, and a grid-stride loop whose uniform
// iteration offset cannot change the degree.
__global__ void nested(float *out, int n) {
  __shared__ float s[32][32];
  float acc = 0;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      acc += s[threadIdx.x][a * 4 + b];
  // nvcc unrolls both loops and merges each row's 4 loads into one LDS.128
  // (bench/gpu/widths/h200-loops.txt, nested: 2 of 32 wavefronts each).
  // CHECK-MESSAGES: :[[@LINE-3]]:14: warning: 8-way bank conflict{{.*}}(32 wavefronts instead of 4); nvcc merges this thread's 4 adjacent loads of 's' into one 128-bit load here
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += s[0][i % 32];
  out[0] = acc;
}

// Stores, 16-bit and 8-bit types.
__global__ void narrow(short *out) {
  __shared__ short h[32 * 64];
  __shared__ char c[32 * 4];
  h[threadIdx.x] = 1;
  h[threadIdx.x * 64] = 2;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'h' in bank 0
  c[threadIdx.x * 4] = 3;
  out[0] = h[threadIdx.x * 2];
}

// An XOR swizzle with a thread-dependent row: conflict-free.
__global__ void swizzle(float *out) {
  __shared__ float t[32][32];
  unsigned r = threadIdx.x;
  out[0] = t[r][(r ^ 3) % 32];
}

int main() {
  laneIdioms<<<1, 256>>>(nullptr);
  ranks<<<1, 32>>>(nullptr);
  expressions<<<1, 32>>>(nullptr, 4);
  nested<<<1, 32>>>(nullptr, 100);
  narrow<<<1, 32>>>(nullptr);
  swizzle<<<1, 32>>>(nullptr);
}
