// RUN: %check_all_front_ends %s shmem-bank-conflict

// NOLINTBEGIN/NOLINTEND regions suppress the checks they name in every
// front end (clang-tidy reads them itself; the driver and the plugin ask
// lib/Analysis/NoLint), and nothing outside them.
__global__ void regions(float *out, int c) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  // NOLINTBEGIN(shmem-bank-conflict)
  out[0] = tile[threadIdx.x][c];
  out[1] = tile[threadIdx.x][c + 1];
  // NOLINTEND(shmem-bank-conflict)
  out[2] = tile[threadIdx.x][c + 2];
  // A region for another check leaves this one reported.
  // NOLINTBEGIN(shmem-race)
  out[3] = tile[threadIdx.x][c + 3];
  // NOLINTEND(shmem-race)
  // The plugin quotes the source from the padding fix-it down to the
  // access: the expectations come after both reported lines.
  // CHECK-MESSAGES: :[[@LINE-7]]:12: warning: 32-way bank conflict{{.*}} [shmem-bank-conflict]
  // CHECK-MESSAGES: :[[@LINE-5]]:12: warning: 32-way bank conflict{{.*}} [shmem-bank-conflict]
  // A glob, and no list at all.
  // NOLINTBEGIN(shmem-*)
  out[4] = tile[threadIdx.x][c + 4];
  // NOLINTEND(shmem-*)
  // NOLINTBEGIN
  out[5] = tile[threadIdx.x][c + 5];
  // NOLINTEND
}

int main(int argc, char **) { regions<<<1, dim3(32, 8)>>>(nullptr, argc); }
