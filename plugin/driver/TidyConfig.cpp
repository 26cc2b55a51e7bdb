//===- TidyConfig.cpp - shmem-* settings from .clang-tidy files -----------===//

#include "TidyConfig.h"

#include "Analysis/CheckOptions.h"
#include "Analysis/NoLint.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

namespace shmem {

//===----------------------------------------------------------------------===//
// Parsing one file
//===----------------------------------------------------------------------===//

std::vector<std::string> splitCheckGlobs(llvm::StringRef Checks) {
  std::vector<std::string> Out;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Checks.split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    llvm::SmallVector<llvm::StringRef, 2> Lines;
    P.split(Lines, '\n');
    for (llvm::StringRef L : Lines) {
      L = L.trim();
      if (!L.empty())
        Out.push_back(L.str());
    }
  }
  return Out;
}

namespace {

/// The text of a scalar (plain, quoted or block); std::nullopt for a
/// mapping, a sequence or an alias.
std::optional<std::string> scalarText(llvm::yaml::Node *N) {
  if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N)) {
    llvm::SmallString<64> Storage;
    return S->getValue(Storage).str();
  }
  if (auto *B = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(N))
    return B->getValue().str();
  return std::nullopt;
}

} // namespace

bool parseTidyConfig(llvm::StringRef Text, TidyConfigFile &Out,
                     std::string &Error) {
  Out = TidyConfigFile();
  llvm::SourceMgr SM;
  std::string YamlError;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        auto *E = static_cast<std::string *>(Ctx);
        if (E->empty())
          *E = ("line " + llvm::Twine(D.getLineNo()) + ": " + D.getMessage())
                   .str();
      },
      &YamlError);
  llvm::yaml::Stream S(Text, SM);
  auto Fail = [&](const llvm::Twine &Why) {
    Error = Why.str();
    return false;
  };
  for (llvm::yaml::Document &Doc : S) {
    llvm::yaml::Node *Root = Doc.getRoot();
    if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
      continue;
    auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
    if (!Map) {
      if (!YamlError.empty())
        return Fail(YamlError);
      return Fail("expected a mapping of clang-tidy settings");
    }
    for (llvm::yaml::KeyValueNode &KV : *Map) {
      std::optional<std::string> Key = scalarText(KV.getKey());
      llvm::yaml::Node *Value = KV.getValue();
      if (!YamlError.empty())
        return Fail(YamlError);
      if (!Key)
        continue;
      if (*Key == "Checks" || *Key == "WarningsAsErrors") {
        // Both are check lists, in the same shapes.
        std::vector<std::string> Globs;
        std::string Shape =
            "'" + *Key + "' must be a string or a list of strings";
        if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(Value)) {
          for (llvm::yaml::Node &Item : *Seq) {
            std::optional<std::string> T = scalarText(&Item);
            if (!T)
              return Fail(Shape);
            for (std::string &G : splitCheckGlobs(*T))
              Globs.push_back(std::move(G));
          }
        } else if (std::optional<std::string> T = scalarText(Value)) {
          Globs = splitCheckGlobs(*T);
        } else if (!llvm::isa_and_nonnull<llvm::yaml::NullNode>(Value)) {
          return Fail(Shape);
        }
        (*Key == "Checks" ? Out.Checks : Out.WarningsAsErrors) =
            std::move(Globs);
      } else if (*Key == "CheckOptions") {
        if (auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(Value)) {
          // The old form: a list of {key: K, value: V}.
          for (llvm::yaml::Node &Item : *Seq) {
            auto *Entry = llvm::dyn_cast<llvm::yaml::MappingNode>(&Item);
            if (!Entry)
              return Fail("each 'CheckOptions' entry must be {key: ..., "
                          "value: ...}");
            std::optional<std::string> K, V;
            for (llvm::yaml::KeyValueNode &E : *Entry) {
              std::optional<std::string> EK = scalarText(E.getKey());
              if (EK && *EK == "key")
                K = scalarText(E.getValue());
              else if (EK && *EK == "value")
                V = scalarText(E.getValue());
            }
            if (!K || !V)
              return Fail("each 'CheckOptions' entry must be {key: ..., "
                          "value: ...}");
            Out.CheckOptions.emplace_back(std::move(*K), std::move(*V));
          }
        } else if (auto *M =
                       llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(Value)) {
          // The current form: a map from key to value.
          for (llvm::yaml::KeyValueNode &E : *M) {
            std::optional<std::string> K = scalarText(E.getKey());
            std::optional<std::string> V = scalarText(E.getValue());
            if (!K || !V)
              return Fail("'CheckOptions' values must be strings or numbers");
            Out.CheckOptions.emplace_back(std::move(*K), std::move(*V));
          }
        } else if (!llvm::isa_and_nonnull<llvm::yaml::NullNode>(Value)) {
          return Fail("'CheckOptions' must be a mapping or a list of {key, "
                      "value}");
        }
      } else if (*Key == "InheritParentConfig") {
        std::optional<std::string> T = scalarText(Value);
        std::optional<bool> B = T ? llvm::yaml::parseBool(*T) : std::nullopt;
        if (!B)
          return Fail("'InheritParentConfig' must be true or false");
        Out.InheritParentConfig = *B;
      } else {
        // Settings of clang-tidy itself; walk them so that YAML errors in
        // them are still found.
        if (Value)
          Value->skip();
      }
      if (!YamlError.empty())
        return Fail(YamlError);
    }
    if (!YamlError.empty())
      return Fail(YamlError);
    break; // clang-tidy reads the first document only.
  }
  if (!YamlError.empty())
    return Fail(YamlError);
  return true;
}

//===----------------------------------------------------------------------===//
// Finding the files
//===----------------------------------------------------------------------===//

TidyConfigFinder::TidyConfigFinder(Reader R) : Read(std::move(R)) {
  if (!Read)
    Read = [](llvm::StringRef Path) -> std::optional<std::string> {
      if (llvm::sys::fs::is_directory(Path))
        return std::nullopt;
      auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buf)
        return std::nullopt;
      return (*Buf)->getBuffer().str();
    };
}

std::unique_ptr<TidyConfig> TidyConfigFinder::load(llvm::StringRef ConfigPath,
                                                   const std::string &Text) {
  auto C = std::make_unique<TidyConfig>();
  TidyConfigFile F;
  std::string Error;
  if (!parseTidyConfig(Text, F, Error)) {
    // clang-tidy stops with an error here; the driver names the file and
    // goes on with the defaults, like for any other bad input.
    C->Errors.push_back(ConfigPath.str() + ": " + Error);
    return C;
  }
  if (F.InheritParentConfig) {
    llvm::StringRef Dir = llvm::sys::path::parent_path(ConfigPath);
    llvm::StringRef Up = llvm::sys::path::parent_path(Dir);
    if (!Up.empty() && Up != Dir) {
      const TidyConfig &Parent = forDirectory(Up);
      *C = Parent;
    }
  }
  C->Files.push_back(ConfigPath.str());
  if (F.Checks) {
    C->HasChecks = true;
    C->CheckGlobs.insert(C->CheckGlobs.end(), F.Checks->begin(),
                         F.Checks->end());
  }
  if (F.WarningsAsErrors)
    C->WarningsAsErrorsGlobs.insert(C->WarningsAsErrorsGlobs.end(),
                                    F.WarningsAsErrors->begin(),
                                    F.WarningsAsErrors->end());
  for (auto &[K, V] : F.CheckOptions)
    C->Options[K] = V;
  return C;
}

const TidyConfig &TidyConfigFinder::forDirectory(llvm::StringRef Dir) {
  auto It = Cache.find(Dir.str());
  if (It != Cache.end())
    return *It->second;
  std::unique_ptr<TidyConfig> C;
  llvm::SmallString<256> Candidate(Dir);
  llvm::sys::path::append(Candidate, ".clang-tidy");
  if (std::optional<std::string> Text = Read(Candidate)) {
    C = load(Candidate, *Text);
  } else {
    llvm::StringRef Up = llvm::sys::path::parent_path(Dir);
    if (!Up.empty() && Up != Dir)
      C = std::make_unique<TidyConfig>(forDirectory(Up));
    else
      C = std::make_unique<TidyConfig>();
  }
  const TidyConfig &Ref = *C;
  Cache[Dir.str()] = std::move(C);
  return Ref;
}

const TidyConfig &TidyConfigFinder::forFile(llvm::StringRef AbsFile) {
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(AbsFile));
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return forDirectory(Dir);
}

const TidyConfig &TidyConfigFinder::forConfigFile(llvm::StringRef Path) {
  std::string Key = "file:" + Path.str();
  auto It = Cache.find(Key);
  if (It != Cache.end())
    return *It->second;
  std::unique_ptr<TidyConfig> C;
  if (std::optional<std::string> Text = Read(Path)) {
    llvm::SmallString<256> Abs(Path);
    llvm::sys::fs::make_absolute(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    C = load(Abs, *Text);
  } else {
    C = std::make_unique<TidyConfig>();
    C->Errors.push_back(Path.str() + ": cannot read the file");
  }
  const TidyConfig &Ref = *C;
  Cache[Key] = std::move(C);
  return Ref;
}

//===----------------------------------------------------------------------===//
// Applying the settings
//===----------------------------------------------------------------------===//

namespace {
/// The registry entry for clang-tidy's shmem-<check>.Name.
const CheckOption *optionOf(CheckKind Check, llvm::StringRef Name) {
  for (const CheckOption &Opt : checkOptions())
    if (Opt.Check == Check && Opt.Name == Name)
      return &Opt;
  return nullptr;
}
} // namespace

void applyCheckOptions(const std::map<std::string, std::string> &Options,
                       std::array<AnalysisOptions, NumCheckKinds> &PerCheck,
                       std::vector<std::string> &Warnings) {
  // A global BlockDim (clang-tidy's getLocalOrGlobal) is every check's
  // shape; a check's own key, read after it, still wins.
  auto Global = Options.find("BlockDim");
  if (Global != Options.end() && !llvm::StringRef(Global->second).trim().empty()) {
    if (std::optional<Dim3> D =
            Dim3::parse(llvm::StringRef(Global->second).trim().str()))
      for (AnalysisOptions &O : PerCheck)
        O.BlockDim = D;
    else
      Warnings.push_back("invalid value '" + Global->second +
                         "' for 'BlockDim'; expected a block shape such as "
                         "256 or 32x8");
  }
  for (const auto &Option : Options) {
    const std::string &Key = Option.first, &Value = Option.second;
    llvm::StringRef K(Key);
    if (!K.starts_with("shmem-"))
      continue; // Another check's option, or the global BlockDim.
    auto [Check, Name] = K.rsplit('.');
    CheckKind Kind;
    if (Name.empty() || !checkFromName(Check, Kind)) {
      Warnings.push_back("unknown check option '" + Key + "'");
      continue;
    }
    AnalysisOptions &O = PerCheck[static_cast<unsigned>(Kind)];
    auto Bad = [&](llvm::StringRef Expected) {
      Warnings.push_back("invalid value '" + Value + "' for '" + Key +
                         "'; expected " + Expected.str());
    };
    if (Name == "WarpSize") {
      std::optional<unsigned> N = parseUnsignedOption(Value);
      if (!N || *N != CudaWarpSize)
        Bad(std::string("32 (") + WarpSizeReason + ")");
      else
        O.WarpSize = *N;
    } else if (Name == "BlockDim") {
      if (llvm::StringRef(Value).trim().empty()) {
        O.BlockDim.reset(); // What clang-tidy stores for "not set".
      } else if (std::optional<Dim3> D =
                     Dim3::parse(llvm::StringRef(Value).trim().str())) {
        O.BlockDim = D;
      } else {
        Bad("a block shape such as 256 or 32x8");
      }
    } else if (const CheckOption *Opt = optionOf(Kind, Name)) {
      if (!Opt->set(O, Value))
        Bad(Opt->expected());
    } else {
      Warnings.push_back("unknown check option '" + Key + "'");
    }
  }
}

std::vector<AnalysisOptions> planAnalysisRuns(const CheckSettings &S) {
  std::vector<AnalysisOptions> Runs;
  for (unsigned K = 0; K < NumCheckKinds; ++K) {
    if (!S.Enabled.test(K))
      continue;
    const AnalysisOptions &O = S.PerCheck[K];
    AnalysisOptions *Run = nullptr;
    for (AnalysisOptions &R : Runs)
      if (R.WarpSize == O.WarpSize && R.BlockDim == O.BlockDim &&
          R.DefaultBlockDim == O.DefaultBlockDim &&
          R.InlineDepth == O.InlineDepth)
        Run = &R;
    if (!Run) {
      Runs.push_back(O);
      Run = &Runs.back();
      Run->Enabled.reset();
    }
    Run->enable(CheckKind(K));
    for (const CheckOption &Opt : checkOptions())
      if (Opt.Check == CheckKind(K))
        Opt.copy(O, *Run);
  }
  return Runs;
}

} // namespace shmem
