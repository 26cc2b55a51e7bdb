// RUN: %check_all_front_ends %s shmem-bank-conflict

// A loop whose first test fails in every thread that reaches it runs no
// iteration: its accesses are not made, whatever their addresses. (The
// walk simulates the counter from the value the running threads hold.)

// The bound is a local 0: the body never runs. Negative.
// shmem-lint: block=32
__global__ void zeroTrips(float *out) {
  __shared__ float s[1024];
  int n = 0;
  float v = 0;
  for (int j = 5; j < n; ++j)
    v += s[threadIdx.x * 32 + j];
  out[threadIdx.x] = v;
}

// The same loop with a bound of 6 runs once, at j = 5: 32-way.
// shmem-lint: block=32
__global__ void oneTrip(float *out) {
  __shared__ float s[1024];
  int n = 6;
  float v = 0;
  for (int j = 5; j < n; ++j)
    v += s[threadIdx.x * 32 + j];
// CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 5 (32 wavefronts instead of 1)
  out[threadIdx.x] = v;
}

// A triangular nest under a branch (Rodinia's lud): at i = 0 the inner
// loop runs no iteration, at i = 1 one, at j = 0, reading bank 0 down a
// column. Skipping the empty loop keeps the one that runs.
// shmem-lint: block=32
__global__ void triangular(float *out) {
  __shared__ float s[1024];
  float v = 0;
  if (threadIdx.x < 16) {
    int i, j;
    for (i = 0; i < 2; ++i)
      for (j = 0; j < i; ++j)
        v += s[threadIdx.x * 32 + j];
  }
  out[threadIdx.x] = v;
}
// CHECK-MESSAGES: :[[@LINE-4]]:14: warning: 16-way bank conflict: lanes 0-15 read 16 distinct words of 's' in bank 0 (16 wavefronts instead of 1)
