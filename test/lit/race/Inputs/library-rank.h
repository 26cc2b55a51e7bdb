// A library's linear thread rank, written for every block shape as the
// CUDA toolkit's cooperative groups write thread_rank(). The pragma makes
// this a system header, as the toolkit's are.
#pragma clang system_header
__device__ inline unsigned library_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
