# -*- Python -*-
# lit configuration for shmem-lint's end-to-end tests.
import os
import shutil
import subprocess

import lit.formats

config.name = "shmem-lint"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.shmem_binary_dir, "test", "lit")

tools = {
    "shmem-lint": os.path.join(config.shmem_binary_dir, "bin", "shmem-lint"),
    "tidy_plugin": os.path.join(config.shmem_binary_dir, "lib", "shmem-lint",
                                "shmem-lint-tidy.so"),
    "clang_plugin": os.path.join(config.shmem_binary_dir, "lib", "shmem-lint",
                                 "shmem-lint-clang.so"),
    "cuda_headers": os.path.join(config.shmem_binary_dir, "share", "shmem-lint",
                                 "cuda"),
}

# The flags that let clang parse CUDA with our own header, so that every
# test behaves the same with and without a CUDA toolkit on the machine.
cuda_flags = ("-nocudainc -nocudalib -Wno-unknown-cuda-version -isystem %s "
              "-include shmem_lint_cuda.h" % tools["cuda_headers"])

config.substitutions.append(("%{shmem-lint-raw}", tools["shmem-lint"]))
config.substitutions.append(("%shmem-lint", tools["shmem-lint"] + " --cuda-path=none"))
config.substitutions.append(("%tidy_plugin", tools["tidy_plugin"]))
config.substitutions.append(("%clang_plugin", tools["clang_plugin"]))
config.substitutions.append(("%clang-tidy", config.clang_tidy))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%cuda_flags", cuda_flags))
config.substitutions.append(("%python", config.python))
config.substitutions.append(
    ("%exit_status", "%s %s" % (config.python, os.path.join(
        os.path.dirname(__file__), "exit_status.py"))))
config.substitutions.append(
    ("%check_all_front_ends",
     "%s %s --shmem-lint %s --clang-tidy %s --clangxx %s --tidy-plugin %s "
     "--clang-plugin %s --cuda-headers %s --filecheck %s" % (
         config.python,
         os.path.join(os.path.dirname(__file__), "check_all_front_ends.py"),
         tools["shmem-lint"], config.clang_tidy, config.clangxx,
         tools["tidy_plugin"], tools["clang_plugin"], tools["cuda_headers"],
         config.filecheck)))
config.substitutions.append(("%not", config.not_tool))
# FileCheck, not and count come from the LLVM the tool was built against.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), config.environment.get("PATH", "")])

if os.path.exists(os.path.join(config.cuda_toolkit, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_toolkit", config.cuda_toolkit))
if shutil.which("chromium"):
    config.available_features.add("chromium")
# GCC's own headers (omp.h), which the driver searches last as nvcc's host
# compiler would (DriverOptions.cpp, gccHeaderDir).
import glob
if glob.glob("/usr/lib/gcc/*/*/include/omp.h") or glob.glob("/usr/lib64/gcc/*/*/include/omp.h"):
    config.available_features.add("gcc-omp")

# Driver and integration tests (test/lit/driver, test/lit/integration): real
# tools where the machine has them, each test REQUIRES what it runs.
for tool in ("git", "cmake", "ninja", "make", "pre-commit"):
    if shutil.which(tool):
        config.available_features.add(tool)
if os.path.exists(os.path.join(os.path.dirname(config.filecheck),
                               "clang-apply-replacements")):
    config.available_features.add("clang-apply-replacements")
if os.path.exists("/usr/local/cuda/bin/nvcc"):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", "/usr/local/cuda/bin/nvcc"))
config.substitutions.append(("%shmem_source", config.shmem_source_dir))

# Install and package tests (test/lit/install): the build tree installed or
# packaged by the cmake/cpack that configured it.
config.substitutions.append(("%shmem_build", config.shmem_binary_dir))
config.substitutions.append(("%shmem_version", config.shmem_version))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%cpack", config.cpack))
if os.path.exists(config.cpack):
    config.available_features.add("cpack")
# cpack -G DEB needs dpkg-shlibdeps (dpkg-dev) for the Depends line.
for tool in ("dpkg-deb", "dpkg-shlibdeps"):
    if shutil.which(tool):
        config.available_features.add(tool)
# SARIF is checked against the official schema with Debian's python3, which
# has python3-jsonschema and python3-yaml (a pyenv or venv python may not).
sarif_python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else config.python
config.substitutions.append(("%sys_python", sarif_python))
if subprocess.call([sarif_python, "-c", "import yaml"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("python-yaml")
config.substitutions.append(
    ("%validate_sarif", "%s %s %s" % (
        sarif_python,
        os.path.join(config.shmem_source_dir, "test", "sarif", "validate_sarif.py"),
        os.path.join(config.shmem_source_dir, "test", "sarif", "sarif-schema-2.1.0.json"))))

# Tests never depend on the caller's environment for CUDA.
for var in ("CUDA_PATH", "CUDA_HOME"):
    config.environment.pop(var, None)

# Editor tests (test/lit/lsp/editor-*.test): the editors that drive the
# language server, where the machine has them (.ci/run installs them).
_quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
              stderr=subprocess.DEVNULL)
if shutil.which("nvim") and subprocess.call(
        ["nvim", "--headless", "-u", "NONE", "-i", "NONE",
         "+if has('nvim-0.7') | qall! | else | cquit | endif"], **_quiet) == 0:
    config.available_features.add("nvim")
if shutil.which("emacs"):
    for lib in ("eglot", "lsp-mode"):
        if subprocess.call(["emacs", "--batch", "-f", "package-initialize",
                            "--eval", "(require '%s)" % lib], **_quiet) == 0:
            config.available_features.add("emacs-" + lib)
if shutil.which("clangd"):
    config.available_features.add("clangd")
if subprocess.call([sarif_python, "-c", "import tomllib"], **_quiet) == 0:
    config.available_features.add("python-tomllib")
