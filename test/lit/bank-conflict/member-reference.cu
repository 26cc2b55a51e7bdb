// RUN: %check_all_front_ends %s shmem-bank-conflict

// Shared memory reached through a member that the object's constructor
// set, as in CUB's `BlockReduce(temp_storage).Sum(x)`, whose constructor
// keeps `TempStorage &temp_storage` for every method to read through
// `this`. The walk follows the constructor's initialisers and keeps the
// fields that cannot change afterwards: references and const members.
// Each case has a conflict-free twin that must stay silent.

// The padding fix-it of 's' below puts the lines down to its declaration
// in the snippet, so this expectation stands above them.
// CHECK-MESSAGES: :[[@LINE+4]]:49: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 's' in bank 0 {{.*}}; pad the row of 's' to 33 elements
struct Tile {
  float (&rows)[32][32];
  __device__ explicit Tile(float (&r)[32][32]) : rows(r) {}
  __device__ float column(int c) const { return rows[threadIdx.x][c]; }
  __device__ float row(int r) const { return rows[r][threadIdx.x]; }
};

// A temporary: the method runs on the object just constructed.
// shmem-lint: block=32
__global__ void temporaryObject(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x / 32][threadIdx.x % 32] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Tile(s).column(0);
}

// The same object read along a row: conflict-free, no finding.
// shmem-lint: block=32
__global__ void temporaryObjectRow(float *out) {
  __shared__ float s[32][32];
  s[threadIdx.x / 32][threadIdx.x % 32] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Tile(s).row(3);
}

// A local object, and one passed by reference to a __device__ function.
struct Padded {
  float (&rows)[32][33];
  __device__ explicit Padded(float (&r)[32][33]) : rows(r) {}
  __device__ float column(int c) const { return rows[threadIdx.x][c]; }
};

__device__ float firstColumn(const Padded &p) { return p.column(0); }

// shmem-lint: block=32
__global__ void localAndParameter(float *out) {
  __shared__ float s[32][33];
  s[threadIdx.x / 32][threadIdx.x % 32] = 0.0f;
  __syncthreads();
  Padded p(s);
  out[threadIdx.x] = p.column(1) + firstColumn(p);
}

// Const members: a pointer and a row stride. `lane * ld` with ld = 32 is
// 32-way; with ld = 33 it is conflict-free.
struct Strided {
  float *const base;
  const int ld;
  __device__ Strided(float *b, int l) : base(b), ld(l) {}
  __device__ float at(int c) const { return base[threadIdx.x * ld + c]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'buf' in bank 0
};

// shmem-lint: block=32
__global__ void constMembers(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Strided(buf, 32).at(0);
}

// shmem-lint: block=32
__global__ void constMembersPadded(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  Strided t(buf, 33);
  out[threadIdx.x] = t.at(0);
}

// A member a method could re-assign is not followed (no claim either way):
// here `base` is never re-assigned and the access is 32-way, but nothing
// says so without looking at every method.
struct Mutable {
  float *base;
  __device__ explicit Mutable(float *b) : base(b) {}
  __device__ float at() const { return base[threadIdx.x * 32]; }
};

// shmem-lint: block=32
__global__ void mutableMember(float *out) {
  __shared__ float buf[32 * 32];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Mutable(buf).at();
}

// CUB's shape: the storage reference sits in a base class, and a method
// hands a part of it to a helper object of its own.
struct Storage {
  float reduce[32][32];
  float other[64];
};

struct Inner {
  float (&cells)[32][32];
  __device__ explicit Inner(float (&c)[32][32]) : cells(c) {}
  __device__ void put(float v) { cells[threadIdx.x][0] = v; }
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'temp' in bank 0
  __device__ void putRow(float v) { cells[0][threadIdx.x] = v; }
};

struct Base {
  Storage &temp_storage;
  __device__ explicit Base(Storage &t) : temp_storage(t) {}
};

struct Reducer : Base {
  __device__ explicit Reducer(Storage &t) : Base(t) {}
  __device__ void scatter(float v) { Inner(temp_storage.reduce).put(v); }
  __device__ void scatterRow(float v) {
    Inner(temp_storage.reduce).putRow(v);
  }
};

// shmem-lint: block=32
__global__ void cubShape(const float *in) {
  __shared__ Storage temp;
  Reducer(temp).scatter(in[threadIdx.x]);
}

// shmem-lint: block=32
__global__ void cubShapeRow(const float *in) {
  __shared__ Storage temp;
  Reducer(temp).scatterRow(in[threadIdx.x]);
}

// A private member that no code of its class modifies keeps its value too
// (BlockReduce's `linear_tid`); one a method modifies gives no claim.
class Rows {
  float *base_;
  int ld_;

public:
  __device__ Rows(float *b, int ld) : base_(b), ld_(ld) {}
  __device__ float at(int c) const { return base_[threadIdx.x * ld_ + c]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'buf' in bank 1
};

class Cursor {
  float *base_;
  int ld_;

public:
  __device__ Cursor(float *b, int ld) : base_(b), ld_(ld) {}
  __device__ void widen() { ++ld_; }
  __device__ float at(int c) const { return base_[threadIdx.x * ld_ + c]; }
};

// shmem-lint: block=32
__global__ void privateMembers(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Rows(buf, 32).at(1) + Cursor(buf, 32).at(2);
}

// shmem-lint: block=32
__global__ void privateMembersPadded(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = Rows(buf, 33).at(1);
}

// A method of an object in shared memory reaches it through `this`, and an
// accessor returning a reference is where the access happens. CUB's
// `TempStorage::Alias()` returns `reinterpret_cast<T &>(*this)` from a base
// class.
struct Grid {
  float cells[32][32];
  __device__ float &at(int r, int c) { return cells[r][c]; }
};

template <typename T> struct Uninit {
  unsigned char bytes[sizeof(T)];
  __device__ T &Alias() { return reinterpret_cast<T &>(*this); }
};
struct GridStorage : Uninit<Grid> {};

struct UsesGrid {
  Grid &g;
  __device__ explicit UsesGrid(GridStorage &s) : g(s.Alias()) {}
  __device__ void put(float v) { g.at(threadIdx.x, 0) = v; }
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 32-way bank conflict: lanes 0-31 write 32 distinct words of 'gs' in bank 0
  __device__ void putRow(float v) { g.at(0, threadIdx.x) = v; }
};

// shmem-lint: block=32
__global__ void sharedObject(const float *in, float *out) {
  __shared__ Grid grid;
  grid.at(threadIdx.x, threadIdx.x) = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = grid.at(threadIdx.x, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 32-way bank conflict: lanes 0-31 read 32 distinct words of 'grid' in bank 3
}

// shmem-lint: block=32
__global__ void aliasedStorage(const float *in) {
  __shared__ GridStorage gs;
  UsesGrid(gs).put(in[threadIdx.x]);
  UsesGrid(gs).putRow(in[threadIdx.x]);
}

// An object assigned as a whole holds other values: here the reassigned
// stride is 33 and the access conflict-free, so the 32 its constructor
// gave must not be used (it would be a false 32-way finding). Its copy
// shares the fate; the object it was copied from is forgotten too, which
// costs a claim but never gives a wrong one. (A class of its own, as a
// finding is reported once per source line.)
class Stale {
  float *base_;
  int ld_;

public:
  __device__ Stale(float *b, int ld) : base_(b), ld_(ld) {}
  __device__ float at(int c) const { return base_[threadIdx.x * ld_ + c]; }
};

// shmem-lint: block=32
__global__ void reassignedObject(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  Stale r(buf, 32);
  Stale copy = r;
  copy = Stale(buf, 33);
  out[threadIdx.x] = copy.at(0);
}

// Code the walk does not see may change an object handed to it by
// non-const reference: what the constructor gave is forgotten, so the
// stale stride 32 gives no finding.
__device__ void reset(Stale &r);

// shmem-lint: block=32
__global__ void objectHandedAway(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  Stale r(buf, 32);
  reset(r);
  out[threadIdx.x] = r.at(1);
}

// A method that assigns `*this` as a whole replaces the object too.
class Rebindable {
  float *base_;
  int ld_;

public:
  __device__ Rebindable(float *b, int ld) : base_(b), ld_(ld) {}
  __device__ void rebind(float *b, int ld) { *this = Rebindable(b, ld); }
  __device__ float at(int c) const { return base_[threadIdx.x * ld_ + c]; }
};

// shmem-lint: block=32
__global__ void reboundObject(float *out) {
  __shared__ float buf[32 * 33];
  buf[threadIdx.x] = 0.0f;
  __syncthreads();
  Rebindable r(buf, 32);
  r.rebind(buf, 33);
  out[threadIdx.x] = r.at(0);
}
