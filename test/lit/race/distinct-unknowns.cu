// RUN: %check_all_front_ends %s shmem-race

// Two variables are two unknowns. Each of 200 variables is set on both arms
// of one `if` whose condition is the same in every thread but not known, so
// after the join each holds its own uniform unknown; thread i then stores to
// s[v_i]. The unknowns were once told apart by a hash of the variable's
// address (mod 997), and with 200 of them some pairs collided: two threads
// storing to s[v_i] and s[v_j] were taken to hit one word (a false race, or
// a missed one where two stores were taken to be one).

#define X10(M, p)                                                              \
  M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7) M(p##8)      \
      M(p##9)
#define X100(M, p)                                                             \
  X10(M, p##0) X10(M, p##1) X10(M, p##2) X10(M, p##3) X10(M, p##4)             \
      X10(M, p##5) X10(M, p##6) X10(M, p##7) X10(M, p##8) X10(M, p##9)
// Variables v100 ... v299.
#define X200(M) X100(M, 1) X100(M, 2)

#define DECLARE(i) int v##i;
#define THEN(i) v##i = c * i;
#define ELSE(i) v##i = c * (i + 1000);
#define PICK(i)                                                                \
  if (threadIdx.x == i - 100)                                                  \
    w = v##i;

// 200 threads, 200 distinct unknowns: no two threads store to one word.
// shmem-lint: block=256
__global__ void distinctVariables(int c) {
  __shared__ int s[1 << 16];
  X200(DECLARE)
  if (c) {
    X200(THEN)
  } else {
    X200(ELSE)
  }
  int w = 0;
  X200(PICK)
  if (threadIdx.x < 200)
    s[w] = threadIdx.x;
}

// The twin: threads 0 and 1 both store to s[v100], a real race.
// shmem-lint: block=256
__global__ void sharedVariable(int c) {
  __shared__ int s[1 << 16];
  X200(DECLARE)
  if (c) {
    X200(THEN)
  } else {
    X200(ELSE)
  }
  int w = 0;
  X200(PICK)
  if (threadIdx.x == 1)
    w = v100;
  if (threadIdx.x < 200)
    s[w] = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: thread 1 writes {{.*}} while thread 0 writes {{.*}}; no barrier between them; the threads store different values: not a reduction; use an atomic or a single writer (both threads are in warp 0) [shmem-race]
}

// Under a data-dependent condition the threads that assign are not known
// exactly, and the value after an assignment is an unknown joining the old
// and the new. That unknown was keyed by the variable alone, so `v = p` and
// `v = q` left v with one unknown: the read at q was taken to be two
// elements past the write at p, a false race.
// shmem-lint: block=64
__global__ void twoAssignments(const int *in, int *out, int p, int q) {
  __shared__ int s[4096];
  int v = 0;
  if (threadIdx.x < 32)
    if (in[threadIdx.x] > 0) {
      v = p;
      s[v + 2 * threadIdx.x] = 1;
      v = q;
      out[threadIdx.x] = s[v + 2 * threadIdx.x + 2];
    }
}

// The twin with one assignment: thread 0 reads what thread 1 writes.
// shmem-lint: block=64
__global__ void oneAssignment(const int *in, int *out, int p, int q) {
  __shared__ int s[4096];
  int v = 0;
  if (threadIdx.x < 32)
    if (in[threadIdx.x] > 0) {
      v = p;
      s[v + 2 * threadIdx.x] = 1;
      out[threadIdx.x] = s[v + 2 * threadIdx.x + 2];
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: thread 0 reads s[{{[0-9]+}}] (line [[@LINE-1]]) while thread 1 writes s[{{[0-9]+}}] (line [[@LINE-2]]); no barrier between them; add __syncwarp() between line [[@LINE-2]] and line [[@LINE-1]] (both threads are in warp 0) [shmem-race]
    }
}
