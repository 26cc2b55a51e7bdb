//===- ThreadGeometry.cpp - Block shape, warps and lanes ------------------===//

#include "ThreadGeometry.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace shmem {

std::optional<Dim3> Dim3::parse(std::string_view Text) {
  unsigned Parts[3] = {1, 1, 1};
  unsigned N = 0;
  size_t I = 0;
  auto Skip = [&] {
    while (I < Text.size() && (std::isspace((unsigned char)Text[I]) ||
                               Text[I] == '(' || Text[I] == ')'))
      ++I;
  };
  Skip();
  while (I < Text.size()) {
    if (N == 3 || !std::isdigit((unsigned char)Text[I]))
      return std::nullopt;
    unsigned long V = 0;
    while (I < Text.size() && std::isdigit((unsigned char)Text[I])) {
      V = V * 10 + (Text[I] - '0');
      if (V > 1u << 20)
        return std::nullopt;
      ++I;
    }
    if (V == 0)
      return std::nullopt;
    Parts[N++] = static_cast<unsigned>(V);
    Skip();
    if (I < Text.size()) {
      if (Text[I] != 'x' && Text[I] != 'X' && Text[I] != ',')
        return std::nullopt;
      ++I;
      Skip();
      if (I == Text.size())
        return std::nullopt;
    }
  }
  if (N == 0)
    return std::nullopt;
  Dim3 D{Parts[0], Parts[1], Parts[2]};
  if (D.count() > ThreadGeometry::MaxThreadsPerBlock)
    return std::nullopt;
  return D;
}

std::string Dim3::str() const {
  std::string S = std::to_string(X);
  if (Y != 1 || Z != 1)
    S += "x" + std::to_string(Y);
  if (Z != 1)
    S += "x" + std::to_string(Z);
  return S;
}

ThreadGeometry::ThreadGeometry(Dim3 B, unsigned WS)
    : Block(B), WarpSize(WS ? WS : 32) {}

unsigned ThreadGeometry::warpEnd(unsigned W) const {
  return std::min(threads(), (W + 1) * WarpSize);
}

bool ThreadGeometry::wholeWarps(const std::vector<char> &In) const {
  for (unsigned W = 0; W < warps(); ++W)
    for (unsigned Th = warpBegin(W) + 1; Th < warpEnd(W); ++Th)
      if (In[Th] != In[warpBegin(W)])
        return false;
  return true;
}

unsigned ThreadGeometry::coordinate(unsigned T, unsigned Axis) const {
  switch (Axis) {
  case 0:
    return T % Block.X;
  case 1:
    return (T / Block.X) % Block.Y;
  default:
    return T / (Block.X * Block.Y);
  }
}

LaneValue ThreadGeometry::threadIdx(unsigned Axis) const {
  return LaneValue::perThread(Lanes::linear(threads(), Block.X, Block.Y, 0,
                                            Axis == 0, Axis == 1, Axis == 2));
}

LaneValue ThreadGeometry::blockDim(unsigned Axis) const {
  unsigned D = Axis == 0 ? Block.X : Axis == 1 ? Block.Y : Block.Z;
  return LaneValue::constant(threads(), D);
}

LaneValue ThreadGeometry::linearId() const {
  return LaneValue::perThread(Lanes::linear(threads(), Block.X, Block.Y, 0, 1,
                                            Block.X,
                                            int64_t(Block.X) * Block.Y));
}

LaneValue ThreadGeometry::laneId() const {
  std::vector<int64_t> V(threads());
  for (unsigned T = 0; T < V.size(); ++T)
    V[T] = T % WarpSize;
  return LaneValue::perThread(Lanes::values(std::move(V), Block.X, Block.Y));
}

LaneValue ThreadGeometry::warpId() const {
  std::vector<int64_t> V(threads());
  for (unsigned T = 0; T < V.size(); ++T)
    V[T] = T / WarpSize;
  return LaneValue::perThread(Lanes::values(std::move(V), Block.X, Block.Y));
}

std::string ThreadGeometry::describeThread(unsigned T) const {
  if (Block.Y == 1 && Block.Z == 1)
    return "thread " + std::to_string(T);
  std::string S = "thread (" + std::to_string(coordinate(T, 0)) + "," +
                  std::to_string(coordinate(T, 1));
  if (Block.Z != 1)
    S += "," + std::to_string(coordinate(T, 2));
  return S + ")";
}

} // namespace shmem
