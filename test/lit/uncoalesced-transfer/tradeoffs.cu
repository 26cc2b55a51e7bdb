// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-BANK

// A tile between a global load and a global store: fixing one side must
// not break the other. The bank check's advice looks at the whole path
// (global load -> shared store -> shared load -> global store).

#define TILE 32

// Row-wise global reads, transposed tile store: the store conflicts. The
// fix is in the tile's layout (padding); handing the lanes the tile's rows
// instead would make the load of 'in' read a column.
__global__ void transposedStore(float *out, const float *in, int pitch) {
  __shared__ float tile[TILE][TILE];
  int c = blockIdx.x * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.x][threadIdx.y + j] = in[(blockIdx.y * TILE + threadIdx.y + j) * pitch + c];
  // CHECK-BANK: :[[@LINE-1]]:5: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank 0 (32 wavefronts instead of 1); successive lanes are 32 words apart and 32 ≡ 0 (mod 32), so every lane maps to the same bank; pad the row of 'tile' to 33 elements [shmem-bank-conflict]
  // CHECK-BANK: :[[@LINE-5]]:20: note: padding 'tile' to [32][33] makes every access to it conflict-free or no worse
  // CHECK-BANK: :[[@LINE-3]]:42: note: 'in' is read coalesced here (4 sectors per request); giving consecutive lanes consecutive elements of 'tile' instead would make this access touch 32 sectors: change the tile's layout, not which lanes move which elements
  __syncthreads();
  out[(blockIdx.x * TILE + threadIdx.y) * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

// Column-wise global reads into a transposed tile store: both sides are
// bad, and transposing through the tile fixes both at once (consecutive
// lanes read a row of 'in' and store a row of 'tile').
__global__ void columnReadTransposedStore(float *out, const float *in, int pitch) {
  __shared__ float tile[TILE][TILE];
  int r = blockIdx.x * TILE + threadIdx.x;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.x][threadIdx.y + j] = in[r * pitch + threadIdx.y + j];
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: global load from 'in' is uncoalesced when 'pitch' ≥ 2: a warp's request touches up to 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 'pitch' elements apart; let consecutive lanes take consecutive elements of 'in' and transpose through 'tile' [shmem-uncoalesced-transfer]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: the loaded value is stored to 'tile' here; with consecutive lanes on consecutive elements of 'in' a warp's request would touch 4 sectors (not 32), and 'tile' would do the transposition; the store to 'tile' stays conflict-free
  // CHECK-BANK: :[[@LINE-3]]:5: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'tile' in bank 0 {{.*}}; pad the row of 'tile' to 33 elements; the load from 'in' is uncoalesced too: transpose through 'tile' instead [shmem-bank-conflict]
  // CHECK-BANK: :[[@LINE-4]]:42: note: 'in' is read uncoalesced here when 'pitch' ≥ 2; with consecutive lanes on consecutive elements of 'in' a warp's request would touch 4 sectors (not 32), and 'tile' would do the transposition; the store to 'tile' stays conflict-free
  __syncthreads();
  out[(blockIdx.x * TILE + threadIdx.y) * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

// The textbook transpose: coalesced on both global sides, the column read
// of the tile conflicts. Padding fixes it and keeps both sides coalesced;
// swapping the tile's indices instead would write 'out' down a column.
__global__ void transposeNaive(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-BANK: :[[@LINE-1]]:33: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 0 {{.*}}; pad the row of 'tile' to 33 elements [shmem-bank-conflict]
  // CHECK-BANK: :[[@LINE-11]]:20: note: padding 'tile' to [32][33] makes every access to it conflict-free or no worse
  // CHECK-BANK: :[[@LINE-3]]:5: note: 'out' is written coalesced here (4 sectors per request); giving consecutive lanes consecutive elements of 'tile' instead would make this access touch 32 sectors: change the tile's layout, not which lanes move which elements
}

// The fix applied: silent on both checks.
__global__ void transposePadded(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 16x16 tiles (two rows of 16 floats per warp, 64 bytes each): coalesced,
// whatever the pitch, as the rows start on sector boundaries.
__global__ void matmulTiles(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

int main(int argc, char **) { // run-time arguments: parameters stay unknown
  transposedStore<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc);
  columnReadTransposedStore<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc);
  transposeNaive<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc, argc);
  transposePadded<<<dim3(8, 8), dim3(32, 8)>>>(nullptr, nullptr, argc, argc);
  matmulTiles<<<dim3(8, 8), dim3(16, 16)>>>(nullptr, nullptr, nullptr, argc);
}
