// A header with device code and nothing to report.
__device__ inline float twice(float x) { return 2 * x; }
