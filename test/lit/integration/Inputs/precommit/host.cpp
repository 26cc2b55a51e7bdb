// Not CUDA: the hook must not pass this file to shmem-lint (it would not
// even parse).
int main() { return this is not C++; }
