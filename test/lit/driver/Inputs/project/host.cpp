// Host code compiled by g++: not CUDA, not analysed.
int main() { return 0; }
