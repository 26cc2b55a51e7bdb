// cuda-samples' conjugateGradientMultiDeviceCG writes two inline-asm
// operands with no comma between them; nvcc takes them as two.
__global__ void flag(unsigned char *arrived, float *out) {
  __shared__ float tile[32][32];
  unsigned int v = 1;
  asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(v) "l"(arrived) : "memory"); tile[threadIdx.x][0] = out[0];
  __syncthreads();
  out[threadIdx.x] = tile[0][threadIdx.x];
}

// A string with `;` and `:` inside an operand list that is C++.
__global__ void wellFormed(unsigned *out) {
  unsigned r;
  asm("mov.u32 %0, %%laneid; // a: b;" : "=r"(r));
  out[threadIdx.x] = r;
}
