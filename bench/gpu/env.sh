# Sourced by the bench/gpu run scripts: find the CUDA tools on the GPU machine.
export PATH="$PATH:/usr/local/cuda/bin"
find_tool() {
  local t=$1 c
  c=$(command -v "$t" 2>/dev/null) && { echo "$c"; return; }
  for c in /usr/local/cuda/bin/$t /usr/local/cuda/$t/$t /opt/nvidia/nsight-compute/*/$t \
           /usr/local/cuda/nsight-compute-*/$t /usr/local/cuda/compute-sanitizer/$t; do
    [ -x "$c" ] && { echo "$c"; return; }
  done
  echo "$t"
}
NVCC=${NVCC:-$(find_tool nvcc)}
NCU=${NCU:-$(find_tool ncu)}
CUOBJDUMP=${CUOBJDUMP:-$(find_tool cuobjdump)}
SANITIZER=${SANITIZER:-$(find_tool compute-sanitizer)}
PYTHON=${PYTHON:-$(command -v python3)}
PTXAS=${PTXAS:-$(find_tool ptxas)}
NVDISASM=${NVDISASM:-$(find_tool nvdisasm)}
