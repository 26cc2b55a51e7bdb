// Reached only through the target's include directory (which CMake may put
// in a response file for nvcc).
#ifndef TILE
#error "TILE comes from target_compile_definitions"
#endif
