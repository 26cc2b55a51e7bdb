// RUN: %check_all_front_ends %s shmem-race

// The standard warp-specialised TMA pipeline (pranjalssh/fast.cu's kernels
// 4-7, CUTLASS's producer/consumer mainloop), with inline PTX: one producer
// thread fills stage s = i % STAGES after the consumers have released it
// (`empty[s]`), the consumers wait for the stage's copy (`full[s]`, phase
// (i / STAGES) & 1), read it and arrive on `empty[s]`. No race. Then the
// mistakes: consumers that skip the full wait, a producer that refills a
// stage waiting on nothing, or only on its own earlier copy (full[s]):
// bench/gpu/tma/tma.cu's pipelineNoRelease, where on the H200 743,536 of
// 1,572,864 consumer reads get the stage's next fill.
#include "../Inputs/tma_helpers.h"

constexpr int STAGES = 3;

#define PIPELINE_SETUP                                                         \
  __shared__ alignas(1024) float tiles[STAGES][8][32];                         \
  __shared__ uint64_t full[STAGES], empty[STAGES];                             \
  int t = threadIdx.x;                                                         \
  if (t == 0) {                                                                \
    for (int s = 0; s < STAGES; ++s) {                                         \
      mbar_init(&full[s], 1);                                                  \
      mbar_init(&empty[s], 256);                                               \
    }                                                                          \
    fence_proxy_async();                                                       \
  }                                                                            \
  __syncthreads();

template <int Iters>
__global__ void pipeline(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < Iters; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(&empty[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < Iters; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// The same with a trip count known only at run time.
__global__ void pipelineRuntime(const __grid_constant__ CUtensorMap tmap, float *out,
                                int iters) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < iters; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(&empty[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < iters; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// The consumers read the stage before its copy has landed.
__global__ void consumerSkipsFull(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < 6; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(&empty[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < 6; ++i) {
    int s = i % STAGES;
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: race with a TMA copy: thread 32 reads 'tiles[0][0][0]' while the bulk tensor copy thread 0 issued at line [[@LINE-10]] may still be writing it; no wait on its mbarrier follows the copy: wait for the phase it completes (mbarrier.try_wait.parity) before the read [shmem-race]
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// The producer refills a stage without waiting for the consumers to
// release it: the copy of iteration 3 may overwrite stage 0 while the
// consumers still read iteration 0's tile.
__global__ void producerSkipsEmpty(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < 6; ++i) {
        int s = i % STAGES;
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: race with a TMA copy: the bulk tensor copy thread 0 issues at line [[@LINE-1]] overwrites 'tiles[0][0][0]', which thread 32 reads at line [[@LINE+10]] from the same copy's earlier iteration; thread 0 waits on no mbarrier between the two copies: have the readers arrive on an mbarrier after their reads (an "empty" barrier per stage) and wait on it before copying into the stage again [shmem-race]
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < 6; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// The producer waits for its own earlier copy to land (full[s]) rather
// than for the consumers to release the stage (empty[s]): that orders
// nothing of the consumers' reads.
__global__ void producerWaitsFull(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < 6; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(&full[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: race with a TMA copy: the bulk tensor copy thread 0 issues at line [[@LINE-1]] overwrites 'tiles[0][0][0]', which thread 32 reads at line [[@LINE+10]] from the same copy's earlier iteration; thread 32 arrives after its read on no mbarrier that thread 0 waits on between the two copies (line [[@LINE-3]]): arrive on that barrier after the read [shmem-race]
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < 6; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// The barrier chosen by a template argument: `Release ? &empty[s] :
// &full[s]` is one object per instantiation, not an unknown one.
template <bool Release>
__global__ void chosenBarrier(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < 6; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(Release ? &empty[s] : &full[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: race with a TMA copy: the bulk tensor copy thread 0 issues at line [[@LINE-1]] overwrites 'tiles[0][0][0]', which thread 32 reads at line [[@LINE+10]] from the same copy's earlier iteration; thread 32 arrives after its read on no mbarrier that thread 0 waits on between the two copies (line [[@LINE-3]]): arrive on that barrier after the read [shmem-race]
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < 6; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}

// Not specialised: every thread waits, reads, and a block barrier comes
// before thread 0 copies into the one buffer again. No race.
__global__ void singleBuffer(const __grid_constant__ CUtensorMap tmap, float *out) {
  __shared__ alignas(1024) float tile[8][32];
  __shared__ uint64_t bar;
  int t = threadIdx.x, r = t / 32, c = t % 32;
  if (t == 0) {
    mbar_init(&bar, 1);
    fence_proxy_async();
  }
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < 4; ++i) {
    if (t == 0) {
      mbar_expect_tx(&bar, sizeof(tile));
      tma_load_2d(&tile[0][0], &tmap, 0, 8 * i, &bar);
    }
    mbar_wait(&bar, i & 1);
    acc += tile[r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    __syncthreads();
  }
  out[t] = acc;
}

// A pipeline need not release a stage's last use (the copies that would
// refill it are not issued): the consumers' last reads of each stage have
// no arrive after them. Their earlier reads are released, and the last ones
// read the refill itself: no race.
template <int Iters>
__global__ void lastNotReleased(const __grid_constant__ CUtensorMap tmap, float *out) {
  PIPELINE_SETUP
  if (t < 32) {
    if (t == 0)
      for (int i = 0; i < Iters; ++i) {
        int s = i % STAGES;
        if (i >= STAGES)
          mbar_wait(&empty[s], (i / STAGES - 1) & 1);
        mbar_expect_tx(&full[s], sizeof(tiles[s]));
        tma_load_2d(&tiles[s][0][0], &tmap, 0, 8 * i, &full[s]);
      }
    return;
  }
  int c = t - 32, r = c / 32;
  c %= 32;
  float acc = 0;
  for (int i = 0; i < Iters; ++i) {
    int s = i % STAGES;
    mbar_wait(&full[s], (i / STAGES) & 1);
    acc += tiles[s][r][((c / 4) ^ (r % 8)) * 4 + c % 4];
    if (i + STAGES < Iters)
      mbar_arrive(&empty[s]);
  }
  out[t] = acc;
}


void launch(float *g, float *out, int iters) {
  CUtensorMap map;
  cuuint64_t dims[2] = {256, 1024};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 8};
  cuuint32_t elementStrides[2] = {1, 1};
  cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                         strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  pipeline<8><<<1, 288>>>(map, out);
  pipelineRuntime<<<1, 288>>>(map, out, iters);
  consumerSkipsFull<<<1, 288>>>(map, out);
  producerSkipsEmpty<<<1, 288>>>(map, out);
  producerWaitsFull<<<1, 288>>>(map, out);
  singleBuffer<<<1, 256>>>(map, out);
  chosenBarrier<true><<<1, 288>>>(map, out);
  chosenBarrier<false><<<1, 288>>>(map, out);
  lastNotReleased<6><<<1, 288>>>(map, out);
}

