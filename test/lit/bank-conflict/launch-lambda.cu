// RUN: %check_all_front_ends %s shmem-bank-conflict
// The launch from a kernel needs -fgpu-rdc, which the command passes:
// RUN: %{shmem-lint-raw} --exit-zero --checks=shmem-bank-conflict %s -- -DDEVICE_LAUNCH 2>&1 | FileCheck --check-prefix=DEVICE %s

// A launch in a lambda (a test harness's `run([&] { k<<<g, 64>>>(...); })`)
// gives its shape like any other. Clang compiles such a lambda for the
// device too, and builds the launch's configuration as a device-side launch
// (cudaLaunchDevice), whose arguments come in another order.

__global__ void inLambda(float *out) {
  __shared__ float s[64][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 32-way bank conflict
  // CHECK-MESSAGES: :[[@LINE-4]]:17: note: analysed for a block of 64 threads (launch at line 30){{$}}
}

#ifdef DEVICE_LAUNCH
// Launched from a kernel (dynamic parallelism): the same configuration.
__global__ void fromDevice(float *out) {
  __shared__ float s[128][32];
  out[threadIdx.x] = s[threadIdx.x][0];
  // DEVICE: launch-lambda.cu:[[@LINE-1]]:22: warning: 32-way bank conflict
  // DEVICE: launch-lambda.cu:[[@LINE-4]]:17: note: analysed for a block of 128 threads (launch at line [[@LINE+2]]){{$}}
}
__global__ void parent(float *out) { fromDevice<<<1, 128>>>(out); }
#endif

template <class F> void run(F f) { f(); }
int main() {
  run([&] { inLambda<<<1, 64>>>(nullptr); });
#ifdef DEVICE_LAUNCH
  parent<<<1, 1>>>(nullptr);
#endif
}
