//===- ThreadSets.cpp - Sets of threads described in words ----------------===//
//
// See ThreadSets.h.
//
//===----------------------------------------------------------------------===//

#include "ThreadSets.h"

#include <functional>
#include <optional>
#include <sstream>

namespace shmem {
namespace divergent {

namespace {

/// A predicate on one coordinate that holds exactly for the values in \p In
/// among [0, Extent): "< 128", ">= 32", "== 0", "!= 5", "in 32-63",
/// "% 2 == 0". Empty when there is none as simple.
std::string predicate(const std::vector<bool> &In, unsigned Extent,
                      const std::string &Var) {
  std::vector<unsigned> Vals;
  for (unsigned V = 0; V < Extent; ++V)
    if (In[V])
      Vals.push_back(V);
  if (Vals.empty() || Vals.size() == Extent)
    return {};
  bool Contiguous = Vals.back() - Vals.front() + 1 == Vals.size();
  if (Vals.size() == 1)
    return Var + " == " + std::to_string(Vals[0]);
  if (Vals.size() + 1 == Extent)
    for (unsigned V = 0; V < Extent; ++V)
      if (!In[V])
        return Var + " != " + std::to_string(V);
  if (Contiguous && Vals.front() == 0)
    return Var + " < " + std::to_string(Vals.back() + 1);
  if (Contiguous && Vals.back() + 1 == Extent)
    return Var + " >= " + std::to_string(Vals.front());
  if (Contiguous)
    return std::to_string(Vals.front()) + " <= " + Var + " < " +
           std::to_string(Vals.back() + 1);
  for (unsigned M = 2; M <= Extent / 2; M *= 2)
    for (unsigned Rm = 0; Rm < M; ++Rm) {
      bool Match = true;
      for (unsigned V = 0; V < Extent && Match; ++V)
        Match = In[V] == (V % M == Rm);
      if (Match)
        return Var + " % " + std::to_string(M) + " == " + std::to_string(Rm);
    }
  return {};
}

/// The values \p Of takes in the threads of \p Active, when they determine
/// membership (no value is taken both inside and outside the set).
std::optional<std::vector<bool>>
separatingValues(const std::vector<char> &Active, unsigned Extent,
                 const std::function<unsigned(unsigned)> &Of) {
  std::vector<char> Seen(Extent, 0); // 1 inside, 2 outside.
  for (unsigned T = 0; T < Active.size(); ++T)
    Seen[Of(T)] |= Active[T] ? 1 : 2;
  std::vector<bool> In(Extent);
  for (unsigned V = 0; V < Extent; ++V) {
    if (Seen[V] == 3)
      return std::nullopt;
    In[V] = Seen[V] == 1;
  }
  return In;
}

} // namespace

std::string rangeList(const std::vector<unsigned> &V) {
  std::ostringstream OS;
  if (V.empty())
    return "none";
  // Runs of consecutive values.
  std::vector<std::pair<unsigned, unsigned>> Runs;
  for (unsigned X : V) {
    if (!Runs.empty() && Runs.back().second + 1 == X)
      Runs.back().second = X;
    else
      Runs.push_back({X, X});
  }
  if (Runs.size() <= 3) {
    for (unsigned I = 0; I < Runs.size(); ++I) {
      OS << (I ? ", " : "") << Runs[I].first;
      if (Runs[I].second != Runs[I].first)
        OS << (Runs[I].second == Runs[I].first + 1 ? ", " : "-")
           << Runs[I].second;
    }
    return OS.str();
  }
  if (V.size() > 3) {
    unsigned Step = V[1] - V[0];
    bool Arith = true;
    for (unsigned I = 1; I < V.size(); ++I)
      Arith = Arith && V[I] - V[I - 1] == Step;
    if (Arith) {
      OS << V[0] << ", " << V[1] << ", " << V[2] << ", ..., " << V.back();
      return OS.str();
    }
  }
  for (unsigned I = 0; I < 2; ++I) {
    OS << (I ? ", " : "") << Runs[I].first;
    if (Runs[I].second != Runs[I].first)
      OS << "-" << Runs[I].second;
  }
  OS << ", ... (" << V.size() << " in all)";
  return OS.str();
}

std::string describeThreads(const std::vector<char> &Active,
                            const ThreadGeometry &G) {
  const Dim3 &D = G.block();
  const char *Axes[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};
  unsigned Extents[] = {D.X, D.Y, D.Z};
  for (unsigned A = 0; A < 3; ++A) {
    if (Extents[A] < 2)
      continue;
    auto In = separatingValues(Active, Extents[A], [&](unsigned T) {
      return G.coordinate(T, A);
    });
    if (!In)
      continue;
    std::string P = predicate(*In, Extents[A], Axes[A]);
    if (!P.empty())
      return "threads with " + P;
  }
  unsigned W = G.warpSize();
  if (G.warps() > 1) {
    if (auto In = separatingValues(Active, G.warps(),
                                   [&](unsigned T) { return T / W; })) {
      std::vector<unsigned> Ws;
      for (unsigned I = 0; I < G.warps(); ++I)
        if ((*In)[I])
          Ws.push_back(I);
      return (Ws.size() == 1 ? "the threads of warp " : "the threads of warps ") +
             rangeList(Ws);
    }
    if (auto In = separatingValues(Active, W,
                                   [&](unsigned T) { return T % W; })) {
      std::vector<unsigned> Ls;
      for (unsigned I = 0; I < W; ++I)
        if ((*In)[I])
          Ls.push_back(I);
      return (Ls.size() == 1 ? "lane " : "lanes ") + rangeList(Ls) +
             " of each warp";
    }
  }
  std::vector<unsigned> Ts;
  for (unsigned T = 0; T < Active.size(); ++T)
    if (Active[T])
      Ts.push_back(T);
  return "threads " + rangeList(Ts) + " (linear thread index)";
}

std::string describeWarps(const std::vector<char> &Active,
                          const ThreadGeometry &G) {
  std::vector<unsigned> Ws;
  for (unsigned W = 0; W < G.warps(); ++W) {
    unsigned In = 0;
    for (unsigned T = G.warpBegin(W); T < G.warpEnd(W); ++T)
      In += Active[T] != 0;
    if (In && In != G.warpEnd(W) - G.warpBegin(W))
      return describeThreads(Active, G);
    if (In)
      Ws.push_back(W);
  }
  return (Ws.size() == 1 ? "warp " : "warps ") + rangeList(Ws);
}

} // namespace divergent
} // namespace shmem
