// Eight updates of a thread's own element, unrolled 64 times over 1024
// threads: no race, but every pair of the 512 instances of each statement
// meets in one barrier interval, and the race search spends its probe
// budget before it has paired them all. With -DTRIPS=8 it pairs them all.
#ifndef TRIPS
#define TRIPS 64
#endif
// shmem-lint: block=1024
__global__ void updates(float *out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
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
