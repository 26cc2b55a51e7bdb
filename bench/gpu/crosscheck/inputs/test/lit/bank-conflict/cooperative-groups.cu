// RUN: %check_all_front_ends %s shmem-bank-conflict
// With the toolkit's own cooperative_groups.h, where thread_rank() and
// sync() are static members reached through the group object:
// RUN: %if cuda-toolkit %{ %exit_status %{shmem-lint-raw} --cuda-path=%cuda_toolkit --checks=shmem-bank-conflict %s -- -isystem %cuda_toolkit/include/cccl | FileCheck --check-prefix=CHECK-MESSAGES %s %}

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void ranks(float *out) {
  __shared__ float s[32 * 33];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  out[0] = s[cta.thread_rank() * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's'
  out[1] = s[tile.thread_rank() * 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's'
  out[2] = s[tile.thread_rank() * 33];
  cta.sync();
  out[3] = s[cta.thread_rank()];
}

int main() { ranks<<<1, 64>>>(nullptr); }
