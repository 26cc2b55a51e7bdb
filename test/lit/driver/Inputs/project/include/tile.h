// Found only through the include path that the compile database hides in a
// response file (CMake's includes_CUDA.rsp).
#ifndef TILE
#error "TILE is defined by the compile command"
#endif
#define TILE_PAD 0
