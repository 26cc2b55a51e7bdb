// cuda::pipeline (thread scope), as the CUDA programming guide writes it:
// each producer_commit() is a stage, consumer_wait() completes the oldest,
// pipeline_consumer_wait_prior<N>() all but the newest N.
#include <cuda/pipeline>
__global__ void __launch_bounds__(256) k(float *out, const float *in) {
  __shared__ float s[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  float early = s[threadIdx.x];
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x] + early;
  pipe.consumer_release();
}
// Two stages: consumer_wait() completes the older only.
__global__ void __launch_bounds__(256) k2(float *out, const float *in) {
  __shared__ float s[2][256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int st = 0; st < 2; ++st) {
    pipe.producer_acquire();
    cuda::memcpy_async(&s[st][threadIdx.x], &in[st * 256 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
  }
  pipe.consumer_wait();
  float a = s[0][threadIdx.x];
  float b = s[1][threadIdx.x];
  pipe.consumer_release();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[threadIdx.x] = a + b + s[1][threadIdx.x];
}
