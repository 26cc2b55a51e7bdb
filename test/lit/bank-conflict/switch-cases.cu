// RUN: %check_all_front_ends %s shmem-bank-conflict

// A switch whose condition is known in every thread runs each thread from
// the label its value selects to a break or the end of the body: the
// accesses in a case count the threads that run it, and what the cases
// assign is known per thread after the switch. (A condition not known per
// thread walks the body as straight-line code with every thread possibly
// active: race/unknown-branches.cu.)

// Even lanes run case 0 only: 16 lanes on bank 0, not 32.
// shmem-lint: block=32
__global__ void caseAccessesOwnThreads(float *out) {
  __shared__ float s[32 * 64];
  float v = 0;
  switch (threadIdx.x & 1) {
  case 0:
    v = s[threadIdx.x * 32];
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 16-way bank conflict: lanes 0, 2, ..., 30 read 16 distinct words of 's' in bank 0 (16 wavefronts instead of 1) [shmem-bank-conflict]
    break;
  case 1:
    v = s[threadIdx.x];
    break;
  }
  out[threadIdx.x] = v;
}

// The column each lane reads comes from its case: 0, 8, 16 or 24, so the
// 32 rows put 8 lanes on each of 4 banks.
// shmem-lint: block=32
__global__ void valuesFromCases(float *out) {
  __shared__ float t[32][32];
  int c = 0;
  switch (threadIdx.x & 3) {
  case 0:
    c = 0;
    break;
  case 1:
    c = 8;
    break;
  case 2:
    c = 16;
    break;
  default:
    c = 24;
    break;
  }
  out[threadIdx.x] = t[threadIdx.x][c];
// CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 8-way bank conflict: lanes 0, 4, ..., 28 read 8 distinct words of 't' in bank 0 (8 wavefronts instead of 1); pad the row of 't' to 33 elements [shmem-bank-conflict]
}

// Falling through adds 1 per case passed: lane 8q + r ends with c = q and
// reads word 32q + 4r + q, on bank 4r + q: conflict-free. A thread that
// stopped at the next label would leave c at 1 and put 24 lanes on 8
// banks.
// shmem-lint: block=32
__global__ void fallthroughCounts(float *out) {
  __shared__ float s[32 * 4];
  int c = 0;
  switch ((threadIdx.x / 8) % 4) {
  case 3:
    c += 1;
    [[fallthrough]];
  case 2:
    c += 1;
    [[fallthrough]];
  case 1:
    c += 1;
    [[fallthrough]];
  default:
    break;
  }
  out[threadIdx.x] = s[threadIdx.x * 4 + c];
}

// A continue in a case is the loop's: the even lanes skip the read.
// shmem-lint: block=32
__global__ void continueInCase(float *out) {
  __shared__ float s[32 * 64];
  float v = 0;
  for (int k = 0; k < 2; ++k) {
    switch (threadIdx.x & 1) {
    case 0:
      continue;
    default:
      break;
    }
    v += s[threadIdx.x * 32 + k];
// CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 16-way bank conflict: lanes 1, 3, ..., 31 read 16 distinct words of 's' in bank 0 (16 wavefronts instead of 1); nvcc merges this thread's 2 adjacent loads of 's' into one 64-bit load here
  }
  out[threadIdx.x] = v;
}

// A thread whose value no label names, with no default, skips the body;
// labels in a row share their statement. After the switch every lane runs
// again.
// shmem-lint: block=32
__global__ void unmatchedSkip(float *out) {
  __shared__ float s[32 * 64];
  float v = 0;
  switch (threadIdx.x % 4) {
  case 1:
  case 2:
    v = s[threadIdx.x * 32];
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 16-way bank conflict: lanes 1, 2, 5, ... (16 lanes) read 16 distinct words of 's' in bank 0 (16 wavefronts instead of 1)
    break;
  }
  out[threadIdx.x] = v + s[threadIdx.x * 32 + 1];
// CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 1 (32 wavefronts instead of 1)
}

// A GNU case range selects the lanes in it: lanes 8-15 on bank 0.
// shmem-lint: block=32
__global__ void caseRange(float *out) {
  __shared__ float s[32 * 64];
  float v = 0;
  switch (threadIdx.x) {
  case 8 ... 15:
    v = s[threadIdx.x * 32];
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 8-way bank conflict: lanes 8-15 read 8 distinct words of 's' in bank 0 (8 wavefronts instead of 1)
    break;
  default:
    break;
  }
  out[threadIdx.x] = v;
}

// A switch on a value the walk does not know per thread is walked case by
// case with every thread possibly active: a case after a `break` is walked
// too, and its conflict found (it used to be walked with no thread).
__global__ void caseAfterABreak(float *out, int mode) {
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
