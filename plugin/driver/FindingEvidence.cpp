//===- FindingEvidence.cpp - The compiler's and profiler's word -----------===//

#include "FindingEvidence.h"

#include "Analysis/Finding.h"

#include "BankModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

namespace shmem {

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

namespace {

/// \p Path absolute against \p Dir, dots removed, symlinks resolved when it
/// exists here.
std::string fileKey(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> P(Path);
  if (!llvm::sys::path::is_absolute(P) && !Dir.empty()) {
    P = Dir;
    llvm::sys::path::append(P, Path);
  }
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(P, Real))
    return Real.str().str();
  return P.str().str();
}

std::vector<std::string> componentsLastFirst(llvm::StringRef Key) {
  std::vector<std::string> C;
  for (auto It = llvm::sys::path::rbegin(Key), End = llvm::sys::path::rend(Key);
       It != End; ++It)
    if (*It != "/" && !It->empty())
      C.push_back(It->str());
  return C;
}

} // namespace

SourceFileMatcher::SourceFileMatcher(const std::vector<std::string> &Named,
                                     llvm::StringRef Dir) {
  for (const std::string &N : Named) {
    Entry E;
    E.Name = N;
    E.Key = fileKey(N, Dir);
    E.Components = componentsLastFirst(E.Key);
    Entries.push_back(std::move(E));
  }
}

std::optional<std::string>
SourceFileMatcher::match(llvm::StringRef File, llvm::StringRef FileDir) const {
  std::string Key = fileKey(File, FileDir);
  for (const Entry &E : Entries)
    if (E.Key == Key)
      return E.Name;
  std::vector<std::string> Mine = componentsLastFirst(Key);
  const Entry *Best = nullptr;
  size_t BestShared = 0;
  bool Tie = false;
  for (const Entry &E : Entries) {
    size_t Shared = 0;
    while (Shared < Mine.size() && Shared < E.Components.size() &&
           Mine[Shared] == E.Components[Shared])
      ++Shared;
    if (Shared == 0 || Shared < BestShared)
      continue;
    Tie = Shared == BestShared;
    Best = &E;
    BestShared = Shared;
  }
  if (!Best || Tie)
    return std::nullopt;
  return Best->Name;
}

//===----------------------------------------------------------------------===//
// Attaching
//===----------------------------------------------------------------------===//

namespace {

bool isBankConflict(const ReportedFinding &F) {
  return F.Check == checkName(CheckKind::BankConflict);
}

/// The finding's warp costed at \p Width bytes a lane: each active lane's
/// access starts where an aligned access of that width holding its first
/// word starts (a merged vector access is aligned to its size), on the
/// picture's layout as written.
LayoutPicture recost(const BankPicture &P, unsigned Width) {
  const LayoutPicture &L = P.Original;
  std::vector<std::optional<int64_t>> Lanes(L.LaneBank.size());
  for (size_t I = 0; I < Lanes.size(); ++I)
    if (L.LaneBank[I] >= 0 && I < L.LaneWord.size()) {
      int64_t Byte = L.LaneWord[I] * 4;
      Lanes[I] = Width > 4 ? Byte - Byte % Width : Byte;
    }
  BankModel Model;
  LayoutPicture R = makeLayoutPicture(
      Model, Lanes, Width, P.Store ? AccessOp::Store : AccessOp::Load);
  R.Label = "as compiled";
  return R;
}

} // namespace

void addCompiledEvidence(std::vector<ReportedFinding> &Findings,
                         const SharedListing &Listing, llvm::StringRef Arch,
                         llvm::StringRef Dir) {
  SourceFileMatcher Files(Listing.files(), Dir);
  for (ReportedFinding &F : Findings) {
    if (!isBankConflict(F))
      continue;
    std::optional<std::string> Named = Files.match(F.Loc.File, Dir);
    if (!Named)
      continue;
    CompiledEvidence E;
    E.Listing = Listing.formName().str();
    E.Arch = Arch.str();
    E.Store = F.Picture && F.Picture->Store;
    if (const std::vector<SharedInstruction> *At =
            Listing.at(*Named, F.Loc.Line))
      for (const SharedInstruction &I : *At)
        if (sharedOpMatches(I.Kind, E.Store))
          E.Instructions.push_back(I);
    if (F.Picture && !E.Instructions.empty()) {
      E.AssumedWidth = F.Picture->WidthBytes;
      bool Same = false, OneWidth = true, Narrower = true;
      for (const SharedInstruction &I : E.Instructions) {
        Same |= I.WidthBytes == E.AssumedWidth;
        OneWidth &= I.WidthBytes == E.Instructions.front().WidthBytes;
        Narrower &= I.WidthBytes < E.AssumedWidth;
      }
      // NVVM merges accesses it knows to be aligned into PTX vectors, and
      // ptxas may merge more of the scalar ones after it: narrower PTX is
      // no verdict.
      E.PtxasMayMerge =
          !Same && Narrower && Listing.form() == SharedListing::Form::Ptx;
      E.WidthDiffers = !Same && !E.PtxasMayMerge;
      if (E.WidthDiffers && OneWidth && E.Instructions.front().WidthBytes) {
        E.EmittedWidth = E.Instructions.front().WidthBytes;
        E.Recosted = recost(*F.Picture, E.EmittedWidth);
      }
    }
    F.Compiled = std::move(E);
  }
}

unsigned addMeasuredEvidence(std::vector<ReportedFinding> &Findings,
                             const NcuSourceReport &Report,
                             llvm::StringRef ReportName, llvm::StringRef Dir) {
  SourceFileMatcher Files(Report.files(), Dir);
  // Lines before any "File Path" row belong to no file: used only when the
  // report names none.
  std::vector<std::string> Named = Report.files();
  bool Unnamed = Named.size() == 1 && Named.front().empty();
  unsigned Covered = 0;
  for (ReportedFinding &F : Findings) {
    if (!isBankConflict(F))
      continue;
    std::optional<std::string> File =
        Unnamed ? std::optional<std::string>("") : Files.match(F.Loc.File, Dir);
    if (!File)
      continue;
    ++Covered;
    MeasuredEvidence E;
    E.Report = ReportName.str();
    E.Store = F.Picture && F.Picture->Store;
    if (F.Picture) {
      E.PredictedWavefronts = F.Picture->Original.Wavefronts;
      E.PredictedIdeal = F.Picture->Original.IdealWavefronts;
    }
    const NcuCounters *C = Report.at(
        *File, F.Loc.Line, E.Store ? NcuAccess::Store : NcuAccess::Load);
    if (!C) {
      C = Report.at(*File, F.Loc.Line, NcuAccess::LoadsAndStores);
      E.LoadsAndStores = C != nullptr;
    }
    if (C) {
      E.Found = true;
      E.Wavefronts = C->Wavefronts;
      E.Ideal = C->Ideal;
      E.Executions = C->Executions;
      E.Opcodes = C->Opcodes;
    }
    F.Measured = std::move(E);
  }
  return Covered;
}

//===----------------------------------------------------------------------===//
// Sentences
//===----------------------------------------------------------------------===//

namespace {

/// "4096", "4.25": whole numbers without decimals.
std::string number(double V) {
  if (std::fabs(V - std::round(V)) < 1e-9)
    return std::to_string(int64_t(std::llround(V)));
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.2f", V);
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  return S;
}

std::string instructionList(const std::vector<SharedInstruction> &Is) {
  std::string Out;
  for (size_t I = 0; I < Is.size(); ++I) {
    if (I)
      Out += I + 1 == Is.size() ? " and " : ", ";
    if (Is[I].Count > 1)
      Out += std::to_string(Is[I].Count) + " x ";
    Out += "'" + Is[I].Name + "'";
    if (Is[I].WidthBytes)
      Out += " (" + std::to_string(Is[I].WidthBytes) + " bytes)";
  }
  return Out;
}

} // namespace

std::string compiledNote(const CompiledEvidence &E) {
  std::string Access = E.Store ? "store" : "load";
  std::string Where = " at this line (" + E.Listing + ", " + E.Arch + ")";
  if (E.Instructions.empty())
    return "nvcc emits no shared-memory " + Access + Where +
           ": the access may have been moved to another line, kept in "
           "registers, or made through a generic pointer";
  std::string S = "nvcc emits " + instructionList(E.Instructions) + Where;
  if (!E.AssumedWidth)
    return S;
  std::string Assumed =
      std::to_string(E.AssumedWidth) + "-byte " + Access + "s";
  if (E.PtxasMayMerge)
    return S + ", narrower than the " + Assumed +
           " the prediction assumed; ptxas may still merge them, which only "
           "the SASS shows (nvdisasm beside nvcc)";
  if (!E.WidthDiffers)
    return S + ", the width the prediction assumed";
  if (!E.EmittedWidth)
    return S + ", none of them " + Assumed +
           " as the prediction assumed: re-check the degree";
  S += ": the prediction assumed " + Assumed + "; nvcc " +
       (E.EmittedWidth > E.AssumedWidth ? "merged" : "split") + " them into " +
       std::to_string(E.EmittedWidth) + "-byte ones: re-check the degree";
  if (E.Recosted)
    S += "; at " + std::to_string(E.EmittedWidth) +
         " bytes the same lanes need " + describeLayoutCost(*E.Recosted);
  return S;
}

std::string measuredNote(const MeasuredEvidence &E) {
  std::string In = "in '" + E.Report + "'";
  if (!E.Found)
    return "ncu measured no shared-memory wavefronts at this line " + In;
  auto IsAre = [](double V) { return V == 1 ? " is" : " are"; };
  std::string Opcodes = llvm::join(E.Opcodes, "/");
  std::vector<std::string> Aside;
  std::string S = "ncu measured ";
  if (E.Executions && *E.Executions > 0) {
    // Per execution, to compare with the prediction for one warp-wide
    // access; the totals depend on the launch.
    double N = *E.Executions;
    S += number(E.Wavefronts / N) + " wavefronts per warp-wide " +
         (E.LoadsAndStores ? "access"
          : E.Store        ? "store"
                           : "load") +
         " at this line";
    if (E.Ideal)
      S += " where " + number(*E.Ideal / N) + IsAre(*E.Ideal / N) + " ideal";
    std::string Totals = number(E.Wavefronts) + " wavefronts";
    if (E.Ideal)
      Totals += ", " + number(*E.Ideal) + " ideal";
    Totals += ", over " + number(N) + " executions";
    if (!Opcodes.empty())
      Totals += " of " + Opcodes;
    Aside.push_back(Totals);
  } else {
    S += number(E.Wavefronts) + " shared-memory wavefronts at this line";
    if (E.Ideal)
      S += " where " + number(*E.Ideal) + IsAre(*E.Ideal) + " ideal";
    if (!Opcodes.empty())
      Aside.push_back(Opcodes);
  }
  if (E.LoadsAndStores)
    Aside.push_back("its loads and stores together");
  Aside.push_back(In);
  S += " (" + llvm::join(Aside, "; ") + ")";
  if (E.PredictedIdeal) {
    S += "; the prediction is " + std::to_string(E.PredictedWavefronts) +
         " where " + std::to_string(E.PredictedIdeal) +
         IsAre(E.PredictedIdeal) + " ideal";
    if (std::optional<bool> A = E.agrees())
      S += *A ? ", which agrees"
           : E.PredictedWavefronts > E.PredictedIdeal
               ? ", but ncu measured no conflict"
               : ", but ncu measured a conflict";
  }
  return S;
}

std::vector<std::string> evidenceNotes(const ReportedFinding &F) {
  std::vector<std::string> Out;
  if (F.Compiled)
    Out.push_back(compiledNote(*F.Compiled));
  if (F.Measured)
    Out.push_back(measuredNote(*F.Measured));
  return Out;
}

} // namespace shmem
