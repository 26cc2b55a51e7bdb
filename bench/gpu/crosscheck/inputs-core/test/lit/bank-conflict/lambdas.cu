// RUN: %check_all_front_ends %s shmem-bank-conflict

// Shared memory reached through a lambda or a function object: the walk
// follows `operator()` like any __device__ function, at the call, with the
// caller's values, and a lambda's captures resolve to the variables they
// capture (by reference: the variable as it is at the call; by copy: as it
// was when the lambda was made). Each case has a conflict-free twin.

// An accessor lambda returning a reference: `at(lane, 0)` walks down a
// column of a 32 x 32 tile.
// shmem-lint: block=32
__global__ void accessorLambda(float *out) {
  __shared__ float tile[32][32];
  int lane = threadIdx.x;
  auto at = [&](int r, int c) -> float & { return tile[r][c]; };
  at(0, lane) = 1.0f;
  __syncthreads();
  out[lane] = at(lane, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 0 {{.*}} [shmem-bank-conflict]
}

// Padded to 33: conflict-free.
// shmem-lint: block=32
__global__ void accessorLambdaPadded(float *out) {
  __shared__ float tile[32][33];
  int lane = threadIdx.x;
  auto at = [&](int r, int c) -> float & { return tile[r][c]; };
  at(0, lane) = 1.0f;
  __syncthreads();
  out[lane] = at(lane, 0);
}

// A generic lambda with a pointer and a stride captured by copy.
// shmem-lint: block=32
__global__ void genericLambdaByCopy(float *out, int n) {
  __shared__ float buf[32 * 32];
  float *p = buf;
  int ld = 32;
  auto column = [=](auto r) { return p[r * ld]; };
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  ld = 33; // The lambda keeps the 32 it captured.
  out[threadIdx.x] = column(threadIdx.x);
  // CHECK-MESSAGES: :[[@LINE-5]]:38: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'buf' in bank 0 {{.*}} [shmem-bank-conflict]
}

// The same with a stride of 33 captured: conflict-free.
// shmem-lint: block=32
__global__ void genericLambdaByCopyPadded(float *out, int n) {
  __shared__ float buf[32 * 33];
  float *p = buf;
  int ld = 33;
  auto column = [=](auto r) { return p[r * ld]; };
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  ld = 32;
  out[threadIdx.x] = column(threadIdx.x);
}

// A lambda handed to a helper template, capturing an accumulator by
// reference: walked where the helper calls it.
template <class F> __device__ void forLane(F f) { f(threadIdx.x % 32); }

// shmem-lint: block=32
__global__ void lambdaPassedDown(float *out) {
  __shared__ float tile[32][32];
  tile[0][threadIdx.x] = 0.0f;
  __syncthreads();
  float acc = 0.0f;
  forLane([&](int lane) { acc += tile[lane][0]; });
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 0 {{.*}} [shmem-bank-conflict]
  out[threadIdx.x] = acc;
}

// shmem-lint: block=32
__global__ void lambdaPassedDownRow(float *out) {
  __shared__ float tile[32][32];
  tile[0][threadIdx.x] = 0.0f;
  __syncthreads();
  float acc = 0.0f;
  forLane([&](int lane) { acc += tile[0][lane]; });
  out[threadIdx.x] = acc;
}

// A function object whose call operator reads a column. The padding fix-it
// of 's' puts the lines down to its declaration in the snippet, so this
// expectation stands above them.
// CHECK-MESSAGES: :[[@LINE+4]]:53: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 3 {{.*}} [shmem-bank-conflict]
struct ColumnOf {
  float (&rows)[32][32];
  __device__ explicit ColumnOf(float (&r)[32][32]) : rows(r) {}
  __device__ float operator()(int c) const { return rows[threadIdx.x][c]; }
};

// shmem-lint: block=32
__global__ void functorColumn(float *out) {
  __shared__ float s[32][32];
  s[0][threadIdx.x] = 0.0f;
  __syncthreads();
  ColumnOf col(s);
  out[threadIdx.x] = col(3);
}

struct RowOf {
  float (&rows)[32][32];
  __device__ explicit RowOf(float (&r)[32][32]) : rows(r) {}
  __device__ float operator()(int r) const { return rows[r][threadIdx.x]; }
};

// shmem-lint: block=32
__global__ void functorRow(float *out) {
  __shared__ float s[32][32];
  s[0][threadIdx.x] = 0.0f;
  __syncthreads();
  RowOf row(s);
  out[threadIdx.x] = row(3);
}
