// ldmatrix/stmatrix wavefront calibration: one warp per kernel, one
// instruction per thread. Lane l gives the row address
//   row = l % 16 (x2, x4) or l % 8 (x1), chunk = l / 16 (x4) else 0,
//   chunk ^= row % 8 when Swz, address = row * Stride + chunk * 16.
// Kernel names encode <Op, X, Stride, Swz>: Op 0 ldmatrix, 1 stmatrix.
#include <cstdio>
#include <cstdint>

template <int Op, int X, int Stride, int Swz>
__global__ void km(unsigned *out) {
  __shared__ __align__(128) unsigned short s[16 * 272 / 2 + 64];
  unsigned l = threadIdx.x;
  unsigned row = X == 1 ? l % 8 : l % 16;
  unsigned chunk = X == 4 ? l / 16 : 0;
  if (Swz)
    chunk ^= row % 8;
  unsigned a = (unsigned)__cvta_generic_to_shared(s) + row * Stride + chunk * 16;
  unsigned r0 = l, r1 = l, r2 = l, r3 = l;
  if (Op == 0) {
    if (X == 1)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
    if (X == 2)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
    if (X == 4)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[l] = r0 + r1 + r2 + r3;
  } else {
    if (X == 1)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(a), "r"(r0) : "memory");
    if (X == 2)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(a), "r"(r0), "r"(r1) : "memory");
    if (X == 4)
      asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                   :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
    __syncwarp();
    out[l] = s[l];
  }
}

typedef void (*K)(unsigned *);
#define S(OP, X, SWZ)                                                          \
  km<OP, X, 16, SWZ>, km<OP, X, 32, SWZ>, km<OP, X, 48, SWZ>,                  \
      km<OP, X, 64, SWZ>, km<OP, X, 80, SWZ>, km<OP, X, 96, SWZ>,              \
      km<OP, X, 112, SWZ>, km<OP, X, 128, SWZ>, km<OP, X, 144, SWZ>,           \
      km<OP, X, 160, SWZ>, km<OP, X, 176, SWZ>, km<OP, X, 192, SWZ>,           \
      km<OP, X, 208, SWZ>, km<OP, X, 224, SWZ>, km<OP, X, 240, SWZ>,           \
      km<OP, X, 256, SWZ>
static K Kernels[] = {S(0, 1, 0), S(0, 2, 0), S(0, 4, 0), S(0, 1, 1),
                      S(0, 2, 1), S(0, 4, 1), S(1, 1, 0), S(1, 4, 0),
                      S(1, 4, 1)};

int main() {
  unsigned *out;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  for (K k : Kernels)
    k<<<1, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
