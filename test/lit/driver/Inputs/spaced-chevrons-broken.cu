// A chevron split over two lines is not joined (the rewrite keeps every
// line where it was), and an error of the code's own is still said.
__global__ void k(float *a) {
  __shared__ float s[32];
  s[threadIdx.x] = a[0];
  a[1] = s[0];
}

void run(float *a) {
  k << < 1, 32 >> > (a);
  k <<
    < 1, 32 >>> (a);
}
