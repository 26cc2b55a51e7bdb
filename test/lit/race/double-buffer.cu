// RUN: %check_all_front_ends %s shmem-race

// Double buffering by parity: one buffer is read while the other is
// written, one barrier per iteration. The trip count is a parameter, so the
// loop is walked with its iteration as an unknown; `k & 1` is not affine in
// it, so the check re-walks the kernel with the iteration pinned to a few
// values and compares iteration k with iteration k + 1.

// shmem-lint: block=256
__global__ void parityNext(const float *in, float *out, int iters) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  for (int k = 0; k < iters; ++k) {
    buf[(k + 1) & 1][t] = 0.5f * (buf[k & 1][(t + 255) % 256] +
                                  buf[k & 1][(t + 1) % 256]);
    __syncthreads();
  }
  out[t] = buf[iters & 1][t];
}

// shmem-lint: block=256
__global__ void parityPrevious(const float *in, float *out, int iters) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  for (int k = 1; k <= iters; ++k) {
    buf[k & 1][t] = buf[(k - 1) & 1][(t + 1) % 256];
    __syncthreads();
  }
  out[t] = buf[iters & 1][t];
}

// The parity held in variables, as the loop body computes it.
// shmem-lint: block=256
__global__ void parityVariables(const float *in, float *out, int iters) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    int cur = it & 1;
    int nxt = cur ^ 1;
    float left = buf[cur][(t + 255) % 256];
    float right = buf[cur][(t + 1) % 256];
    buf[nxt][t] = 0.5f * (left + right);
    __syncthreads();
  }
  out[t] = buf[iters & 1][t];
}

// Reading the buffer being written: a race within one iteration.
// shmem-lint: block=256
__global__ void sameBuffer(const float *in, float *out, int iters) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  for (int k = 0; k < iters; ++k) {
    buf[k & 1][t] = buf[k & 1][(t + 1) % 256];
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 0 writes buf[0][0] (line 62) while thread 255 reads buf[0][0] (line 62); no barrier between them; read into a register, then __syncthreads(), then write [shmem-race]
    __syncthreads();
  }
  out[t] = buf[iters & 1][t];
}

// Two buffers are not enough without the barrier: iteration k + 1 writes
// the buffer iteration k reads.
// shmem-lint: block=256
__global__ void noBarrier(const float *in, float *out, int iters) {
  __shared__ float buf[2][256];
  unsigned t = threadIdx.x;
  buf[0][t] = in[t];
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    int cur = it & 1;
    int nxt = cur ^ 1;
    float left = buf[cur][(t + 255) % 256];
    float right = buf[cur][(t + 1) % 256];
    buf[nxt][t] = 0.5f * (left + right);
  }
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: thread 31 writes buf[0][31] (line 82) in the next iteration of the loop at line 77 while thread 32 reads buf[0][31] (line 80); no barrier between them; add __syncthreads() at the end of the loop body (a trailing barrier) so that the next iteration waits for this one [shmem-race]
// (After the loop: clang prints the lines down to the fix-it at its brace.)
  out[t] = buf[iters & 1][t];
}
