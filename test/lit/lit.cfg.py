# -*- Python -*-
# lit configuration for shmem-lint's end-to-end tests.
import os
import shutil

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

# Tests never depend on the caller's environment for CUDA.
for var in ("CUDA_PATH", "CUDA_HOME"):
    config.environment.pop(var, None)
