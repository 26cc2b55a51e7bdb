// RUN: %check_all_front_ends %s shmem-race
// The fix-its apply, and what they fix is clean for every check: only the
// races that get no fix-it remain.
// RUN: cp %s %t.cu
// RUN: %clang-tidy --load=%tidy_plugin --checks=-*,shmem-race --fix --quiet %t.cu -- -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 %cuda_flags > /dev/null 2>&1
// RUN: FileCheck --check-prefix=FIXED %s < %t.cu
// RUN: %not %shmem-lint --checks='shmem-*' %t.cu | FileCheck --check-prefix=AFTER --implicit-check-not=warning: %s
// AFTER: :{{[0-9]+}}:5: warning: thread 0 writes s[0] (line {{[0-9]+}}) while thread 31 reads s[0]
// AFTER: :{{[0-9]+}}:9: warning: thread 0 reads s[1] (line {{[0-9]+}}) while thread 1 writes s[1]
// AFTER: :{{[0-9]+}}:27: warning: thread 0 reads s[255]
// AFTER: :{{[0-9]+}}:10: warning: thread 31 reads s[32]
// AFTER: :{{[0-9]+}}:5: warning: thread 255 writes s[255] (line {{[0-9]+}}) in the next iteration

// A race finding's barrier is a fix-it where it is one statement, and only
// once analysing the pair again with it finds the race gone (issue #25).
// Between warps, where every thread passes: __syncthreads(). Within a
// warp: __syncwarp() with the lanes that get there as its mask.

// shmem-lint: block=256
__global__ void exchange(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[255 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: thread 0 reads s[255] (line [[@LINE-1]]) while thread 255 writes s[255] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
  // FIXED: {{^}}  s[threadIdx.x] = threadIdx.x;
  // FIXED-NEXT: {{^}}  __syncthreads();
  // FIXED-NEXT: {{^}}  out[threadIdx.x] = s[255 - threadIdx.x];
}

// In a loop whose trip count every thread shares: the barrier in the body
// is reached as often by all of them.
// shmem-lint: block=256
__global__ void tiles(const float *g, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < n; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    acc += s[255 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 0 reads s[255] (line [[@LINE-1]]) while thread 255 writes s[255] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
    // FIXED: {{^}}    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    // FIXED-NEXT: {{^}}    __syncthreads();
    // FIXED-NEXT: {{^}}    acc += s[255 - threadIdx.x];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// The same loop unrolled by the analysis (constant trip count): the
// barrier stands in every iteration.
// shmem-lint: block=256
__global__ void tilesUnrolled(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < 4; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    acc += s[255 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: thread 0 reads s[255] (line [[@LINE-1]], k = 0) while thread 255 writes s[255] (line [[@LINE-2]], k = 0); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
    // FIXED: {{^}}    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    // FIXED-NEXT: {{^}}    __syncthreads();
    // FIXED-NEXT: {{^}}    acc += s[255 - threadIdx.x];
    // FIXED-NEXT: {{^}}    // CHECK-MESSAGES
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// One warp in a branch: every lane of it arrives.
// shmem-lint: block=256
__global__ void oneWarp(float *out) {
  __shared__ float s[32];
  float y = 0;
  if (threadIdx.x < 32) {
    s[threadIdx.x] = threadIdx.x;
    y = s[31 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 reads s[31] (line [[@LINE-1]]) while thread 31 writes s[31] (line [[@LINE-2]]); no barrier between them; add __syncwarp() between line [[@LINE-2]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
    // FIXED: {{^}}    __syncwarp();
    // FIXED-NEXT: {{^}}    y = s[31 - threadIdx.x];
  }
  out[threadIdx.x] = y;
}

// Half a warp: __syncwarp() would wait for lanes 16-31, which never get
// there (the divergent barrier shmem-divergent-barrier reports); the mask
// names the lanes that do.
// shmem-lint: block=256
__global__ void halfWarp(float *out) {
  __shared__ float s[16];
  float y = 0;
  if (threadIdx.x < 16) {
    s[threadIdx.x] = threadIdx.x;
    y = s[15 - threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 reads s[15] (line [[@LINE-1]]) while thread 15 writes s[15] (line [[@LINE-2]]); no barrier between them; add __syncwarp(0x0000ffff) between line [[@LINE-2]] and line [[@LINE-1]] (the lanes that run line [[@LINE-1]]; a __syncwarp() would wait for lanes that never arrive) (both threads are in warp 0) [shmem-race]
    // FIXED: {{^}}    __syncwarp(0x0000ffff);
    // FIXED-NEXT: {{^}}    y = s[15 - threadIdx.x];
  }
  out[threadIdx.x] = y;
}

// Two statements on one line: the barrier goes between them, and the
// advice names the read, not "between line N and line N".
// shmem-lint: block=256
__global__ void oneLine(float *out) {
  __shared__ float s[32];
  float y = 0;
  if (threadIdx.x < 32) { s[threadIdx.x] = 1.0f; y = s[31 - threadIdx.x]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: thread 0 reads s[31] (line [[@LINE-1]]) while thread 31 writes s[31] (line [[@LINE-1]]); no barrier between them; add __syncwarp() before the read at line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  // FIXED: {{^}}  if (threadIdx.x < 32) { s[threadIdx.x] = 1.0f; __syncwarp(); y = s[31 - threadIdx.x]; }
  out[threadIdx.x] = y;
}

// Negative: the read and the write are one statement; no barrier goes
// between them, so no fix-it.
// shmem-lint: block=256
__global__ void oneStatement() {
  __shared__ float s[32];
  if (threadIdx.x < 32)
    s[threadIdx.x] = s[31 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes s[0] (line [[@LINE-1]]) while thread 31 reads s[0] (line [[@LINE-1]]); no barrier between them; read into a register, then __syncwarp(), then write (both threads are in warp 0) [shmem-race]
}

// Negative: warp 0 runs the read in all its lanes, warp 1 in lanes 0-15:
// no one mask fits both, so no fix-it.
// shmem-lint: block=256
__global__ void masksDiffer(float *out) {
  __shared__ float s[64];
  float y = 0;
  if (threadIdx.x < 48) {
    s[threadIdx.x] = threadIdx.x;
    y = s[threadIdx.x ^ 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: thread 0 reads s[1] (line [[@LINE-1]]) while thread 1 writes s[1] (line [[@LINE-2]]); no barrier between them; add __syncwarp(mask) (mask: the lanes of each warp that run line [[@LINE-1]], which differ between warps) between line [[@LINE-2]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
  }
  out[threadIdx.x] = y;
}

// Negative: the read is the body of an if without braces; one statement
// cannot go before it there.
// shmem-lint: block=256
__global__ void noBraces(float *out) {
  __shared__ float s[256];
  float y = 0;
  s[threadIdx.x] = 1;
  if (blockDim.x > 0) y = s[255 - threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: thread 0 reads s[255] (line [[@LINE-1]]) while thread 255 writes s[255] (line [[@LINE-2]]); no barrier between them; add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
  out[threadIdx.x] = y;
}

// Negative: the trip count differs between threads, so a barrier in the
// body is not reached as often by all of them: no fix-it, and the advice
// says what must change first.
// shmem-lint: block=256
__global__ void uneven(float *out) {
  __shared__ float s[256];
  float y = 0;
  for (int i = 0; i < threadIdx.x % 4; ++i) {
    s[threadIdx.x] = i;
    y += s[(threadIdx.x + 1) % 256];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: thread 31 reads s[32] (line [[@LINE-1]]) while thread 32 writes s[32] (line [[@LINE-2]]); no barrier between them; the loop at line [[@LINE-3]] may run a different number of times in different threads, so a __syncthreads() in it would be a divergent barrier: run it as often in every thread (guard its body instead) and add __syncthreads() between line [[@LINE-2]] and line [[@LINE-1]] [shmem-race]
  }
  out[threadIdx.x] = y;
}

// Across iterations: the trailing barrier, as the body's last statement,
// where every thread runs the loop as often (a run-time trip count the
// same in every thread, or the analysis's unrolled one). (The expectations
// stand outside the body: clang prints the lines between a warning and
// its fix-it, and a comment there with its text would match itself.)
// shmem-lint: block=256
__global__ void trailing(const float *g, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: thread 255 writes s[255] (line [[@LINE+2]]) in the next iteration of the loop at line [[@LINE+1]] while thread 0 reads s[255] (line [[@LINE+4]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  for (int k = 0; k < n; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    __syncthreads();
    acc += s[255 - threadIdx.x];
  }
  // FIXED: {{^}}    acc += s[255 - threadIdx.x];
  // FIXED-NEXT: {{^}}    __syncthreads();
  // FIXED-NEXT: {{^}}  }
  out[threadIdx.x] = acc;
}

// shmem-lint: block=256
__global__ void trailingUnrolled(const float *g, float *out) {
  __shared__ float s[256];
  float acc = 0;
  // CHECK-MESSAGES: :[[@LINE+2]]:5: warning: thread 255 writes s[255] (line [[@LINE+2]], k = 1) in the next iteration of the loop at line [[@LINE+1]] while thread 0 reads s[255] (line [[@LINE+4]], k = 0); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  for (int k = 0; k < 4; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    __syncthreads();
    acc += s[255 - threadIdx.x];
  }
  // FIXED: {{^}}    acc += s[255 - threadIdx.x];
  // FIXED-NEXT: {{^}}    __syncthreads();
  // FIXED-NEXT: {{^}}  }
  out[threadIdx.x] = acc;
}

// On one line: before the brace.
// shmem-lint: block=256
__global__ void trailingOneLine(const float *g, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < n; ++k) { s[threadIdx.x] = g[k]; __syncthreads(); acc += s[255 - threadIdx.x]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: thread 255 writes s[255] (line [[@LINE-1]]) in the next iteration of the loop at line [[@LINE-1]] while thread 0 reads s[255] (line [[@LINE-1]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
  // FIXED: {{^}}  for (int k = 0; k < n; ++k) { s[threadIdx.x] = g[k]; __syncthreads(); acc += s[255 - threadIdx.x]; __syncthreads(); }
  out[threadIdx.x] = acc;
}

// Negative: a `continue` skips the end of the body, so a barrier there is
// not in every iteration: no fix-it.
// shmem-lint: block=256
__global__ void trailingContinue(const float *g, float *out, int n) {
  __shared__ float s[256];
  float acc = 0;
  for (int k = 0; k < n; ++k) {
    s[threadIdx.x] = g[k * 256 + threadIdx.x];
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 255 writes s[255] (line [[@LINE-1]]) in the next iteration of the loop at line [[@LINE-2]] while thread 0 reads s[255] (line [[@LINE+4]]); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
    __syncthreads();
    if (g[k] > 0)
      continue;
    acc += s[255 - threadIdx.x];
  }
  out[threadIdx.x] = acc;
}
