// RUN: %check_all_front_ends %s shmem-bank-conflict

// A call through a pointer the program cannot change (a constexpr variable
// initialised from a constexpr traits table, as ggml's mmq picks its
// `load_tiles` and `vec_dot`) calls one known function: nvcc calls it
// directly, and the walk follows it like a direct call. A pointer known
// only at run time is not followed (race/unwalked-shared.cu says so).

typedef void (*load_t)(float *tile, const float *src);
typedef float (*dot_t)(const float *tile);

template <int Stride> __device__ void load_rows(float *tile, const float *src) {
  for (int r = 0; r < 32; ++r)
    tile[r * Stride + threadIdx.x] = src[r * 32 + threadIdx.x];
}

template <int Stride> __device__ float dot_column(const float *tile) {
  float sum = 0.0f;
  for (int r = 0; r < 32; ++r)
    sum += tile[threadIdx.x * Stride + r];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words of 'tile' in bank 0 (32 wavefronts instead of 4); {{.*}}successive lanes are 32 words apart [shmem-bank-conflict]
  return sum;
}

struct funcs {
  load_t load;
  dot_t dot;
  constexpr __host__ __device__ funcs(load_t l, dot_t d) : load(l), dot(d) {}
};

template <int Stride> constexpr __device__ funcs get_funcs() {
  return funcs(load_rows<Stride>, dot_column<Stride>);
}

// Positive: rows of 32 words read down a column, through pointers taken
// from the table (nvcc reads four words at a time: 8-way).
template <int Stride>
__global__ void __launch_bounds__(32) throughTable(const float *src, float *out) {
  __shared__ float tile[32 * 33];
  constexpr load_t load = get_funcs<Stride>().load;
  constexpr dot_t dot = get_funcs<Stride>().dot;
  load(tile, src);
  __syncthreads();
  out[threadIdx.x] = dot(tile);
}
template __global__ void throughTable<32>(const float *, float *);

// Negative: the same table with rows padded to 33 words: conflict-free.
template __global__ void throughTable<33>(const float *, float *);

// Positive: a member of a constexpr table read at the call.
__device__ float dot_wide(const float *tile) {
  float sum = 0.0f;
  for (int r = 0; r < 32; ++r)
    sum += tile[threadIdx.x * 64 + r];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words of 'tile' in bank 0 (32 wavefronts instead of 4); {{.*}}successive lanes are 64 words apart [shmem-bank-conflict]
  return sum;
}
constexpr funcs table64 = funcs(load_rows<64>, dot_wide);
__global__ void __launch_bounds__(32) memberOfTable(const float *src, float *out) {
  __shared__ float tile[32 * 64];
  table64.load(tile, src);
  __syncthreads();
  out[threadIdx.x] = table64.dot(tile);
}

// Negative: a pointer the kernel may reassign is not a constant; the walk
// does not guess which function it holds.
__global__ void __launch_bounds__(32) mutablePointer(const float *src, float *out, int k) {
  __shared__ float tile[32 * 32];
  dot_t dot = dot_column<32>;
  if (k)
    dot = dot_column<33>;
  load_rows<32>(tile, src);
  __syncthreads();
  out[threadIdx.x] = dot(tile);
}
// CHECK-MESSAGES: :[[@LINE-2]]:22: remark: accesses to shared 'tile' by a function pointer not analysed: the walk does not follow calls through function pointers{{( \[shmem-bank-conflict\])?}}
