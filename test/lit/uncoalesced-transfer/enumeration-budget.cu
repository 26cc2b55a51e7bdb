// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer
// (-DAG: remarks come after the findings, and their notes after them.)
//
// Unknowns whose coefficient differs between lanes are enumerated, at
// most 4096 combinations of their values per access. An access with more
// gets no verdict, and that is said (a remark, no finding), never dropped.

// Four lane-dependent unknowns: 14 values each, 38416 combinations.
// shmem-lint: block=256
__global__ void four_strides(const float *in, float *out, int p, int q, int r,
                             int w) {
// CHECK-MESSAGES-DAG: :[[@LINE-2]]:17: note: kernel 'four_strides' not fully analysed for a block of 256 threads (shmem-lint annotation)
  __shared__ float tile[256];
  unsigned t = threadIdx.x;
  tile[t] = in[t * p + t * q + t * r + t * w];
// CHECK-MESSAGES-DAG: :[[@LINE-1]]:13: remark: coalescing of this access not analysed (38416 combinations): its unknowns take more than 4096 combinations of values [shmem-uncoalesced-transfer]
  __syncthreads();
  out[t] = tile[255 - t];
}

// Negative: the same unknowns, the same in every lane, need no
// enumeration; the load is coalesced and nothing is said.
// shmem-lint: block=256
__global__ void four_offsets(const float *in, float *out, int p, int q, int r,
                             int w) {
  __shared__ float tile[256];
  unsigned t = threadIdx.x;
  tile[t] = in[t + p + q + r + w];
  __syncthreads();
  out[t] = tile[255 - t];
}
