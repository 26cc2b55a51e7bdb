// RUN: %check_all_front_ends %s 'shmem-*' -- -fgpu-rdc
// The driver parses device-side launches without being told -fgpu-rdc:
// RUN: %exit_status %{shmem-lint-raw} --cuda-path=none %s | FileCheck --check-prefix=CHECK-MESSAGES %s
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit %s | FileCheck --check-prefix=CHECK-MESSAGES %s %}

// Dynamic parallelism (found in cuda-samples' cdpSimplePrint and
// cdpQuadtree): a kernel launched from device code runs as another grid,
// with its own shared memory and barriers, so the launch is not a call the
// launching threads make into the child's body. Its arguments are read by
// the launching thread, like any other call's.

__global__ void child(int *out, int parent) {
  __shared__ int s[64];
  s[threadIdx.x] = parent;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}

// One thread launches after the barrier: no divergent barrier (the child's
// __syncthreads() is the child's), no race on uid.
__global__ void parent(int *out) {
  __shared__ int uid;
  if (threadIdx.x == 0)
    uid = out[0];
  __syncthreads();
  if (threadIdx.x == 0)
    child<<<1, 64>>>(out, uid);
}

// Without the barrier, the launching thread reads uid as thread 1 writes it.
__global__ void parentRace(int *out) {
  __shared__ int uid;
  if (threadIdx.x == 1)
    uid = out[0];
  if (threadIdx.x == 0)
    child<<<1, 64>>>(out, uid);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: thread 0 reads uid (line [[@LINE-1]]) while thread 1 writes uid (line [[@LINE-3]]); no barrier between them
}

int main() {
  parent<<<1, 32>>>(nullptr);
  parentRace<<<1, 32>>>(nullptr);
}
