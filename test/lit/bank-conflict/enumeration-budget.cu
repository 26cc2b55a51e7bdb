// RUN: %check_all_front_ends %s shmem-bank-conflict
// (-DAG: remarks come after the findings, and their notes after them.)
//
// Unknowns whose coefficient differs between lanes are enumerated over
// their residues, at most 4096 combinations per warp. A warp with more is
// not analysed, and that is said (a remark, no finding), never dropped.

// Three lane-dependent unknowns: 32 residues each, 32768 combinations.
// shmem-lint: block=32
__global__ void three_strides(float *out, int p, int q, int r) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: kernel 'three_strides' not fully analysed for a block of 32 threads (shmem-lint annotation)
  __shared__ float tile[32 * 1024];
  out[threadIdx.x] = tile[threadIdx.x * p + threadIdx.x * q + threadIdx.x * r];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:22: remark: bank conflicts of this access not analysed in some warps (32768 combinations): its unknowns take more than 4096 combinations of residues [shmem-bank-conflict]
}

// Negative: the same unknowns, the same in every lane, need no enumeration;
// the access is analysed (conflict-free) and nothing is said.
// shmem-lint: block=32
__global__ void three_offsets(float *out, int p, int q, int r) {
  __shared__ float tile[32 * 1024];
  out[threadIdx.x] = tile[threadIdx.x + p + q + r];
}

// Negative: two lane-dependent unknowns (1024 combinations) are analysed:
// the conflict for some of their values is a finding, and no remark.
// shmem-lint: block=32
__global__ void two_strides(float *out, int p, int q) {
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:17: note: analysed for a block of 32 threads (shmem-lint annotation)
  __shared__ float tile[32 * 1024];
  out[threadIdx.x] = tile[threadIdx.x * p + threadIdx.x * q];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:22: warning: 32-way bank conflict for some values of the unknowns involved{{.*}} [shmem-bank-conflict]
}
