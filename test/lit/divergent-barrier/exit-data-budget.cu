// RUN: %check_all_front_ends %s shmem-divergent-barrier
// (-DAG: remarks come after the findings, and their notes after them.)
//
// A survivor's read after an early exit is judged in every iteration of the
// loops walked symbolically around it, at most 1024 combinations. A read
// with more is not judged, and that is said (a remark), never dropped.

// Two loops of 100 trips, neither unrolled: 10000 iterations. With n = 128
// thread 0 would read sp[128] at r + c = 128, which only the exited thread
// 128 writes; the read is not judged, and the remark says so.
// shmem-lint: block=256
__global__ void tooManyIterations(const float *pos, float *out, int n) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: kernel 'tooManyIterations' not fully analysed for a block of 256 threads (shmem-lint annotation)
  __shared__ float sp[256];
  if (threadIdx.x >= n)
    return;
  sp[threadIdx.x] = pos[threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int r = 0; r < 100; ++r)
    for (int c = 0; c < 100; ++c)
      acc += sp[r + c];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:14: remark: reads of data only exited threads would write not judged here: its loops take more than 1024 iterations [shmem-divergent-barrier]
  out[threadIdx.x] = acc;
}

// Negative: the outer loop unrolled (4 trips) and the inner one walked
// symbolically (200): 200 iterations are judged, and the read is a finding,
// with no remark.
// shmem-lint: block=256
__global__ void judged(const float *pos, float *out, int n) {
  __shared__ float sp[256];
  if (threadIdx.x >= n)
    return;
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:5: note: {{.*}} return here when n = {{[0-9]+}}{{.*}}
  sp[threadIdx.x] = pos[threadIdx.x];
  __syncthreads();
  float acc = 0;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 200; ++c)
      acc += sp[r + c];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:14: warning: thread {{[0-9]+}} reads sp[{{[0-9]+}}]{{.*}}which only thread {{[0-9]+}} writes{{.*}} [shmem-divergent-barrier]
  out[threadIdx.x] = acc;
}
