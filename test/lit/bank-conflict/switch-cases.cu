// RUN: %check_all_front_ends %s shmem-bank-conflict

// A switch on a value the walk does not know per thread is walked case by
// case with every thread possibly active: a case after a `break` is walked
// too, and its conflict found (it used to be walked with no thread).
__global__ void by_mode(float *out, int mode) {
  __shared__ float s[32 * 32];
  switch (mode) {
  case 0:
    s[threadIdx.x] = 0;
    break;
  case 1:
    s[threadIdx.x * 32] = 1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 32-way bank conflict{{.*}} [shmem-bank-conflict]
    break;
  default:
    s[threadIdx.x * 33] = 2;
    break;
  }
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
