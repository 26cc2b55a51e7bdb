// RUN: %check_all_front_ends %s shmem-bank-conflict

// Async copies as the H200 serves them (test/calibration/ldgsts-h200.tsv,
// bench/gpu/ldgsts): cp.async.ca like a store of its width, a 16-byte
// cp.async.cg (what __pipeline_memcpy_async of 16 bytes compiles to) one
// 128-byte row of shared memory per wavefront for each global 128-byte
// line, the line's pieces rotated by 32-byte steps or permuted by an XOR.
#include <cuda_pipeline_primitives.h>

// Rows of 9 float4 (144 bytes, padded by one): conflict-free for st.shared.v4
// and cp.async.ca, but each line of the cg copy after the first straddles
// two rows ("rows8+1+0" in the table: 10 wavefronts).
__global__ void __launch_bounds__(32) paddedCg(const float4 *in) {
  __shared__ float4 tile[4][9];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t / 8][t % 8], &in[t], 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 3-way bank conflict in a 16-byte cp.async.cg: lanes 24-31 copy one 128-byte global line into 2 rows of 'tile' (at bytes 384 and 512), 4 wavefronts for the line (10 wavefronts instead of 4); a 16-byte cp.async.cg moves a line into shared memory one 128-byte row per wavefront, its pieces rotated by a multiple of 32 bytes or permuted by an XOR: start each line on a 128-byte boundary (a row pitch that is a multiple of 128 bytes; an XOR swizzle rather than padding){{.*}} [shmem-bank-conflict]
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

__global__ void __launch_bounds__(32) paddedCa(const float4 *in) {
  __shared__ float4 tile[4][9];
  int t = threadIdx.x;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"
               :: "r"((unsigned)__cvta_generic_to_shared(&tile[t / 8][t % 8])),
                  "l"(&in[t]) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

__global__ void __launch_bounds__(32) rowAligned(const float4 *in) {
  __shared__ float4 tile[4][8];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t / 8][t % 8], &in[t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

// An XOR of the piece (CUTLASS's and ggml's swizzles) costs nothing.
__global__ void __launch_bounds__(32) swizzled(const float4 *in) {
  __shared__ float4 tile[4][8];
  int t = threadIdx.x;
  int r = t / 8, c = t % 8;
  __pipeline_memcpy_async(&tile[r][c ^ (r * 3 % 8)], &in[t], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

// A rotation by one piece (an odd number of them) takes two wavefronts a
// line ("rotate1": 8).
__global__ void __launch_bounds__(32) oddRotation(const float4 *in) {
  __shared__ float4 tile[4][8];
  int t = threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :: "r"((unsigned)__cvta_generic_to_shared(&tile[t / 8][(t + 1) % 8])),
                  "l"(&in[t]) : "memory");
  // CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: warning: 2-way bank conflict in a 16-byte cp.async.cg: lanes 0-7 copy one 128-byte global line into the row of 'tile' at byte 0 in an order no one rotation or XOR gives, 2 wavefronts for the line (8 wavefronts instead of 4); {{.*}}place the pieces by an XOR of their index (a swizzle) or a rotation by whole 32-byte sectors{{.*}} [shmem-bank-conflict]
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// The source decides the lines: lanes that read their pieces in another
// order, into one row in order, cost what the permutation costs
// ("gxor1": an XOR, 4).
__global__ void __launch_bounds__(32) gatheredXor(const float4 *in) {
  __shared__ float4 tile[4][8];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t / 8][t % 8], &in[t ^ 1], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

// 4-byte copies into a transposed tile: cp.async.ca, a store's conflict.
__global__ void __launch_bounds__(32) transposed(const float *in) {
  __shared__ float tile[32][32];
  int t = threadIdx.x;
  for (int i = 0; i < 32; ++i)
    __pipeline_memcpy_async(&tile[t][i], &in[i * 32 + t], 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank {{[0-9]+}} (32 wavefronts instead of 1){{.*}} [shmem-bank-conflict]
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

// cooperative_groups::memcpy_async copies 16-byte pieces in thread order:
// into a row-aligned buffer conflict-free, 16 bytes off a row ("contig+1":
// 12 wavefronts a warp).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

__global__ void __launch_bounds__(128) groupAligned(const float *in) {
  __shared__ __align__(16) float s[512 + 4];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, in, cuda::aligned_size_t<16>(sizeof(float) * 512));
  cg::wait(block);
}

__global__ void __launch_bounds__(128) groupOffByAPiece(const float *in) {
  __shared__ __align__(16) float s[512 + 4];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s + 4, in, cuda::aligned_size_t<16>(sizeof(float) * 512));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 3-way bank conflict in a 16-byte cp.async.cg: lanes 0-7 copy one 128-byte global line into 2 rows of 's' (at bytes 0 and 128), 3 wavefronts for the line (12 wavefronts instead of 4){{.*}} [shmem-bank-conflict]
  cg::wait(block);
}
