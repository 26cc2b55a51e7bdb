// Eight updates of a thread's own element at an offset the kernel is given
// (so that the search cannot list each word's thread beforehand), unrolled
// 64 times over 1024 threads: no race, but the race search spends its
// probe budget before it has paired them all; with -DTRIPS=8 it does not.
#ifndef TRIPS
#define TRIPS 64
#endif
// shmem-lint: block=1024
__global__ void updates(float *out, unsigned base) {
  __shared__ float s[2048];
  unsigned t = threadIdx.x + base;
  s[t] = 0;
  for (int i = 0; i < TRIPS; ++i) {
    s[t] += 1;
    s[t] += 2;
    s[t] += 3;
    s[t] += 4;
    s[t] += 5;
    s[t] += 6;
    s[t] += 7;
    s[t] += 8;
  }
  out[t] = s[t];
}
