// One finding of shmem-bank-conflict (line 5) and one of shmem-race (line
// 12), for warnings-as-errors.test.
__global__ void k(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.x][0] = out[0];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}
__global__ void r(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1;
  out[threadIdx.x] = s[threadIdx.x + 1];
}
int main() { k<<<1, 32>>>(nullptr); r<<<1, 32>>>(nullptr); }
