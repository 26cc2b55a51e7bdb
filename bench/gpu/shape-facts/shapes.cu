// Patterns from the issue-22 projects, written anew, that shmem-lint reports
// with the shapes it now infers, run on the GPU to see whether they are
// real (bench/gpu/shape-facts/run.sh):
//
//   warRace / warFixed     llm.c softmax_forward_kernel4's reuse of
//                          shared[0]: every thread reads the block's max
//                          after one barrier, thread 0 then writes the sum
//                          there with no barrier between (a WAR across
//                          warps); fixed: a barrier before the write.
//   exitRace / exitFixed   softmax_forward_online_kernel2's early exit for
//                          tid >= C, which writes maxvals[warpId] that lane
//                          0 of a partly exited warp writes again (C = 1);
//                          fixed: C a multiple of 32 (C = 32).
//   linearOob / linearFits SGEMM_CUDA kernel 7's linearised Bs, read as
//                          Bs[(dot * 8 + i) * 16 + col], sized BK * BN:
//                          with BN = 64 rows 32-63 are past it; BN = 128
//                          fits.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void warRace(const float *in, float *out) {
  __shared__ float s[8];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  float v = in[blockIdx.x * 256 + tid];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o));
  if (lane == 0)
    s[warp] = m;
  __syncthreads();
  if (tid == 0) {
    float x = s[0];
    for (int i = 1; i < 8; ++i)
      x = fmaxf(x, s[i]);
    s[0] = x;
  }
  __syncthreads();
  float offset = s[0];
  float e = __expf(v - offset);
  for (int o = 16; o > 0; o >>= 1)
    e += __shfl_down_sync(0xffffffff, e, o);
  if (lane == 0)
    s[warp] = e; // thread 0 overwrites s[0] while other warps may read it
  __syncthreads();
  out[blockIdx.x * 256 + tid] = offset;
}

__global__ void warFixed(const float *in, float *out) {
  __shared__ float s[8];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  float v = in[blockIdx.x * 256 + tid];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o));
  if (lane == 0)
    s[warp] = m;
  __syncthreads();
  if (tid == 0) {
    float x = s[0];
    for (int i = 1; i < 8; ++i)
      x = fmaxf(x, s[i]);
    s[0] = x;
  }
  __syncthreads();
  float offset = s[0];
  float e = __expf(v - offset);
  for (int o = 16; o > 0; o >>= 1)
    e += __shfl_down_sync(0xffffffff, e, o);
  __syncthreads();
  if (lane == 0)
    s[warp] = e;
  __syncthreads();
  out[blockIdx.x * 256 + tid] = offset;
}

template <int C> __global__ void exitKernel(const float *in, float *out) {
  __shared__ float maxvals[8];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  if (tid >= C) {
    maxvals[warp] = -1e30f;
    return;
  }
  float m = in[blockIdx.x * 256 + tid];
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_down_sync(__activemask(), m, o));
  if (lane == 0)
    maxvals[warp] = m;
  __syncwarp(__activemask());
  out[blockIdx.x * 256 + tid] = maxvals[warp];
}

template <int BN> __global__ void linear(float *out) {
  constexpr int BK = 8;
  __shared__ float Bs[BK * BN];
  int col = threadIdx.x % 16;
  for (int i = threadIdx.x; i < BK * BN; i += blockDim.x)
    Bs[i] = i;
  __syncthreads();
  float acc = 0;
  for (int dot = 0; dot < BK; ++dot)
    for (int i = 0; i < 8; ++i)
      acc += Bs[(dot * 8 + i) * 16 + col];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  int blocks = argc > 2 ? atoi(argv[2]) : 64;
  float *in, *out;
  cudaMalloc(&in, blocks * 256 * sizeof(float));
  cudaMalloc(&out, blocks * 256 * sizeof(float));
  cudaMemset(in, 0, blocks * 256 * sizeof(float));
  auto run = [&](const char *name, auto launch) {
    if (strcmp(which, "all") && strcmp(which, name))
      return;
    launch();
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: %s\n", name, cudaGetErrorString(e));
  };
  run("warRace", [&] { warRace<<<blocks, 256>>>(in, out); });
  run("warFixed", [&] { warFixed<<<blocks, 256>>>(in, out); });
  run("exitRace", [&] { exitKernel<1><<<blocks, 256>>>(in, out); });
  run("exitFixed", [&] { exitKernel<32><<<blocks, 256>>>(in, out); });
  run("linearOob", [&] { linear<64><<<blocks, 256>>>(out); });
  run("linearFits", [&] { linear<128><<<blocks, 256>>>(out); });
  return 0;
}
