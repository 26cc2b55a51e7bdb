// RUN: %check_all_front_ends %s shmem-bank-conflict

// The 32x32 float tile of a transpose, block 32x8 from the launch below.
__global__ void transpose(float *out, const float *in, int c) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  // Column read: every lane reads a different row of the same column.
  out[0] = tile[threadIdx.x][c];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 32 words apart {{.*}}; pad the row of 'tile' to 33 elements [shmem-bank-conflict]
  // Row read: 32 consecutive words, one per bank.
  out[1] = tile[c][threadIdx.x];
  // Broadcast: every lane reads one word.
  out[2] = tile[3][7];
}

int main() { transpose<<<1, dim3(32, 8)>>>(nullptr, nullptr, 0); }
