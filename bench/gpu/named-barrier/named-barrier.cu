// Named-barrier patterns (issue #29), one kernel per finding class of
// shmem-named-barrier and of shmem-race through named barriers, to see what
// the H200 and compute-sanitizer make of each. run.sh builds this file,
// runs each kernel alone (`named-barrier KERNEL`: many blocks, many
// launches, every consumed value checked) and under synccheck and
// racecheck; h200.txt is its output. The same kernels, with their
// expectations, are test/lit/{named-barrier,race}/*.cu.
#include <cstdio>
#include <cstring>

__device__ __forceinline__ void barSync(int id, int n) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void barArrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// Every kernel: 256 threads, warps 0-3 produce buf from in, warps 4-7
// consume it into out. A value read before it was written is a stale one
// (another launch's, or another block's), so a wrong out element is a
// race that happened.

// Right: arrive after the write, wait before the read, both counted.
// shmem-lint: block=256
__global__ void good(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barArrive(1, 256);
  } else {
    barSync(1, 256);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-named-barrier: the count leaves the consumers out (bar.arrive 1,
// 128 / bar.sync 1, 128 with 256 threads using barrier 1).
// shmem-lint: block=256
__global__ void countsOnlyProducers(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barArrive(1, 128);
  } else {
    barSync(1, 128);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-race: no arrive, the consumers' barrier gathers only themselves.
// shmem-lint: block=256
__global__ void missingArrive(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
  } else {
    barSync(1, 128);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// missingArrive with shmem-race's fix applied: 'bar.arrive 2, 256;' after
// the write in warps 0-3, 'bar.sync 2, 256;' before the read in warps 4-7.
// shmem-lint: block=256
__global__ void missingArriveFixed(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barArrive(2, 256);
  } else {
    barSync(1, 128);
    barSync(2, 256);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-race: the consumers read before they wait.
// shmem-lint: block=256
__global__ void readBeforeSync(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barArrive(1, 256);
  } else {
    out[base + tid - 128] = buf[tid - 128];
    barSync(1, 256);
  }
}

// shmem-named-barrier: 128 threads at bar.sync 2, 64 (the issue's case).
// shmem-lint: block=256
__global__ void tooMany(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barSync(2, 64);
    out[base + tid] = buf[127 - tid];
  }
}

// shmem-named-barrier: a ring of two buffers whose producer does not wait
// on the 'empty' barrier: it runs ahead, and the arrivals of two
// generations of FULL mix.
// shmem-lint: block=256
__global__ void ringWithoutEmpty(const int *in, int *out) {
  __shared__ int buf[2][128];
  int tid = threadIdx.x, base = blockIdx.x * 6 * 128;
  if (tid < 128) {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      buf[s][tid] = in[base + k * 128 + tid];
      barArrive(1 + s, 256);
    }
  } else {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      barSync(1 + s, 256);
      out[base + k * 128 + tid - 128] = buf[s][tid - 128];
    }
  }
}

// The ring with its EMPTY barriers: silent in shmem-lint.
// shmem-lint: block=256
__global__ void ring(const int *in, int *out) {
  __shared__ int buf[2][128];
  int tid = threadIdx.x, base = blockIdx.x * 6 * 128;
  if (tid < 128) {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      if (k >= 2)
        barSync(3 + s, 256);
      buf[s][tid] = in[base + k * 128 + tid];
      barArrive(1 + s, 256);
    }
  } else {
    for (int k = 0; k < 6; ++k) {
      int s = k % 2;
      barSync(1 + s, 256);
      out[base + k * 128 + tid - 128] = buf[s][tid - 128];
      if (k + 2 < 6)
        barArrive(3 + s, 256);
    }
  }
}

// shmem-race: a run-time loop whose roles meet at one barrier a tile: the
// next tile's write races with this tile's read.
// shmem-lint: block=256
__global__ void loopNoTrailing(const int *in, int *out, int tiles) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * tiles * 128;
  for (int k = 0; k < tiles; ++k) {
    if (tid < 128) {
      buf[tid] = in[base + k * 128 + tid];
      barSync(1, 256);
    } else {
      barSync(1, 256);
      out[base + k * 128 + tid - 128] = buf[tid - 128];
    }
  }
}

// The same with a second barrier after the read: silent.
// shmem-lint: block=256
__global__ void loopBothWait(const int *in, int *out, int tiles) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * tiles * 128;
  for (int k = 0; k < tiles; ++k) {
    if (tid < 128) {
      buf[tid] = in[base + k * 128 + tid];
      barSync(1, 256);
      barSync(2, 256);
    } else {
      barSync(1, 256);
      out[base + k * 128 + tid - 128] = buf[tid - 128];
      barSync(2, 256);
    }
  }
}

// Hangs (run last, under a timeout): shmem-named-barrier's "never
// completes" (256 awaited, 128 arrive) and "uses unequally often".
// shmem-lint: block=256
__global__ void neverCompletes(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
  } else {
    barSync(1, 256);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-lint: block=256
__global__ void unequalUses(const int *in, int *out) {
  int warp = threadIdx.x / 32;
  if (warp < 2) {
    barSync(5, 128);
    barSync(5, 128);
  } else if (warp < 4) {
    barSync(5, 128);
  }
  out[blockIdx.x * 256 + threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
}

// shmem-named-barrier's operand findings with values ptxas cannot see
// (immediates it rejects): undefined in PTX; run under a timeout.
// shmem-lint: block=256
__global__ void countNotWarps(const int *in, int *out, int count) {
  __shared__ int buf[64];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 64) {
    buf[tid] = in[base + tid];
    barSync(1, count);
    out[base + tid] = buf[63 - tid];
  }
}

// shmem-lint: block=256
__global__ void idPast15(const int *in, int *out, int id) {
  __shared__ int buf[64];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 64) {
    buf[tid] = in[base + tid];
    barSync(id, 64);
    out[base + tid] = buf[63 - tid];
  }
}

// Waiting for one generation at two different instructions: a bar.sync
// (barrier.sync.aligned) in each arm, and the same with barrier.sync, which
// is not .aligned. The second run of run.sh (h200-aligned.txt).
__device__ __forceinline__ void barSyncUnaligned(int id, int n) {
  asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}

// shmem-lint: block=256
__global__ void syncBothArms(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barSync(1, 256);
  } else {
    barSync(1, 256);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-lint: block=256
__global__ void syncBothArmsUnaligned(const int *in, int *out) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 128) {
    buf[tid] = in[base + tid];
    barSyncUnaligned(1, 256);
  } else {
    barSyncUnaligned(1, 256);
    out[base + tid - 128] = buf[tid - 128];
  }
}

// shmem-lint: block=256
__global__ void loopBothWaitUnaligned(const int *in, int *out, int tiles) {
  __shared__ int buf[128];
  int tid = threadIdx.x, base = blockIdx.x * tiles * 128;
  for (int k = 0; k < tiles; ++k) {
    if (tid < 128) {
      buf[tid] = in[base + k * 128 + tid];
      barSyncUnaligned(1, 256);
      barSyncUnaligned(2, 256);
    } else {
      barSyncUnaligned(1, 256);
      out[base + k * 128 + tid - 128] = buf[tid - 128];
      barSyncUnaligned(2, 256);
    }
  }
}

// shmem-race in a branch warps 0-1 take (issue #25's example), and with
// its fix-it applied: 'bar.sync 1, 64;' before the read.
// shmem-lint: block=256
__global__ void inBranch(const int *in, int *out) {
  __shared__ int s[64];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 64) {
    s[tid] = in[base + tid];
    out[base + tid] = s[63 - tid];
  }
}

// shmem-lint: block=256
__global__ void inBranchFixed(const int *in, int *out) {
  __shared__ int s[64];
  int tid = threadIdx.x, base = blockIdx.x * 128;
  if (tid < 64) {
    s[tid] = in[base + tid];
    asm volatile("bar.sync 1, 64;");
    out[base + tid] = s[63 - tid];
  }
}

struct Case {
  const char *Name;
  void (*Plain)(const int *, int *);
  void (*Tiled)(const int *, int *, int);
  int Tiles; // Tiles of 128 values a block consumes.
};

static const Case Cases[] = {
    {"good", good, nullptr, 1},
    {"countsOnlyProducers", countsOnlyProducers, nullptr, 1},
    {"missingArrive", missingArrive, nullptr, 1},
    {"missingArriveFixed", missingArriveFixed, nullptr, 1},
    {"readBeforeSync", readBeforeSync, nullptr, 1},
    {"tooMany", tooMany, nullptr, 1},
    {"ringWithoutEmpty", ringWithoutEmpty, nullptr, 6},
    {"ring", ring, nullptr, 6},
    {"loopNoTrailing", nullptr, loopNoTrailing, 16},
    {"loopBothWait", nullptr, loopBothWait, 16},
    {"neverCompletes", neverCompletes, nullptr, 1},
    {"unequalUses", unequalUses, nullptr, 2},
    {"countNotWarps", nullptr, countNotWarps, 48},
    {"idPast15", nullptr, idPast15, 16},
    {"syncBothArms", syncBothArms, nullptr, 1},
    {"syncBothArmsUnaligned", syncBothArmsUnaligned, nullptr, 1},
    {"loopBothWaitUnaligned", nullptr, loopBothWaitUnaligned, 16},
    {"inBranch", inBranch, nullptr, 1},
    {"inBranchFixed", inBranchFixed, nullptr, 1},
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL [BLOCKS [LAUNCHES]]\n", argv[0]);
    return 2;
  }
  const Case *C = nullptr;
  for (const Case &X : Cases)
    if (!strcmp(X.Name, argv[1]))
      C = &X;
  if (!C) {
    fprintf(stderr, "no kernel '%s'\n", argv[1]);
    return 2;
  }
  int Blocks = argc > 2 ? atoi(argv[2]) : 4096;
  int Launches = argc > 3 ? atoi(argv[3]) : 50;
  // countNotWarps and idPast15 pass their count or id as Tiles; they
  // consume one tile. They and the inBranch kernels write each block's
  // first 64 values reversed.
  bool Operand = !strcmp(C->Name, "countNotWarps") || !strcmp(C->Name, "idPast15");
  bool Reversed64 = Operand || !strncmp(C->Name, "inBranch", 8);
  size_t N = size_t(Blocks) * (Operand ? 1 : C->Tiles) * 128;
  int *In, *Out;
  cudaMalloc(&In, N * sizeof(int));
  cudaMalloc(&Out, N * sizeof(int));
  int *Host = new int[N], *Back = new int[N];
  long long Wrong = 0, Checked = 0;
  cudaError_t E = cudaSuccess;
  for (int L = 0; L < Launches && E == cudaSuccess; ++L) {
    for (size_t I = 0; I < N; ++I)
      Host[I] = int(L * 7919 + I);
    cudaMemcpy(In, Host, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(Out, 0xff, N * sizeof(int));
    if (C->Plain)
      C->Plain<<<Blocks, 256>>>(In, Out);
    else if (!strcmp(C->Name, "countNotWarps") ||
             !strcmp(C->Name, "idPast15"))
      C->Tiled<<<Blocks, 256>>>(In, Out, C->Tiles); // The count or the id.
    else
      C->Tiled<<<Blocks, 256>>>(In, Out, C->Tiles);
    E = cudaDeviceSynchronize();
    if (E != cudaSuccess)
      break;
    cudaMemcpy(Back, Out, N * sizeof(int), cudaMemcpyDeviceToHost);
    for (size_t I = 0; I < N; ++I) {
      // tooMany writes each block's 128 values reversed.
      size_t J = I;
      if (!strcmp(C->Name, "tooMany"))
        J = I / 128 * 128 + (127 - I % 128);
      if (Reversed64) {
        if (I % 128 >= 64)
          continue; // Not written.
        J = I / 128 * 128 + (63 - I % 128);
      }
      Wrong += Back[I] != Host[J];
      ++Checked;
    }
  }
  printf("%s: %s; %lld of %lld values wrong (%d blocks x %d launches)\n",
         C->Name, cudaGetErrorString(E), Wrong, Checked, Blocks, Launches);
  return E == cudaSuccess ? 0 : 1;
}
