#!/usr/bin/env python3
"""Writes the driver fuzzer's seed inputs (test/fuzz/corpus/driver/seed-*).

An input is four parts separated by NUL bytes (see DriverInputFuzzer.cpp):
compile_commands.json (@SCRATCH@ is the fuzzer's scratch directory), a
command line one word a line, the text of opts.txt (nvcc --options-file) and
that of resp.rsp (gcc @file). The commands are those of
test/lit/driver/Inputs/project and test/unit/NvccCommandTest.cpp: what
CMake's Makefiles and Ninja generators, ccache and build logs write.
"""
import json
import os

NVCC = "/usr/local/cuda/bin/nvcc"
CMAKE_MAKEFILES = [
    NVCC, "-forward-unknown-to-host-compiler", "-DBAR=\"x y\"", "-DUSE_FOO=1",
    "--options-file", "opts.txt", "-O3", "-DNDEBUG",
    "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
    "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
    "-Xcompiler=-fPIC", "--expt-relaxed-constexpr", "--extended-lambda",
    "-Xcompiler=-Wall", "-lineinfo", "-std=c++17", "-x", "cu", "-rdc=true",
    "-c", "/work/src/kern.cu", "-o", "CMakeFiles/kern.dir/kern.cu.o"]
CMAKE_NINJA = [
    "/usr/local/cuda-12.4/bin/nvcc", "-forward-unknown-to-host-compiler",
    "-DKERNELS_EXPORTS", "-I/work/src/include", "-isystem",
    "/usr/local/cuda-12.4/targets/x86_64-linux/include", "-g", "-G",
    "-std=c++20", "--generate-code=arch=compute_86,code=[compute_86,sm_86]",
    "-Xcompiler=-fPIC", "-Xcompiler=-fvisibility=hidden", "-MD", "-MT",
    "src/CMakeFiles/kernels.dir/kern.cu.o", "-MF",
    "src/CMakeFiles/kernels.dir/kern.cu.o.d", "-x", "cu", "-c",
    "/work/src/kern.cu", "-o", "src/CMakeFiles/kernels.dir/kern.cu.o"]
CCACHE_NATIVE = [
    "/usr/bin/ccache", "/opt/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
    "-I/work/include", "-O2", "-g", "-DNDEBUG", "-std=c++17", "-arch=native",
    "-Xcompiler=-fPIC", "-x", "cu", "-rdc=true", "-c", "/work/src/a.cu", "-o",
    "CMakeFiles/a.dir/src/a.cu.o"]
HAND_WRITTEN = [
    "nvcc", "-arch=sm_90a", "-code=sm_90a,compute_90a", "-optf", "opts.txt",
    "@resp.rsp", "-Xcompiler", "-Werror,-Wextra,-O2 -fopenmp",
    "-Xptxas", "-v", "--use_fast_math", "-maxrregcount=64", "-DLIST=a\\,b,c",
    "-Ux", "-include", "pre.h", "--default-stream", "per-thread", "-w", "k.cu"]
CLANG = [
    "/usr/bin/clang++", "@resp.rsp", "--cuda-gpu-arch=sm_80",
    "--offload-arch=sm_70,sm_90", "-x", "cuda", "-Werror", "-Wall",
    "-fPIC", "-MD", "-MF", "k.d", "-isystem", "/sys inc", "-c", "k.cu", "-o",
    "k.o"]
GXX = ["/usr/bin/g++", "-O2", "-c", "/work/src/host.cpp", "-o", "host.o"]

OPTS = '-I"/work/src/include" -I"/work/src/third party" -isystem="/work/src/sys"\n'
RESP = "-I'/with space' -DQ=\"a b\" -DE=x\\ y @resp.rsp\n"


def entry(cmd, file, arguments=False):
    e = {"directory": "@SCRATCH@", "file": file}
    if arguments:
        e["arguments"] = cmd
    else:
        e["command"] = " ".join(
            '"' + w.replace('"', '\\"') + '"' if " " in w or '"' in w else w
            for w in cmd)
    return e


def seed(db, cmd, opts=OPTS, resp=RESP):
    text = json.dumps(db, indent=1) if db is not None else ""
    return "\0".join([text, "\n".join(cmd), opts, resp]).encode()


SEEDS = {
    "cmake_makefiles": seed([entry(CMAKE_MAKEFILES, "/work/src/kern.cu")],
                            CMAKE_MAKEFILES),
    "cmake_ninja": seed([entry(CMAKE_NINJA, "/work/src/kern.cu", True)],
                        CMAKE_NINJA),
    "ccache_native": seed([entry(CCACHE_NATIVE, "/work/src/a.cu")],
                          CCACHE_NATIVE),
    "hand_written": seed([entry(HAND_WRITTEN, "k.cu", True)], HAND_WRITTEN),
    "clang_and_gxx": seed([entry(CLANG, "k.cu"), entry(GXX, "host.cpp")],
                          CLANG),
    "project": seed([
        entry(CMAKE_MAKEFILES, "a.cu"), entry(CMAKE_NINJA, "b.cu", True),
        entry(GXX, "/work/src/host.cpp")], GXX),
    "options_file_quoting": seed(None, ["nvcc", "--options-file=opts.txt,resp.rsp", "-c", "k.cu"],
                                 opts='-DA="a b" -DG=\'x\' -DQ=q\\"r\n-DD=x"y z"w \\\n -DK',
                                 resp="-DMORE"),
    "cyclic_response": seed(None, ["nvcc", "@resp.rsp", "k.cu"], resp="@resp.rsp"),
}

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "corpus", "driver")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, "seed-" + name), "wb") as f:
            f.write(data)
    print(f"wrote {len(SEEDS)} seeds to {out}")
