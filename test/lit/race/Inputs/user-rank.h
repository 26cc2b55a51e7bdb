// The same rank in the user's own header.
__device__ inline unsigned user_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
