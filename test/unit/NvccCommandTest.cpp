//===- NvccCommandTest.cpp - nvcc compile commands -> clang ---------------===//
//
// The command lines below are what CMake (3.25 to 3.31) writes into
// compile_commands.json for a CUDA target, after clang::tooling has split the
// "command" string into words, and what it writes into build.make.
//
//===----------------------------------------------------------------------===//

#include "NvccCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace shmem;
using Strings = std::vector<std::string>;

namespace {

/// A fresh directory, removed with its files at the end of the test.
class TempDir {
public:
  TempDir() {
    std::error_code EC =
        llvm::sys::fs::createUniqueDirectory("shmem-nvcc-test", Path);
    EXPECT_FALSE(EC) << EC.message();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string path() const { return std::string(Path); }
  std::string write(llvm::StringRef Rel, llvm::StringRef Content) const {
    llvm::SmallString<256> P(Path);
    llvm::sys::path::append(P, Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS << Content;
    return std::string(P);
  }

private:
  llvm::SmallString<128> Path;
};

bool contains(const Strings &Haystack, llvm::StringRef Needle) {
  for (const std::string &S : Haystack)
    if (llvm::StringRef(S).contains(Needle))
      return true;
  return false;
}

std::string dump(const TranslatedCommand &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "Args:";
  for (const std::string &A : R.Args)
    OS << " [" << A << "]";
  for (const std::string &N : R.Dropped)
    OS << "\n  note: " << N;
  for (const std::string &W : R.Warnings)
    OS << "\n  warning: " << W;
  for (const std::string &E : R.Errors)
    OS << "\n  error: " << E;
  return S;
}

/// Translates "nvcc <Flags> -c /src/k.cu -o k.o" and returns the result.
TranslatedCommand nvcc(const Strings &Flags, llvm::StringRef Dir = "/build") {
  Strings Cmd = {"/usr/local/cuda/bin/nvcc"};
  Cmd.insert(Cmd.end(), Flags.begin(), Flags.end());
  Cmd.insert(Cmd.end(), {"-c", "/src/k.cu", "-o", "k.o"});
  return translateCompileCommand(Cmd, Dir);
}

/// Args of nvcc(Flags), expecting no warning and no error.
Strings cleanArgs(const Strings &Flags) {
  TranslatedCommand R = nvcc(Flags);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  return R.Args;
}

//===----------------------------------------------------------------------===//
// Whole commands as CMake writes them
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, CMakeMakefilesWithOptionsFile) {
  TempDir Build;
  // CMake's Makefiles generator puts the include paths into a response file
  // (always for nvcc since 3.29.5; before, depending on the length).
  Build.write("CMakeFiles/kern.dir/includes_CUDA.rsp",
              "-I\"/work/src/include\" -I\"/work/src/third party\" "
              "-isystem=\"/work/src/sys\"\n");
  Strings Cmd = {"/usr/local/cuda/bin/nvcc",
                 "-forward-unknown-to-host-compiler",
                 "-DBAR=\"x y\"",
                 "-DUSE_FOO=1",
                 "--options-file",
                 "CMakeFiles/kern.dir/includes_CUDA.rsp",
                 "-O3",
                 "-DNDEBUG",
                 "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                 "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                 "-Xcompiler=-fPIC",
                 "--expt-relaxed-constexpr",
                 "--extended-lambda",
                 "-Xcompiler=-Wall",
                 "-lineinfo",
                 "-std=c++17",
                 "-x",
                 "cu",
                 "-rdc=true",
                 "-c",
                 "/work/src/kern.cu",
                 "-o",
                 "CMakeFiles/kern.dir/kern.cu.o"};
  TranslatedCommand R = translateCompileCommand(Cmd, Build.path());
  EXPECT_TRUE(R.IsNvcc);
  EXPECT_TRUE(R.IsCuda);
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_EQ(R.InputFile, "/work/src/kern.cu");
  EXPECT_EQ(R.OutputFile, "CMakeFiles/kern.dir/kern.cu.o");
  Strings Want = {"-DBAR=\"x y\"",
                  "-DUSE_FOO=1",
                  "-I/work/src/include",
                  "-I/work/src/third party",
                  "-isystem",
                  "/work/src/sys",
                  "-O3",
                  "-DNDEBUG",
                  "-fPIC",
                  "-Wall",
                  "-std=c++17",
                  "-x",
                  "cuda",
                  "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_90"};
  EXPECT_EQ(R.Args, Want) << dump(R);
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_80", "sm_90"}));
  EXPECT_TRUE(contains(R.Dropped, "includes_CUDA.rsp")) << dump(R);
  for (const char *F :
       {"--expt-relaxed-constexpr", "--extended-lambda", "-lineinfo",
        "-rdc=true", "-forward-unknown-to-host-compiler"})
    EXPECT_TRUE(contains(R.Dropped, std::string("nvcc-only flag '") + F))
        << F << "\n"
        << dump(R);
}

TEST(NvccCommandTest, CMakeNinja) {
  // Ninja: include paths inline; newer CMake also writes the depfile flags.
  Strings Cmd = {"/usr/local/cuda-12.4/bin/nvcc",
                 "-forward-unknown-to-host-compiler",
                 "-DKERNELS_EXPORTS",
                 "-I/work/src/include",
                 "-isystem",
                 "/usr/local/cuda-12.4/targets/x86_64-linux/include",
                 "-g",
                 "-G",
                 "-std=c++20",
                 "\"--generate-code=arch=compute_86,code=[compute_86,sm_86]\"",
                 "-Xcompiler=-fPIC",
                 "-Xcompiler=-fvisibility=hidden",
                 "-MD",
                 "-MT",
                 "src/CMakeFiles/kernels.dir/kern.cu.o",
                 "-MF",
                 "src/CMakeFiles/kernels.dir/kern.cu.o.d",
                 "-x",
                 "cu",
                 "-c",
                 "/work/src/kern.cu",
                 "-o",
                 "src/CMakeFiles/kernels.dir/kern.cu.o"};
  // clang::tooling splits the "command" string like a shell and removes the
  // quotes; some generators put them in "arguments" verbatim. Both work.
  Cmd[9] = "--generate-code=arch=compute_86,code=[compute_86,sm_86]";
  TranslatedCommand R = translateCompileCommand(Cmd, "/work/build");
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  Strings Want = {"-DKERNELS_EXPORTS",
                  "-I/work/src/include",
                  "-isystem",
                  "/usr/local/cuda-12.4/targets/x86_64-linux/include",
                  "-g",
                  "-std=c++20",
                  "-fPIC",
                  "-fvisibility=hidden",
                  "-x",
                  "cuda",
                  "--cuda-gpu-arch=sm_86"};
  EXPECT_EQ(R.Args, Want) << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "dependency-file flag '-MF "
                                  "src/CMakeFiles/kernels.dir/kern.cu.o.d'"))
      << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "dependency-file flag '-MT "));
  EXPECT_TRUE(contains(R.Dropped, "dependency-file flag '-MD'"));
  EXPECT_TRUE(contains(R.Dropped, "nvcc-only flag '-G'"));
}

TEST(NvccCommandTest, CMakeSeparableCompilationAndArchitecturesNative) {
  // CUDA_SEPARABLE_COMPILATION ON, CUDA_ARCHITECTURES native, ccache launcher.
  Strings Cmd = {"/usr/bin/ccache",
                 "/opt/cuda/bin/nvcc",
                 "-forward-unknown-to-host-compiler",
                 "-I/work/include",
                 "-O2",
                 "-g",
                 "-DNDEBUG",
                 "-std=c++17",
                 "-arch=native",
                 "-Xcompiler=-fPIC",
                 "-x",
                 "cu",
                 "-rdc=true",
                 "-c",
                 "/work/src/a.cu",
                 "-o",
                 "CMakeFiles/a.dir/src/a.cu.o"};
  TranslatedCommand R = translateCompileCommand(Cmd, "/work/build");
  EXPECT_TRUE(R.IsNvcc);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_EQ(R.CudaArchs, (Strings{DefaultCudaArch}));
  EXPECT_EQ(R.Args.back(), std::string("--cuda-gpu-arch=") + DefaultCudaArch);
  EXPECT_TRUE(contains(R.Dropped, "skipped compiler launcher"));
  EXPECT_TRUE(contains(R.Dropped, "-arch=native")) << dump(R);
}

TEST(NvccCommandTest, BuildMakeLineWithDependencyFlags) {
  // The line CMake's Makefiles generator runs (build.make), with the rsp.
  TempDir Build;
  Build.write("CMakeFiles/kern.dir/includes_CUDA.rsp", "-I/work/src/include\n");
  Strings Cmd = {"/usr/local/cuda/bin/nvcc",
                 "-forward-unknown-to-host-compiler",
                 "--options-file",
                 "CMakeFiles/kern.dir/includes_CUDA.rsp",
                 "-MD",
                 "-MT",
                 "CMakeFiles/kern.dir/kern.cu.o",
                 "-MF",
                 "CMakeFiles/kern.dir/kern.cu.o.d",
                 "-x",
                 "cu",
                 "-rdc=true",
                 "-c",
                 "/work/src/kern.cu",
                 "-o",
                 "CMakeFiles/kern.dir/kern.cu.o"};
  TranslatedCommand R = translateCompileCommand(Cmd, Build.path());
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-I/work/src/include", "-x", "cuda"}));
  EXPECT_TRUE(R.CudaArchs.empty());
}

//===----------------------------------------------------------------------===//
// Response files
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, OptionsFileQuotingLikeNvcc) {
  EXPECT_EQ(tokenizeNvccOptionsFile("-I\"/a b\" -DX=1\n-DY=2\r\n"),
            (Strings{"-I/a b", "-DX=1", "-DY=2"}));
  // A backslash keeps the next character; single quotes are ordinary.
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA=a\\ b -DG='x' -DQ=\"q\\\"r\""),
            (Strings{"-DA=a b", "-DG='x'", "-DQ=q\"r"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("-DD=x\"y z\"w\t-DK"),
            (Strings{"-DD=xy zw", "-DK"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA \\\n -DB"), (Strings{"-DA", "-DB"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("\"\""), (Strings{""}));
  EXPECT_TRUE(tokenizeNvccOptionsFile(" \n\t ").empty());
}

TEST(NvccCommandTest, OptionsFileSpellingsAndNesting) {
  TempDir Build;
  Build.write("a.rsp", "-DFROM_A --options-file sub/b.rsp -DAFTER_B");
  Build.write("sub/b.rsp", "-DFROM_B -optf=c.rsp");
  Build.write("c.rsp", "-I\"/inc c\"");
  Build.write("d.rsp", "-DFROM_D");
  TranslatedCommand R = translateCompileCommand(
      {"nvcc", "-optf", "a.rsp", "--options-file=d.rsp", "-c", "k.cu"},
      Build.path());
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-DFROM_A", "-DFROM_B", "-I/inc c", "-DAFTER_B",
                             "-DFROM_D"}));
  EXPECT_EQ(R.InputFile, Build.path() + "/k.cu");
}

TEST(NvccCommandTest, OptionsFileListAndAbsolutePath) {
  TempDir Build;
  std::string A = Build.write("x/a.rsp", "-DA");
  Build.write("b.rsp", "-DB");
  TranslatedCommand R = translateCompileCommand(
      {"nvcc", "--options-file", A + ",b.rsp", "-c", "k.cu"}, Build.path());
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-DA", "-DB"}));
}

TEST(NvccCommandTest, GnuResponseFile) {
  TempDir Build;
  // gcc's rules: single and double quotes, backslash escapes.
  Build.write("flags.rsp", "-I'/with space' \"-DQ=a b\" -DE=x\\ y @more.rsp");
  Build.write("more.rsp", "-DMORE");
  TranslatedCommand R = translateCompileCommand(
      {"/usr/bin/clang++", "@flags.rsp", "-c", "k.cu"}, Build.path());
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-I/with space", "-DQ=a b", "-DE=x y", "-DMORE"}));
  // nvcc commands take @file too.
  R = translateCompileCommand({"nvcc", "@more.rsp", "-c", "k.cu"},
                              Build.path());
  EXPECT_EQ(R.Args, (Strings{"-DMORE"}));
}

TEST(NvccCommandTest, UnreadableAndCyclicResponseFiles) {
  TempDir Build;
  TranslatedCommand R = translateCompileCommand(
      {"nvcc", "--options-file", "missing.rsp", "-DKEEP", "-c", "k.cu"},
      Build.path());
  ASSERT_EQ(R.Errors.size(), 1u) << dump(R);
  EXPECT_TRUE(llvm::StringRef(R.Errors[0]).contains("missing.rsp"));
  EXPECT_EQ(R.Args, (Strings{"-DKEEP"}));

  Build.write("loop.rsp", "-DL --options-file loop.rsp");
  R = translateCompileCommand({"nvcc", "-optf", "loop.rsp", "-c", "k.cu"},
                              Build.path());
  ASSERT_EQ(R.Errors.size(), 1u) << dump(R);
  EXPECT_TRUE(llvm::StringRef(R.Errors[0]).contains("nested too deeply"));

  R = translateCompileCommand({"nvcc", "-c", "k.cu", "--options-file"},
                              Build.path());
  EXPECT_EQ(R.Errors.size(), 1u) << dump(R);

  // A file naming itself twice: 2^16 reads within the depth limit, were it
  // not for the limit on files read (found by the driver fuzzer).
  Build.write("twice.rsp", "-DT @twice.rsp @twice.rsp");
  R = translateCompileCommand({"nvcc", "@twice.rsp", "-c", "k.cu"},
                              Build.path());
  EXPECT_TRUE(llvm::any_of(R.Errors, [](const std::string &E) {
    return llvm::StringRef(E).contains("more than 256");
  })) << dump(R);
  EXPECT_EQ(llvm::count(R.Args, "-DT"), 256);
}

//===----------------------------------------------------------------------===//
// GPU architectures
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, ArchSpellings) {
  struct Case {
    Strings Flags;
    Strings Archs;
  } Cases[] = {
      {{"-arch=sm_80"}, {"sm_80"}},
      {{"-arch", "sm_80"}, {"sm_80"}},
      {{"--gpu-architecture=compute_90"}, {"sm_90"}},
      {{"--gpu-architecture", "sm_90a"}, {"sm_90a"}},
      {{"-arch=compute_80", "-code=sm_80,compute_80"}, {"sm_80"}},
      {{"-arch=lto_89"}, {"sm_89"}},
      {{"-gencode", "arch=compute_80,code=sm_80"}, {"sm_80"}},
      {{"-gencode=arch=compute_80,code=[compute_80,sm_80]"}, {"sm_80"}},
      {{"-gencode", "arch=compute_52,code=\"sm_52,compute_52\""}, {"sm_52"}},
      {{"--generate-code=arch=compute_80,code=[compute_80,sm_80]"}, {"sm_80"}},
      {{"--generate-code", "arch=compute_75,code=sm_75"}, {"sm_75"}},
      // Several specifications in one value.
      {{"-gencode=arch=compute_70,code=sm_70,arch=compute_90,code=sm_90"},
       {"sm_70", "sm_90"}},
      // __CUDA_ARCH__ follows the virtual architecture.
      {{"-gencode", "arch=compute_70,code=sm_80"}, {"sm_70"}},
      // The last -arch counts; -gencode accumulates with it.
      {{"-arch=sm_80", "-arch=sm_90"}, {"sm_90"}},
      {{"-gencode=arch=compute_80,code=sm_80", "-arch=sm_90"},
       {"sm_80", "sm_90"}},
      // Lowest first, without duplicates.
      {{"-gencode=arch=compute_90,code=sm_90",
        "-gencode=arch=compute_80,code=sm_80",
        "-gencode=arch=compute_86,code=sm_86",
        "-gencode=arch=compute_80,code=compute_80",
        "-gencode=arch=compute_90a,code=sm_90a",
        "-gencode=arch=compute_100,code=sm_100"},
       {"sm_80", "sm_86", "sm_90", "sm_90a", "sm_100"}},
      // nvcc wants -arch with -code; be lenient.
      {{"-code=sm_86"}, {"sm_86"}},
      // Family variants clang 22 does not know compile as the base.
      {{"-arch=sm_100f"}, {"sm_100"}},
      {{"-arch=native"}, {DefaultCudaArch}},
      {{"-arch=all"}, {DefaultCudaArch}},
      {{"-arch", "all-major"}, {DefaultCudaArch}},
      {{}, {}},
  };
  for (const Case &C : Cases) {
    TranslatedCommand R = nvcc(C.Flags);
    std::string Ctx = llvm::join(C.Flags, " ") + "\n" + dump(R);
    EXPECT_TRUE(R.Warnings.empty()) << Ctx;
    EXPECT_EQ(R.CudaArchs, C.Archs) << Ctx;
    Strings ArchArgs;
    for (const std::string &A : C.Archs)
      ArchArgs.push_back("--cuda-gpu-arch=" + A);
    EXPECT_EQ(R.Args, ArchArgs) << Ctx;
  }
}

TEST(NvccCommandTest, UnknownArchitecture) {
  TranslatedCommand R = nvcc({"-arch=sm_999"});
  EXPECT_TRUE(contains(R.Warnings, "sm_999")) << dump(R);
  EXPECT_EQ(R.CudaArchs, (Strings{DefaultCudaArch}));
  R = nvcc({"-arch=sm_999", "-gencode=arch=compute_80,code=sm_80"});
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_80"}));
}

TEST(NvccCommandTest, ClangCudaArchNames) {
  EXPECT_EQ(clangCudaArch("sm_80"), "sm_80");
  EXPECT_EQ(clangCudaArch("compute_86"), "sm_86");
  EXPECT_EQ(clangCudaArch("lto_90"), "sm_90");
  EXPECT_EQ(clangCudaArch("sm_90a"), "sm_90a");
  EXPECT_EQ(clangCudaArch("compute_90a"), "sm_90a");
  EXPECT_EQ(clangCudaArch("sm_100a"), "sm_100a");
  EXPECT_EQ(clangCudaArch("sm_120f"), "sm_120");
  EXPECT_EQ(clangCudaArch("sm_999"), "");
  EXPECT_EQ(clangCudaArch("gfx90a"), "");
  EXPECT_EQ(clangCudaArch("sm_"), "");
  EXPECT_EQ(clangCudaArch("native"), "");
}

//===----------------------------------------------------------------------===//
// Host-compiler flags
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, XcompilerSpellings) {
  EXPECT_EQ(cleanArgs({"-Xcompiler=-fPIC,-Wall"}), (Strings{"-fPIC", "-Wall"}));
  EXPECT_EQ(cleanArgs({"-Xcompiler", "-fPIC"}), (Strings{"-fPIC"}));
  EXPECT_EQ(cleanArgs({"--compiler-options", "-fPIC,-Wextra"}),
            (Strings{"-fPIC", "-Wextra"}));
  EXPECT_EQ(cleanArgs({"--compiler-options=-fno-strict-aliasing"}),
            (Strings{"-fno-strict-aliasing"}));
  // A quoted group of words, as in -Xcompiler "-O2 -g".
  EXPECT_EQ(cleanArgs({"-Xcompiler", "-O2 -g"}), (Strings{"-O2", "-g"}));
  // Flags with a separate value, as nvcc hands them on.
  EXPECT_EQ(cleanArgs({"-Xcompiler", "-isystem,/opt/x/include"}),
            (Strings{"-isystem", "/opt/x/include"}));
  EXPECT_EQ(
      cleanArgs({"-Xcompiler=-DA=1,-UB,-I/i,-include,pre.h,-std=gnu++17"}),
      (Strings{"-DA=1", "-UB", "-I/i", "-include", "pre.h", "-std=gnu++17"}));
  EXPECT_EQ(cleanArgs({"-Xcompiler=-fopenmp,-pthread,-w"}),
            (Strings{"-fopenmp", "-pthread", "-w"}));
}

TEST(NvccCommandTest, XcompilerDropsWhatClangShouldNotGet) {
  TranslatedCommand R = nvcc(
      {"-Xcompiler=-Werror,-Wno-error=unused,-fipa-pta,-march=native,-pipe",
       "-Xcompiler", "-Werror=shadow", "-Xcompiler", "-Wl\\,-rpath\\,/x",
       "-Xcompiler", "-fno-gcse", "-Xcompiler", "-iquote"});
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-Wno-error=unused"})) << dump(R);
  for (const char *F : {"'-Werror' (from -Xcompiler)", "'-fipa-pta'",
                        "'-march=native'", "'-pipe'", "'-Werror=shadow'",
                        "'-Wl,-rpath,/x'", "'-fno-gcse'", "'-iquote'"})
    EXPECT_TRUE(contains(R.Dropped, F)) << F << "\n" << dump(R);
}

TEST(NvccCommandTest, GpuFlagsAreNoHostCompilerFlags) {
  // clang files --offload-arch, --cuda-gpu-arch and -fgpu-rdc under -f; as
  // host-compiler flags they would have added architectures behind
  // CudaArchs' back (found by the driver fuzzer).
  TranslatedCommand R =
      nvcc({"-forward-unknown-to-host-compiler", "-arch=sm_80",
            "--offload-arch=sm_70,sm_90", "--cuda-gpu-arch=sm_75",
            "-Xcompiler=-fgpu-rdc,-fPIC"});
  EXPECT_EQ(R.Args, (Strings{"-fPIC", "--cuda-gpu-arch=sm_80"})) << dump(R);
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_80"}));
  for (const char *F : {"'--offload-arch=sm_70,sm_90' (forwarded",
                        "'--cuda-gpu-arch=sm_75' (forwarded",
                        "'-fgpu-rdc' (from -Xcompiler)"})
    EXPECT_TRUE(contains(R.Dropped, F)) << F << "\n" << dump(R);
  // A clang command's own architecture flags still count, and
  // --no-offload-arch is not passed on next to them.
  R = translateCompileCommand({"clang++", "--offload-arch=sm_70,sm_90",
                               "--no-offload-arch=sm_70", "-fgpu-rdc",
                               "-c", "k.cu"},
                              "/build");
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_70", "sm_90"}));
  EXPECT_EQ(R.Args,
            (Strings{"-fgpu-rdc", "--cuda-gpu-arch=sm_70", "--cuda-gpu-arch=sm_90"}))
      << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "'--no-offload-arch=sm_70'")) << dump(R);
}

TEST(NvccCommandTest, ForwardUnknownToHostCompiler) {
  // With the flag (wherever it stands), unknown flags are host flags.
  TranslatedCommand R =
      nvcc({"-fopenmp", "-Wshadow", "-fipa-pta", "-march=native",
            "-Wfatal-errors", "-forward-unknown-to-host-compiler"});
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-fopenmp", "-Wshadow"})) << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "'-fipa-pta' (forwarded to the host "
                                  "compiler): clang does not know it"))
      << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "'-march=native'"));
  EXPECT_TRUE(contains(R.Dropped, "'-Wfatal-errors' (forwarded"));

  R = nvcc({"-forward-unknown-opts", "-fPIC"});
  EXPECT_EQ(R.Args, (Strings{"-fPIC"})) << dump(R);

  // Without it, nvcc would fail on them: they are warnings here.
  R = nvcc({"-fopenmp", "--foo"});
  EXPECT_TRUE(R.Args.empty()) << dump(R);
  EXPECT_TRUE(contains(R.Warnings, "unknown nvcc flag '-fopenmp' dropped"));
  EXPECT_TRUE(contains(R.Warnings, "unknown nvcc flag '--foo' dropped"));
}

TEST(NvccCommandTest, UnknownFlagWithValue) {
  // Only the flag is dropped; its value is then a stray argument.
  TranslatedCommand R = nvcc({"--new-flag", "value", "-DKEEP"});
  EXPECT_EQ(R.Args, (Strings{"-DKEEP"}));
  EXPECT_EQ(R.InputFile, "/src/k.cu");
  ASSERT_EQ(R.Warnings.size(), 2u) << dump(R);
  EXPECT_TRUE(contains(R.Warnings, "unknown nvcc flag '--new-flag' dropped"));
  EXPECT_TRUE(contains(R.Warnings, "ignored argument 'value'"));
}

//===----------------------------------------------------------------------===//
// Flags that map, flags that are kept
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, PreprocessorFlags) {
  EXPECT_EQ(cleanArgs({"-I/a", "-I", "/b", "-I=/c", "--include-path=/d",
                       "--include-path", "/e,/f"}),
            (Strings{"-I/a", "-I/b", "-I/c", "-I/d", "-I/e", "-I/f"}));
  EXPECT_EQ(
      cleanArgs({"-isystem", "/s1", "-isystem=/s2", "--system-include=/s3"}),
      (Strings{"-isystem", "/s1", "-isystem", "/s2", "-isystem", "/s3"}));
  // nvcc splits -D values at commas: -DLIST=a,b defines LIST=a and b.
  EXPECT_EQ(cleanArgs({"-DX", "-D", "Y=2", "-DLIST=a,b", "-DESC=a\\,b",
                       "--define-macro=Z", "-UNDEBUG", "-U", "W",
                       "--undefine-macro=V"}),
            (Strings{"-DX", "-DY=2", "-DLIST=a", "-Db", "-DESC=a,b", "-DZ",
                     "-UNDEBUG", "-UW", "-UV"}));
  EXPECT_EQ(
      cleanArgs({"-include", "pre.h", "--pre-include=a.h,b.h"}),
      (Strings{"-include", "pre.h", "-include", "a.h", "-include", "b.h"}));
}

TEST(NvccCommandTest, LanguageStandardOptimizationDebug) {
  EXPECT_EQ(cleanArgs({"-std=c++17"}), (Strings{"-std=c++17"}));
  EXPECT_EQ(cleanArgs({"--std=c++17"}), (Strings{"-std=c++17"}));
  EXPECT_EQ(cleanArgs({"-std", "c++20"}), (Strings{"-std=c++20"}));
  EXPECT_EQ(cleanArgs({"--std", "c++14"}), (Strings{"-std=c++14"}));
  EXPECT_EQ(cleanArgs({"-O3", "-O", "2", "-O=1", "--optimize=0"}),
            (Strings{"-O3", "-O2", "-O1", "-O0"}));
  EXPECT_EQ(cleanArgs({"-g", "--debug"}), (Strings{"-g", "-g"}));
  EXPECT_EQ(cleanArgs({"-noeh", "-ftemplate-depth", "512",
                       "-ftemplate-backtrace-limit=0", "-w", "-Wreorder",
                       "-Wno-deprecated-declarations"}),
            (Strings{"-fno-exceptions", "-ftemplate-depth=512",
                     "-ftemplate-backtrace-limit=0", "-w", "-Wreorder",
                     "-Wno-deprecated-declarations"}));
  EXPECT_EQ(cleanArgs({"--default-stream", "per-thread"}),
            (Strings{"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"}));
  EXPECT_TRUE(cleanArgs({"--default-stream=legacy"}).empty());
}

TEST(NvccCommandTest, InputLanguage) {
  TranslatedCommand R = nvcc({"-x", "cu"});
  EXPECT_EQ(R.Args, (Strings{"-x", "cuda"}));
  EXPECT_TRUE(R.IsCuda);

  R = translateCompileCommand({"nvcc", "-x", "c++", "-c", "src/host.cu"},
                              "/work/build");
  EXPECT_EQ(R.Args, (Strings{"-x", "c++"}));
  EXPECT_FALSE(R.IsCuda);
  EXPECT_EQ(R.InputFile, "/work/build/src/host.cu");

  R = translateCompileCommand({"nvcc", "-c", "../src/./k.cu"}, "/work/build");
  EXPECT_TRUE(R.Args.empty());
  EXPECT_TRUE(R.IsCuda);
  EXPECT_EQ(R.InputFile, "/work/src/k.cu");

  R = translateCompileCommand({"nvcc", "-c", "main.cpp"}, "/work");
  EXPECT_FALSE(R.IsCuda);

  R = translateCompileCommand({"nvcc", "-x=c", "-c", "a.c"}, "/work");
  EXPECT_EQ(R.Args, (Strings{"-x", "c"}));
}

//===----------------------------------------------------------------------===//
// Flags that are dropped
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, NvccOnlyFlagsAreDroppedWithTheirArguments) {
  // Each entry: the words, and the text the note quotes.
  const std::vector<Strings> Families = {
      {"--expt-relaxed-constexpr"},
      {"-expt-relaxed-constexpr"},
      {"--expt-extended-lambda"},
      {"--extended-lambda"},
      {"-extended-lambda"},
      {"-rdc=true"},
      {"-rdc", "false"},
      {"--relocatable-device-code=true"},
      {"--relocatable-device-code", "false"},
      {"-dc"},
      {"--device-c"},
      {"-dlink"},
      {"-ccbin", "/usr/bin/g++-12"},
      {"-ccbin=g++"},
      {"--compiler-bindir", "/usr/bin/g++-12"},
      {"--compiler-bindir=/opt/gcc/bin"},
      {"-forward-unknown-to-host-compiler"},
      {"--forward-unknown-to-host-compiler"},
      {"-forward-unknown-opts"},
      {"--use_fast_math"},
      {"-use_fast_math"},
      {"-lineinfo"},
      {"--generate-line-info"},
      {"-G"},
      {"--device-debug"},
      {"--keep"},
      {"-keep-dir", "/tmp/k"},
      {"--save-temps"},
      {"-maxrregcount=32"},
      {"-maxrregcount", "64"},
      {"--maxrregcount=32"},
      {"--ftz=true"},
      {"-ftz", "false"},
      {"--prec-div=false"},
      {"-prec-sqrt", "true"},
      {"--fmad=false"},
      {"-t", "4"},
      {"-t4"},
      {"-t=0"},
      {"--threads", "8"},
      {"--threads=0"},
      {"--diag-suppress", "177"},
      {"-diag-suppress=177,550"},
      {"--diag-suppress=20012"},
      {"-diag-warn=1"},
      {"-Werror=all-warnings"},
      {"-Werror", "all-warnings"},
      {"--display-error-number"},
      {"-err-no"},
      {"-Xcudafe", "--diag_suppress=177"},
      {"-Xcudafe=--display_error_number"},
      {"-Xptxas", "-v"},
      {"-Xptxas=-v,-O3"},
      {"--ptxas-options=-v"},
      {"-Xnvlink", "--suppress-stack-size-warning"},
      {"--nvlink-options=-v"},
      {"-Xlinker", "-rpath=/x"},
      {"--linker-options", "--as-needed"},
      {"-Xfatbin", "-compress-all"},
      {"-Xarchive", "-x"},
      {"--default-stream", "legacy"},
      {"-m64"},
      {"--machine", "64"},
      {"-cudart", "shared"},
      {"--cudart=static"},
      {"-lcudart"},
      {"-L/usr/local/cuda/lib64"},
      {"-allow-unsupported-compiler"},
      {"-Wno-deprecated-gpu-targets"},
      {"-Wext-lambda-captures-this"},
      {"--resource-usage"},
      {"-split-compile=0"},
      {"--dopt=on"},
      {"-Ofc", "1"},
      {"-dlto"},
      {"--source-in-ptx"},
      {"-nohdinitlist"},
      {"--static-global-template-stub=false"},
      {"--device-entity-has-hidden-visibility=false"},
      {"-extra-device-vectorization"},
      {"-restrict"},
      {"--jobserver"},
      {"-MD"},
      {"-MMD"},
      {"-MP"},
      {"-MF", "x.d"},
      {"-MT", "x.o"},
      {"--dependency-output=x.d"},
  };
  for (const Strings &F : Families) {
    TranslatedCommand R = nvcc(F);
    std::string Ctx = llvm::join(F, " ") + "\n" + dump(R);
    EXPECT_TRUE(R.Args.empty()) << Ctx;
    EXPECT_TRUE(R.Warnings.empty()) << Ctx;
    EXPECT_TRUE(R.Errors.empty()) << Ctx;
    EXPECT_EQ(R.InputFile, "/src/k.cu") << Ctx;
    EXPECT_TRUE(contains(R.Dropped, "'" + llvm::join(F, " ") + "'")) << Ctx;
  }
}

TEST(NvccCommandTest, XarchDropsItsArgument) {
  TranslatedCommand R = nvcc({"-Xarch_host", "-O2", "-DKEEP"});
  EXPECT_EQ(R.Args, (Strings{"-DKEEP"})) << dump(R);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_TRUE(contains(R.Dropped, "'-Xarch_host -O2'"));
}

TEST(NvccCommandTest, MissingValue) {
  TranslatedCommand R =
      translateCompileCommand({"nvcc", "-DKEEP", "-c", "k.cu", "-I"}, "/w");
  EXPECT_EQ(R.Args, (Strings{"-DKEEP"}));
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(R.Errors[0]).contains("'-I' has no value"));
}

//===----------------------------------------------------------------------===//
// Recognising nvcc; other compilers
//===----------------------------------------------------------------------===//

TEST(NvccCommandTest, RecognisesNvcc) {
  EXPECT_TRUE(isNvccCompiler("nvcc"));
  EXPECT_TRUE(isNvccCompiler("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvccCompiler("C:\\CUDA\\v12.4\\bin\\nvcc.exe"));
  EXPECT_TRUE(isNvccCompiler("C:/CUDA/bin/NVCC.EXE"));
  EXPECT_FALSE(isNvccCompiler("/usr/bin/clang++"));
  EXPECT_FALSE(isNvccCompiler("/opt/nvcc/bin/g++"));
  EXPECT_FALSE(isNvccCompiler("nvcc-wrapper"));
  EXPECT_FALSE(isNvccCompiler(""));
  EXPECT_FALSE(
      translateCompileCommand({"/usr/bin/g++", "-c", "a.cc"}, "/").IsNvcc);
  EXPECT_TRUE(
      translateCompileCommand({"sccache", "nvcc", "-c", "a.cu"}, "/").IsNvcc);
}

TEST(NvccCommandTest, ClangCommandPassesThrough) {
  Strings Cmd = {"/usr/bin/clang++-22",
                 "-DKERNELS",
                 "-I/work/include",
                 "-isystem",
                 "/opt/cuda/include",
                 "-O2",
                 "-g",
                 "-std=c++17",
                 "-x",
                 "cuda",
                 "--cuda-gpu-arch=sm_90",
                 "--cuda-gpu-arch=sm_80",
                 "--cuda-path=/opt/cuda",
                 "-fPIC",
                 "-Wall",
                 "-Werror",
                 "-MD",
                 "-MT",
                 "k.o",
                 "-MF",
                 "k.o.d",
                 "-o",
                 "CMakeFiles/k.dir/k.cu.o",
                 "-c",
                 "/work/src/k.cu"};
  TranslatedCommand R = translateCompileCommand(Cmd, "/work/build");
  EXPECT_FALSE(R.IsNvcc);
  EXPECT_TRUE(R.IsCuda);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_TRUE(R.Errors.empty()) << dump(R);
  EXPECT_EQ(R.InputFile, "/work/src/k.cu");
  EXPECT_EQ(R.OutputFile, "CMakeFiles/k.dir/k.cu.o");
  Strings Want = {"-DKERNELS",
                  "-I/work/include",
                  "-isystem",
                  "/opt/cuda/include",
                  "-O2",
                  "-g",
                  "-std=c++17",
                  "-x",
                  "cuda",
                  "--cuda-path=/opt/cuda",
                  "-fPIC",
                  "-Wall",
                  "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_90"};
  EXPECT_EQ(R.Args, Want) << dump(R);
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_80", "sm_90"}));
  EXPECT_TRUE(contains(R.Dropped, "'-Werror'"));
  EXPECT_TRUE(contains(R.Dropped, "'-MF k.o.d'"));
}

TEST(NvccCommandTest, GccCommandKeepsWhatClangKnows) {
  TranslatedCommand R = translateCompileCommand(
      {"/usr/bin/g++", "-DHOST", "-I../include", "-O3", "-march=native",
       "-fipa-pta", "-fno-gcse", "-Wl,--as-needed", "-std=gnu++17", "-c",
       "../src/main.cpp", "-o", "main.o"},
      "/work/build");
  EXPECT_FALSE(R.IsNvcc);
  EXPECT_FALSE(R.IsCuda);
  EXPECT_TRUE(R.Warnings.empty()) << dump(R);
  EXPECT_EQ(R.Args, (Strings{"-DHOST", "-I../include", "-O3", "-march=native",
                             "-std=gnu++17"}))
      << dump(R);
  EXPECT_EQ(R.InputFile, "/work/src/main.cpp");
  EXPECT_TRUE(contains(R.Dropped, "'-fipa-pta': clang does not know it"));
  EXPECT_TRUE(contains(R.Dropped, "'-fno-gcse': clang ignores it"));
  EXPECT_TRUE(contains(R.Dropped, "'-Wl,--as-needed': linker flag"));
  EXPECT_TRUE(R.CudaArchs.empty());
}

TEST(NvccCommandTest, ClangOffloadArch) {
  TranslatedCommand R = translateCompileCommand(
      {"clang++", "--offload-arch=sm_86,sm_75", "-c", "k.cu"}, "/w");
  EXPECT_EQ(R.CudaArchs, (Strings{"sm_75", "sm_86"}));
  EXPECT_EQ(R.Args,
            (Strings{"--cuda-gpu-arch=sm_75", "--cuda-gpu-arch=sm_86"}));
  EXPECT_TRUE(R.IsCuda);
}

TEST(NvccCommandTest, EmptyCommand) {
  TranslatedCommand R = translateCompileCommand({}, "/w");
  EXPECT_EQ(R.Errors.size(), 1u);
}

} // namespace

TEST(NvccCommandTest, EmptyWordAsAnOptionsValueStaysItsValue) {
  // `-D ""` takes the empty word as its value; dropping it would make -D
  // swallow -isystem and leave its directory as a stray input (found by the
  // driver fuzzer). An empty word between arguments is still skipped.
  TranslatedCommand R = translateCompileCommand(
      {"clang++", "-D", "", "-isystem", "/sys inc", "", "-c", "k.cu"}, "/build");
  EXPECT_EQ(R.Args, (Strings{"-D", "", "-isystem", "/sys inc"}))
      << dump(R);
  EXPECT_EQ(R.InputFile, "/build/k.cu");
}

TEST(NvccCommandTest, ClangFlagsBackToNvccForSass) {
  // --sass compiles with nvcc what was analysed with clang: the project's
  // include paths (made absolute: nvcc runs elsewhere), macros (commas
  // escaped, since nvcc splits -D at them), pre-includes and standard; not
  // what only clang takes, and a macro's value that looks like a flag stays
  // the macro's.
  Strings Flags = nvccFlagsFromClang(
      {"-Iinclude", "-isystem", "/opt/x/include", "-iquote", "q", "-DN=64",
       "-DLIST=a,b", "-D", "--cuda-gpu-arch=sm_90", "-UNDEBUG",
       "-std=gnu++17", "-Xclang", "-fno-x", "-fno-exceptions", "-Wall",
       "-include", "pre.h", "-std=c++2b"},
      "/build");
  EXPECT_EQ(Flags, (Strings{"-I/build/include", "-isystem", "/opt/x/include",
                            "-I/build/q", "-DN=64", "-DLIST=a\\,b",
                            "-D--cuda-gpu-arch=sm_90", "-UNDEBUG",
                            "-std=c++17", "-include", "pre.h"}));
}
