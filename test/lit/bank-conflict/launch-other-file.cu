// RUN: %shmem-lint --checks=shmem-bank-conflict %s > %t.driver || true
// RUN: FileCheck --check-prefix=HEADER %s < %t.driver
// RUN: FileCheck --check-prefix=HERE %s < %t.driver
// RUN: %clang-tidy --load=%tidy_plugin --checks='-*,shmem-bank-conflict' --header-filter='.*' %s -- %cuda_flags > %t.tidy 2>/dev/null || true
// RUN: FileCheck --check-prefix=HEADER %s < %t.tidy
// RUN: FileCheck --check-prefix=HERE %s < %t.tidy

// The note that names the launch gives its file when the launch is not in
// the kernel's file: "launch at line 23" alone would be looked for in the
// header.
#include "Inputs/header-kernel.cuh"

// HEADER: header-kernel.cuh:4:12: warning: 2-way bank conflict
// HEADER: note: analysed for a block of 16x16 threads (launch at line 27 of {{.*}}launch-other-file.cu)

// Negative: a launch in the kernel's own file keeps the short form.
__global__ void here(float *out) {
  __shared__ float t[32][17];
  out[0] = t[threadIdx.y][threadIdx.x];
}
// HERE: launch-other-file.cu:[[@LINE-2]]:12: warning: 2-way bank conflict
// HERE: note: analysed for a block of 16x16 threads (launch at line 28){{$}}

int main() {
  inHeader<<<1, dim3(32, 8)>>>(nullptr);
  // The line the header's note names:
  inHeader<<<1, dim3(16, 16)>>>(nullptr);
  here<<<1, dim3(16, 16)>>>(nullptr);
}
