// The kernels of test/lit/out-of-bounds/basic.cu on the H200: each run
// plainly and under compute-sanitizer's memcheck, to see which of the
// accesses shmem-out-of-bounds reports memcheck reports too (it checks the
// block's shared window, not each array). run.sh builds and runs this;
// h200.txt is its output.
#include <cstdio>
#include <cstring>

// The kernels themselves, as the check's test has them (its RUN and CHECK
// lines are comments).
#include "../../../test/lit/out-of-bounds/basic.cu"

template <typename T> static void launch(void (*K)(T *), int Threads,
                                         size_t Dyn = 0) {
  T *Out;
  cudaMalloc(&Out, 1024 * sizeof(T));
  K<<<1, Threads, Dyn>>>(Out);
}
static float *out() {
  float *Out;
  cudaMalloc(&Out, 1024 * sizeof(float));
  return Out;
}
static void launchN(void (*K)(float *, int), int Threads, int N) {
  float *Out;
  cudaMalloc(&Out, 1024 * sizeof(float));
  K<<<1, Threads>>>(Out, N);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *K = argv[1];
  if (!strcmp(K, "loopTooLong")) launch(loopTooLong, 32);
  else if (!strcmp(K, "tileTooSmall")) launch(tileTooSmall, 256);
  else if (!strcmp(K, "neighbour")) launch(neighbour, 128);
  else if (!strcmp(K, "unsignedWrap")) launch(unsignedWrap, 128);
  else if (!strcmp(K, "vectorTail")) launch(vectorTail, 64);
  else if (!strcmp(K, "guarded")) launch(guarded, 128);
  else if (!strcmp(K, "loopInBounds")) launch(loopInBounds, 32);
  else if (!strcmp(K, "shapeAssumed")) launch(shapeAssumed, 32);
  else if (!strcmp(K, "dynamicShared")) launch(dynamicShared, 256, 32768);
  else if (!strcmp(K, "runTimeLoop")) launchN(runTimeLoop, 32, 2);
  else if (!strcmp(K, "dynamicTooSmall")) launchTooSmall(out());
  else if (!strcmp(K, "dynamicEnough")) launchEnough(out());
  else if (!strcmp(K, "dynamicRunTime")) launchRunTime(out(), 1024);
  else return 2;
  cudaError_t E = cudaDeviceSynchronize();
  printf("%s: %s\n", K, cudaGetErrorString(E));
  return E != cudaSuccess;
}
