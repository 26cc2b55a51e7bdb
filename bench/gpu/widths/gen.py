#!/usr/bin/env python3
"""Kernels that measure which shared-memory widths nvcc emits for a thread's
adjacent element accesses, and what those cost, on the GPU machine.

Usage: gen.py OUT.cu OUT-manifest.tsv

Each kernel is one warp (launched <<<1, 32>>>) that makes one group of K
accesses of type T per thread, at element index tid * S + C + i for i in
0..K-1, in an unrolled loop, to a shared array declared one of three ways:
  plain   __shared__ T a[N];                (the type's alignment)
  align16 __shared__ __align__(16) T a[N];
  extern  extern __shared__ T a[];          (nvcc aligns it to 16)
A load kernel first stores the array (counted apart: op_st), then reads the
group (op_ld); a store kernel only stores the group. The manifest has one
row per kernel: name, storage, type, bytes, op, K, S, C. What nvcc emitted
comes from the SASS (run.sh), the cost from ncu.

Async copies (LDGSTS): kernels cpa_<W>_<S>: each thread copies W bytes from
global to shared element tid * S (in W-byte units) with
__pipeline_memcpy_async, then waits. Kernels cpt_<W>: the transposed copy
into a 32x33 or 32x32 tile (column per thread)."""
import sys

TYPES = [("float", 4, [2, 4]), ("unsigned short", 2, [2, 4, 8]),
         ("double", 8, [2])]
STORAGE = ["plain", "align16", "extern"]


def variants(k):
    for m in (1, 2, 4, 8):
        yield k * m, 0
    yield k + 1, 0
    yield k, 1


def main():
    cu, man = [], ["name\tstorage\ttype\tbytes\top\tK\tS\tC"]
    cu.append("#include <cuda_pipeline_primitives.h>\n#include <cstdio>\n")
    launches = []
    n = 0
    for storage in STORAGE:
        for t, size, ks in TYPES:
            for k in ks:
                for s, c in variants(k):
                    for op in ("load", "store"):
                        name = f"mw{n}"
                        n += 1
                        elems = 32 * s + c + k + 8
                        decl = {
                            "plain": f"__shared__ {t} a[{elems}];",
                            "align16": f"__shared__ __align__(16) {t} a[{elems}];",
                            "extern": f"extern __shared__ {t} a_{name}[]; {t} *a = a_{name};",
                        }[storage]
                        body = [f"__global__ void {name}({t} *out, const {t} *in) {{",
                                f"  {decl}", "  int tid = threadIdx.x;"]
                        if op == "load":
                            body += [f"  for (int j = tid; j < {elems}; j += 32) a[j] = in[j];",
                                     "  __syncthreads();",
                                     f"  {t} r[{k}];",
                                     "#pragma unroll",
                                     f"  for (int i = 0; i < {k}; ++i) r[i] = a[tid * {s} + {c} + i];",
                                     f"  {t} acc = r[0];",
                                     "#pragma unroll",
                                     f"  for (int i = 1; i < {k}; ++i) acc += r[i];",
                                     "  out[tid] = acc;"]
                        else:
                            body += [f"  {t} x[{k}];",
                                     "#pragma unroll",
                                     f"  for (int i = 0; i < {k}; ++i) x[i] = in[tid * {k} + i];",
                                     "#pragma unroll",
                                     f"  for (int i = 0; i < {k}; ++i) a[tid * {s} + {c} + i] = x[i];",
                                     "  __syncthreads();",
                                     "  out[tid] = a[(tid * 7) % 32];"]
                        body.append("}")
                        cu.append("\n".join(body) + "\n")
                        man.append(f"{name}\t{storage}\t{t}\t{size}\t{op}\t{k}\t{s}\t{c}")
                        bytes_ = elems * size
                        launches.append(
                            f"  {name}<<<1, 32, {bytes_ if storage == 'extern' else 0}>>>"
                            f"(({t} *)out, (const {t} *)in);")
    # Async copies: W bytes per thread at W-byte slot tid * S.
    for w in (4, 8, 16):
        for s in (1, 2, 3, 4, 8, 16, 32, 33):
            name = f"cpa_{w}_{s}"
            slots = 32 * s + 1
            cu.append(f"""__global__ void {name}(float *out, const float *in) {{
  __shared__ __align__(16) char a[{slots * w}];
  int tid = threadIdx.x;
  __pipeline_memcpy_async(a + tid * {s} * {w}, (const char *)in + tid * {w}, {w});
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[tid] = *(const float *)(a + ((tid * 5) % 32) * {s} * {w});
}}
""")
            man.append(f"{name}\tasync\tbytes\t{w}\tldgsts\t1\t{s}\t0")
            launches.append(f"  {name}<<<1, 32>>>(out, in);")
    for pad in (32, 33):
        name = f"cpt_{pad}"
        cu.append(f"""__global__ void {name}(float *out, const float *in) {{
  // Column tid of a 32x{pad} tile: 32-way when the row is 32 floats.
  __shared__ float t[32][{pad}];
  int tid = threadIdx.x;
  for (int r = 0; r < 32; ++r)
    __pipeline_memcpy_async(&t[r][tid] + 0 * r, in + tid * 32 + r, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[tid] = t[tid][(tid * 3) % 32];
}}
""")
        man.append(f"{name}\tasync\tfloat\t4\tldgsts-rows\t32\t{pad}\t0")
        launches.append(f"  {name}<<<1, 32>>>(out, in);")
        name = f"cpc_{pad}"
        cu.append(f"""__global__ void {name}(float *out, const float *in) {{
  // Row tid of a 32x{pad} tile, one float at a time: lanes stride {pad}.
  __shared__ float t[32][{pad}];
  int tid = threadIdx.x;
  for (int c = 0; c < 32; ++c)
    __pipeline_memcpy_async(&t[tid][c], in + c * 32 + tid, 4);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[tid] = t[(tid * 3) % 32][tid];
}}
""")
        man.append(f"{name}\tasync\tfloat\t4\tldgsts-cols\t32\t{pad}\t0")
        launches.append(f"  {name}<<<1, 32>>>(out, in);")
    cu.append("int main() {\n  float *out, *in;\n"
              "  cudaMalloc(&out, 1 << 20);\n  cudaMalloc(&in, 1 << 20);\n"
              "  cudaMemset(in, 0, 1 << 20);\n" + "\n".join(launches) +
              "\n  cudaError_t e = cudaDeviceSynchronize();\n"
              "  printf(\"%s\\n\", cudaGetErrorString(e));\n  return e != cudaSuccess;\n}\n")
    open(sys.argv[1], "w").write("\n".join(cu))
    open(sys.argv[2], "w").write("\n".join(man) + "\n")


main()
