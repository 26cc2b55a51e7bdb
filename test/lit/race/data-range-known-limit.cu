// RUN: %check_all_front_ends %s shmem-race

// Known limit (found in rodinia's huffman vlc_encode_kernel_sm64huff): a
// data-dependent index is not bounded by its type. Here a lookup table
// fills the first 256 words of a dynamic buffer and a byte indexes it, so
// the reads stay in words 0-255 while the writes go to words 256 and up;
// the analysis still reports a possible race. This test pins the false
// alarm; the same lookup with the table in its own array is silent.

// shmem-lint: block=256
__global__ void lutThenScan(const unsigned *in, const unsigned *lut,
                            unsigned *out) {
  extern __shared__ unsigned sm[];
  unsigned *table = sm;
  unsigned *as = sm + 256;
  table[threadIdx.x] = lut[threadIdx.x];
  __syncthreads();
  unsigned char byte = (unsigned char)in[threadIdx.x];
  unsigned len = table[byte];
  as[threadIdx.x] = len;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: possible race
  __syncthreads();
  out[threadIdx.x] = as[255 - threadIdx.x];
}

// shmem-lint: block=256
__global__ void lutSeparate(const unsigned *in, const unsigned *lut,
                            unsigned *out) {
  __shared__ unsigned table[256];
  __shared__ unsigned as[256];
  table[threadIdx.x] = lut[threadIdx.x];
  __syncthreads();
  unsigned char byte = (unsigned char)in[threadIdx.x];
  unsigned len = table[byte];
  as[threadIdx.x] = len;
  __syncthreads();
  out[threadIdx.x] = as[255 - threadIdx.x];
}
