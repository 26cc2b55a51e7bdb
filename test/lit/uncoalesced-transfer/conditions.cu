// RUN: %check_all_front_ends %s shmem-uncoalesced-transfer

// Unknowns with a lane-dependent coefficient are enumerated; the message
// states for which values the request is uncoalesced.

// A column of a matrix of unknown pitch.
__global__ void pitched(float *out, const float *in, int pitch) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x * pitch];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: global load from 'in' is uncoalesced when 'pitch' ≥ 2: a warp's request touches up to 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 'pitch' elements apart [shmem-uncoalesced-transfer]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Every pitch but 0 is strided when one float is added to it.
__global__ void pitchPlusOne(float *out, const float *in, int pitch) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x * (pitch + 1)];
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: global load from 'in' is uncoalesced when 'pitch' ≥ 1: a warp's request touches up to 32 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 'pitch' + 1 elements apart [shmem-uncoalesced-transfer]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Two unknowns: sampled.
__global__ void twoPitches(float *out, const float *in, int a, int b) {
  __shared__ float s[16][16];
  s[threadIdx.y][threadIdx.x] = in[threadIdx.x * a + threadIdx.y * b];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: global load from 'in' is uncoalesced for some values of 'a' and 'b' (e.g. {{.*}}): a warp's request touches
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

// A known loop: the iteration values are enumerated.
__global__ void knownLoop(float *out, const float *in) {
  __shared__ float s[4][256];
  for (int k = 1; k < 5; ++k)
    s[k - 1][threadIdx.x] = in[threadIdx.x * k];
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: global load from 'in' is uncoalesced: a warp's request touches 16 sectors of 32 bytes for 128 bytes, where 4 would do; successive lanes are 16 bytes apart [shmem-uncoalesced-transfer]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 4][threadIdx.x];
}

// A finding can be suppressed.
__global__ void suppressed(float *out, const float *in) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x * 32]; // NOLINT(shmem-uncoalesced-transfer)
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

void launch(float *out, const float *in, int n) {
  pitched<<<1, 256>>>(out, in, n);
  pitchPlusOne<<<1, 256>>>(out, in, n);
  twoPitches<<<1, dim3(16, 16)>>>(out, in, n, n);
  knownLoop<<<1, 256>>>(out, in);
  suppressed<<<1, 256>>>(out, in);
}
