// RUN: %check_all_front_ends %s shmem-bank-conflict
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-UNCOND --tidy-config='{CheckOptions: {shmem-bank-conflict.ReportConditional: false}}' --plugin-args=report-conditional=0 --driver-args=--report-conditional=0 
// RUN: %check_all_front_ends %s shmem-bank-conflict --prefix=CHECK-MIN8 --tidy-config='{CheckOptions: {shmem-bank-conflict.MinDegree: 8}}' --plugin-args=min-degree=8 --driver-args=--min-degree=8

// What the bank check understands: unknown strides, masks, 2-D blocks,
// geometry sources, loops, helpers, vector types, dynamic shared memory,
// structs, templates; and what it stays silent on.
// Unknown row stride: the degree depends on ld.
__global__ void strideParam(float *out, int ld) {
  __shared__ float buf[32 * 64];
  out[threadIdx.x] = buf[threadIdx.x * ld];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict when 'ld' is a multiple of 32; conflict-free when 'ld' is odd: lanes 0-31 read 32 distinct words of 'buf' in bank 0 (32 wavefronts instead of 1) [shmem-bank-conflict]
  // CHECK-MIN8: :[[@LINE-2]]:22: warning: 32-way bank conflict when 'ld'
}
// Only lanes 0-15 are active.
__global__ void masked(float *out) {
  __shared__ float tile[32][32];
  unsigned lane = threadIdx.x % 32;
  if (lane < 16)
    out[lane] = tile[lane][0];
// CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 16-way bank conflict: lanes 0-15 read 16 distinct words of 'tile' in bank 0 (16 wavefronts instead of 1){{.*}}; pad the row of 'tile' to 33 elements [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:17: warning: 16-way
// CHECK-MIN8: :[[@LINE-3]]:17: warning: 16-way
}
// 16x16 block: a warp spans two rows of threads.
__global__ void twoRows(float *out) {
  __shared__ float tile[16][16];
  out[0] = tile[threadIdx.x][threadIdx.y];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0, 2, ..., 14 read 8 distinct words of 'tile' in bank 0 (8 wavefronts instead of 1); pad the row of 'tile' to 18 elements [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:12: warning: 8-way
// CHECK-MIN8: :[[@LINE-3]]:12: warning: 8-way
}
// shmem-lint: block=64
__global__ void annotated(float *out) {
  __shared__ float tile[64][2];
  out[0] = tile[threadIdx.x][0];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 16 read 2 distinct words of 'tile' in bank 0 (2 wavefronts instead of 1); successive lanes are 2 words apart, so the lanes cycle through only 16 banks; pad the row of 'tile' to 3 elements [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:12: warning: 2-way
}
__global__ void __launch_bounds__(128) bounded(float *out) {
  __shared__ double d[128 * 2];
  out[0] = d[threadIdx.x * 2];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 2-way bank conflict: lanes 0, 8 read 2 distinct words of 'd' in bank 0 (4 wavefronts instead of 2); successive lanes are 4 words apart; pad the rows of 'd' to 3 elements [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:12: warning: 2-way
}
// Loop counter is uniform: a row read per iteration is conflict-free, a column one is not.
// nvcc unrolls the first loop and merges each thread's 4 adjacent loads
// into one LDS.128 (measured: bench/gpu/widths/h200-loops.txt, row32):
// 8-way, 32 wavefronts against 4, rather than 32-way.
__global__ void loops(float *out) {
  __shared__ float t[32][32];
  float acc = 0;
  for (int k = 0; k < 32; ++k)
    acc += t[threadIdx.x][k];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 8-way bank conflict: lanes 0-7 read 8 distinct words of 't' in bank 0 (32 wavefronts instead of 4); nvcc merges this thread's 4 adjacent loads of 't' into one 128-bit load here{{.*}}pad the row of 't' to 33 elements [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:12: warning: 8-way
// CHECK-MIN8: :[[@LINE-3]]:12: warning: 8-way
  for (int k = 0; k < 32; ++k)
    acc += t[k][threadIdx.x];
  out[0] = acc;
}
__device__ float readColumn(const float *row, int stride) { return row[threadIdx.x * stride]; }
// CHECK-MESSAGES: :[[@LINE-1]]:68: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0 (32 wavefronts instead of 1){{.*}} [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:68: warning: 32-way
// CHECK-MIN8: :[[@LINE-3]]:68: warning: 32-way
__global__ void helper(float *out) {
  __shared__ float t[32][32];
  float *p = &t[0][0];
  out[0] = readColumn(p, 32);
  out[1] = readColumn(p, 1);
}
__global__ void vectors(float *out) {
  __shared__ float s[32 * 4 * 2];
  float4 v = reinterpret_cast<float4 *>(s)[threadIdx.x];
  float4 w = reinterpret_cast<float4 *>(s)[threadIdx.x * 2];
// CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 2-way bank conflict: lanes 0, 4 read 2 distinct words of 's' in bank 0 (8 wavefronts instead of 4); successive lanes are 8 words apart [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:14: warning: 2-way
  out[0] = v.x + w.x;
}
extern __shared__ float dyn[];
__global__ void dynamic(float *out) {
  float *a = dyn;
  float *b = dyn + 1024;
  out[0] = a[threadIdx.x] + b[threadIdx.x * 64];
// CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'dyn' in bank 0 (32 wavefronts instead of 1); successive lanes are 64 words apart{{.*}} [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:29: warning: 32-way
// CHECK-MIN8: :[[@LINE-3]]:29: warning: 32-way
}
struct Particle { float x, y, z, w; };
__global__ void aos(float *out) {
  __shared__ Particle ps[32];
  out[0] = ps[threadIdx.x].x;
// CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 4-way bank conflict: lanes 0, 8, 16, 24 read 4 distinct words of 'ps' in bank 0 (4 wavefronts instead of 1); successive lanes are 4 words apart, so the lanes cycle through only 8 banks [shmem-bank-conflict]
// CHECK-UNCOND: :[[@LINE-2]]:28: warning: 4-way
}
template <int LD> __global__ void templ(float *out) {
  __shared__ float t[32 * LD];
  out[0] = t[threadIdx.x * LD];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0 (32 wavefronts instead of 1){{.*}} [shmem-bank-conflict]
// The finding names the instantiation: every one shares this body.
// CHECK-MESSAGES: :[[@LINE-5]]:35: note: in instantiation 'templ<32>'
// CHECK-UNCOND: :[[@LINE-4]]:12: warning: 32-way
// CHECK-MIN8: :[[@LINE-5]]:12: warning: 32-way
}
// An explicit specialization has a body of its own, which its location
// names: no instantiation note.
template <int LD> __global__ void spec(float *out);
template <> __global__ void spec<32>(float *out) {
  __shared__ float t[32 * 32];
  out[0] = t[threadIdx.x * 32];
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 't' in bank 0 {{.*}} [shmem-bank-conflict]
// CHECK-MESSAGES-NOT: note: in instantiation 'spec
// CHECK-MESSAGES: :[[@LINE-5]]:29: note: analysed for a block of 32 threads
// CHECK-UNCOND: :[[@LINE-4]]:12: warning: 32-way
// CHECK-MIN8: :[[@LINE-5]]:12: warning: 32-way
}
__global__ void bytes(char *out) {
  __shared__ char c[128];
  out[0] = c[threadIdx.x];
}
__global__ void swizzled(float *out, int c) {
  __shared__ float t[32][32];
  out[0] = t[threadIdx.x][(c ^ threadIdx.x) % 32];
}
__global__ void dataDependent(float *out, const int *idx) {
  __shared__ float t[1024];
  out[0] = t[idx[threadIdx.x]];
}
int main(int argc, char **) { // run-time arguments: parameters stay unknown
  strideParam<<<1, 32>>>(nullptr, argc);
  masked<<<1, 32>>>(nullptr);
  twoRows<<<1, dim3(16, 16)>>>(nullptr);
  loops<<<1, 32>>>(nullptr);
  helper<<<1, 32>>>(nullptr);
  vectors<<<1, 32>>>(nullptr);
  dynamic<<<1, 32, 8192>>>(nullptr);
  aos<<<1, 32>>>(nullptr);
  templ<32><<<1, 32>>>(nullptr);
  templ<33><<<1, 32>>>(nullptr);
  spec<32><<<1, 32>>>(nullptr);
  bytes<<<1, 32>>>(nullptr);
  swizzled<<<1, 32>>>(nullptr, argc);
  dataDependent<<<1, 32>>>(nullptr, nullptr);
}
