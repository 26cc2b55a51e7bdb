// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer

// The tile kernels of bench/gpu/transfer/gen.py, with the same block shapes,
// iterations, guards and index expressions, measured with Nsight Compute on
// an H200 (test/calibration/h200-global-transfers.tsv, one block each:
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum and the request
// counter). Every warp request of these kernels touches the same number of
// sectors, so the measured sectors / requests is what shmem-lint must say a
// request touches; the kernels it leaves alone measure less than twice the
// ideal. The row of the table is named above each kernel.

// ld_column_p256: 1024 sectors / 32 requests = 32 per request.
// shmem-lint: block=32x8
__global__ void ld_column_p256(float *out, const float *in) {
  __shared__ float s[1024];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  for (int j = 0; j < 32; j += 8)
    s[(tid + j * 32) % 1024] = in[tx * 256 + ty + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 1024 bytes apart; let consecutive lanes take consecutive elements of 'in' and transpose through 's' [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the loaded value is stored to 's' here; with consecutive lanes on consecutive elements of 'in' a warp's request would touch 4 sectors (not 32)
  // CHECK-MESSAGES: :[[@LINE-8]]:17: note: analysed for a block of 32x8 threads
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_rows_p256: 128 sectors / 32 requests = 4, the ideal: silent.
// shmem-lint: block=32x8
__global__ void ld_rows_p256(float *out, const float *in) {
  __shared__ float s[1024];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  for (int j = 0; j < 32; j += 8)
    s[(tid + j * 32) % 1024] = in[(ty + j) * 256 + tx];
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_column_p2: 64 sectors / 8 requests = 8 per request, twice the ideal.
// shmem-lint: block=32x8
__global__ void ld_column_p2(float *out, const float *in) {
  __shared__ float s[256];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  s[tid] = in[tx * 2 + ty * 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE-7]]:17: note: analysed for a block of 32x8 threads
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_column_p1: 32 sectors / 8 requests = 4: silent.
// shmem-lint: block=32x8
__global__ void ld_column_p1(float *out, const float *in) {
  __shared__ float s[256];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  s[tid] = in[tx * 1 + ty * 32];
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// st_column_p256: 1024 sectors / 32 requests = 32 per request.
// shmem-lint: block=32x32
__global__ void st_column_p256(float *out, const float *in) {
  __shared__ float s[1024];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  s[tid] = tid;
  __syncthreads();
  out[tx * 256 + ty] = s[tid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store to 'out' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 1024 bytes apart; let consecutive lanes take consecutive elements of 'out' and transpose through 's' [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: the stored value is loaded from 's' here; with consecutive lanes on consecutive elements of 'out' a warp's request would touch 4 sectors (not 32)
  // CHECK-MESSAGES: :[[@LINE-9]]:17: note: analysed for a block of 32x32 threads
}

// st_rows_p256: 128 sectors / 32 requests = 4: silent.
// shmem-lint: block=32x32
__global__ void st_rows_p256(float *out, const float *in) {
  __shared__ float s[1024];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  s[tid] = tid;
  __syncthreads();
  out[ty * 256 + tx] = s[tid ^ 1];
}

// ld_stride2_256 and st_stride2_256: 64 sectors / 8 requests = 8 each.
// shmem-lint: block=256
__global__ void stride2(float *out, const float *in) {
  __shared__ float s[256];
  const unsigned tid = threadIdx.x;
  s[tid] = in[2 * tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 256 threads
  __syncthreads();
  out[2 * tid] = s[tid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store to 'out' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: the stored value is loaded from 's' here
  // CHECK-MESSAGES: :[[@LINE-11]]:17: note: analysed for a block of 256 threads
}

// ld_offset1_256: 40 sectors / 8 requests = 5, one more than the ideal
// (misalignment): silent.
// shmem-lint: block=256
__global__ void ld_offset1_256(float *out, const float *in) {
  __shared__ float s[256];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid + 1];
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_tile16_p128 (32 / 8 = 4) and ld_tile16_p257 (46 / 8, 6 in the worst
// warp against 4): below twice the ideal, silent.
// shmem-lint: block=16x16
__global__ void tile16(float *out, const float *in) {
  __shared__ float s[512];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const unsigned tid = tx + ty * blockDim.x;
  s[tid] = in[ty * 128 + tx];
  s[256 + tid] = in[ty * 257 + tx];
  __syncthreads();
  out[tid] = s[tid ^ 1] + s[256 + (tid ^ 1)];
}

// ld_halfwarp_stride3: 12 sectors / 2 requests = 6 for 16 lanes.
// shmem-lint: block=64
__global__ void ld_halfwarp_stride3(float *out, const float *in) {
  __shared__ float s[64];
  const unsigned tid = threadIdx.x;
  if (tid % 32 < 16)
    s[tid] = in[tid * 3];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: global load from 'in' is uncoalesced: a warp's request touches 6 sectors of 32 bytes for 64 bytes, where 2 would do; successive lanes are 12 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE-7]]:17: note: analysed for a block of 64 threads
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_f4_stride2: 64 sectors / 2 requests = 32 for 512 bytes;
// st_f4_stride1_64: 32 / 2 = 16, the ideal: silent.
// shmem-lint: block=64
__global__ void float4s(float4 *out, const float4 *in) {
  __shared__ float4 s[64];
  const unsigned tid = threadIdx.x;
  s[tid] = in[2 * tid];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 512 bytes, where 16 would do; successive lanes are 32 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 64 threads
  __syncthreads();
  out[tid] = s[tid ^ 1];
}

// ld_hist_merge: 256 sectors / 8 requests = 32, one bin of 256 partial
// histograms (cuda-samples' mergeHistogram256Kernel).
// shmem-lint: block=256
__global__ void ld_hist_merge(unsigned *out, const unsigned *in) {
  __shared__ unsigned s[256];
  const unsigned tid = threadIdx.x;
  s[tid] = in[tid * 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: global load from 'in' is uncoalesced: a warp's request touches 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 1024 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: the loaded value is stored to 's' here
  // CHECK-MESSAGES: :[[@LINE-6]]:17: note: analysed for a block of 256 threads
  __syncthreads();
  out[tid] = s[tid ^ 1];
}
