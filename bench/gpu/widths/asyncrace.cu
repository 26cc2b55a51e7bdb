// Reads of cp.async destinations before and after their wait, on the GPU
// machine (bench/gpu/widths/run.sh): how many values come out wrong, and
// what compute-sanitizer's racecheck says. Each kernel fills s[] with -1,
// waits at a barrier, then copies in[] into s[] with __pipeline_memcpy_async
// (LDGSTS) and reads it back; out[] should equal in[] (shifted for the
// neighbour reads).
#include <cuda_pipeline_primitives.h>
#include <cuda/pipeline>
#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int N = 256;

#define PROLOGUE                                                               \
  __shared__ float s[N];                                                       \
  int t = threadIdx.x;                                                         \
  const float *g = in + blockIdx.x * N;                                        \
  s[t] = -1.0f;                                                                \
  __syncthreads();

// Own element, read before the wait: the copy may still be in flight.
__global__ void ownNoWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  float v = s[t];
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

// Own element after the wait: correct without a barrier.
__global__ void ownWaited(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = s[t];
}

// A neighbour's element after a barrier, but the wait comes after the read.
__global__ void barrierBeforeWait(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __syncthreads();
  float v = s[(t + 1) % N];
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

// Wait, then barrier, then the neighbour's element: correct.
__global__ void waitThenBarrier(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}

// Wait without a barrier, then the neighbour's element: the neighbour's
// copy is its own thread's to wait for.
__global__ void waitNoBarrier(float *out, const float *in) {
  PROLOGUE
  __pipeline_memcpy_async(&s[t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = s[(t + 1) % N];
}

// Two stages: wait_prior(1) leaves the second group in flight, so reading
// the second buffer after it is early; the first is complete.
__global__ void twoStagesEarly(float *out, const float *in) {
  __shared__ float s2[2][N];
  int t = threadIdx.x;
  const float *g = in + blockIdx.x * N;
  s2[0][t] = s2[1][t] = -1.0f;
  __syncthreads();
  __pipeline_memcpy_async(&s2[0][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_memcpy_async(&s2[1][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  float v = s2[1][t];
  __pipeline_wait_prior(0);
  out[blockIdx.x * N + t] = v;
}

__global__ void twoStagesWaited(float *out, const float *in) {
  __shared__ float s2[2][N];
  int t = threadIdx.x;
  const float *g = in + blockIdx.x * N;
  s2[0][t] = s2[1][t] = -1.0f;
  __syncthreads();
  __pipeline_memcpy_async(&s2[0][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_memcpy_async(&s2[1][t], &g[t], 4);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  out[blockIdx.x * N + t] = s2[0][t];
}

// cuda::pipeline (thread scope): reading before consumer_wait() is early;
// after it, the thread's own element is complete.
__global__ void pipelineEarly(float *out, const float *in) {
  PROLOGUE
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[t], &g[t], sizeof(float), pipe);
  pipe.producer_commit();
  float v = s[t];
  pipe.consumer_wait();
  pipe.consumer_release();
  out[blockIdx.x * N + t] = v;
}

__global__ void pipelineWaited(float *out, const float *in) {
  PROLOGUE
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[t], &g[t], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[blockIdx.x * N + t] = s[t];
  pipe.consumer_release();
}

// Two stages: consumer_wait() completes the older one only.
__global__ void pipelineSecondStageEarly(float *out, const float *in) {
  __shared__ float s2[2][N];
  int t = threadIdx.x;
  const float *g = in + blockIdx.x * N;
  s2[0][t] = s2[1][t] = -1.0f;
  __syncthreads();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int st = 0; st < 2; ++st) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s2[st][t], &g[t], sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  float v = s2[1][t];
  pipe.consumer_release();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[blockIdx.x * N + t] = v;
}

typedef void (*Kernel)(float *, const float *);
struct Case { const char *Name; Kernel K; int Shift; };

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 4096;
  int launches = argc > 2 ? atoi(argv[2]) : 50;
  size_t n = size_t(blocks) * N;
  float *in, *out, *h = new float[n];
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, n * 4);
  for (size_t i = 0; i < n; ++i) h[i] = float(i % 1000003) + 1.0f;
  cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice);
  Case Cases[] = {{"ownNoWait", ownNoWait, 0},
                  {"ownWaited", ownWaited, 0},
                  {"barrierBeforeWait", barrierBeforeWait, 1},
                  {"waitThenBarrier", waitThenBarrier, 1},
                  {"waitNoBarrier", waitNoBarrier, 1},
                  {"twoStagesEarly", twoStagesEarly, 0},
                  {"twoStagesWaited", twoStagesWaited, 0},
                  {"pipelineEarly", pipelineEarly, 0},
                  {"pipelineWaited", pipelineWaited, 0},
                  {"pipelineSecondStageEarly", pipelineSecondStageEarly, 0}};
  const char *only = argc > 3 ? argv[3] : nullptr;
  float *o = new float[n];
  for (const Case &C : Cases) {
    if (only && strcmp(only, C.Name))
      continue;
    long wrong = 0;
    for (int l = 0; l < launches; ++l) {
      C.K<<<blocks, N>>>(out, in);
      cudaMemcpy(o, out, n * 4, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < n; ++i) {
        size_t b = i / N, t = i % N, src = b * N + (t + C.Shift) % N;
        wrong += o[i] != h[src];
      }
    }
    printf("%s\twrong %ld of %ld\t%s\n", C.Name, wrong, long(n) * launches,
           cudaGetErrorString(cudaGetLastError()));
  }
  return 0;
}
