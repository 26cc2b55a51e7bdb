// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer

// Global loads that feed a shared tile and global stores that drain one,
// warp by warp: 32-byte sectors touched against the fewest the bytes need.

// Every other float: 8 sectors for 128 bytes.
__global__ void strided(float *out, const float *in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[2 * threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: global load from 'in' is uncoalesced: a warp's request touches 8 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 8 bytes apart [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: the loaded value is stored to 's' here
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

// Row-wise loads into a padded tile: one row of 32 floats per warp, 4
// sectors; the padding does not change the global side.
__global__ void paddedTile(float *out, const float *in, int width) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A column of a row-major matrix whose row pitch is a kernel parameter:
// successive lanes are 'pitch' floats apart, which stays within 4 sectors
// only when 'pitch' is 0 or 1. Reading the rows instead and transposing
// through the tile fixes it; the note says what that costs the tile.
__global__ void columnRead(float *out, const float *in, int pitch) {
  __shared__ float tile[32][32];
  int r = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[r * pitch + blockIdx.y * 32 + threadIdx.y + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: global load from 'in' is uncoalesced when 'pitch' ≥ 2: a warp's request touches up to 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 'pitch' elements apart; let consecutive lanes take consecutive elements of 'in' and transpose through 'tile' [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the loaded value is stored to 'tile' here; with consecutive lanes on consecutive elements of 'in' a warp's request would touch 4 sectors (not 32), and 'tile' would do the transposition; the store to 'tile' would then be a 32-way bank conflict, which padding 'tile' to [32][33] removes
  __syncthreads();
  out[(blockIdx.y * 32 + threadIdx.y) * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

// The drain side: a shared value stored to global memory down a column.
__global__ void columnWrite(float *out, const float *in, int pitch) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * pitch + threadIdx.y] = tile[threadIdx.y][threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: global store to 'out' is uncoalesced when 'pitch' ≥ 2: a warp's request touches up to 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 'pitch' elements apart; let consecutive lanes take consecutive elements of 'out' and transpose through 'tile' [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: the stored value is loaded from 'tile' here; with consecutive lanes on consecutive elements of 'out' a warp's request would touch 4 sectors (not 32), and 'tile' would do the transposition; the load from 'tile' stays conflict-free
}

// Offsets the same in every lane do not matter, lane-dependent ones do.
__global__ void uniformOffsets(float *out, const float *in, int base, int n) {
  __shared__ float s[4][256];
  // One float off a sector boundary: 5 sectors for 4, not reported.
  s[0][threadIdx.x] = in[threadIdx.x + 1];
  // An unknown offset the same in every lane: a whole-sector shift.
  s[1][threadIdx.x] = in[base + threadIdx.x];
  // Every lane reads one float: a broadcast, 1 sector.
  s[2][threadIdx.x] = in[n];
  // 16-byte lanes back to back: 16 sectors for 512 bytes.
  reinterpret_cast<float4 *>(s[3])[threadIdx.x % 64] =
      reinterpret_cast<const float4 *>(in)[threadIdx.x % 64];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x % 4][threadIdx.x];
}

// A request thinned out by a branch: odd lanes store from the tile, even
// lanes store a constant; each request touches 4 sectors for 64 bytes, but
// the pattern over the whole warp is coalesced. Not reported.
__global__ void alternating(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x % 2 == 0)
    out[threadIdx.x] = 0;
  else
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

// Global traffic that does not touch shared memory is not this check's.
__global__ void noTile(float *out, const float *in) {
  out[2 * threadIdx.x] = in[4 * threadIdx.x];
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  strided<<<1, 256>>>(nullptr, nullptr);
  paddedTile<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc);
  columnRead<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc);
  columnWrite<<<1, dim3(32, 32)>>>(nullptr, nullptr, argc);
  uniformOffsets<<<1, 256>>>(nullptr, nullptr, argc, argc);
  noTile<<<1, 256>>>(nullptr, nullptr);
  alternating<<<1, 256>>>(nullptr);
}
