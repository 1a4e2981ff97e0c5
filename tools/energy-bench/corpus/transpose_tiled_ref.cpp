// CPU reference of transpose_tiled.cu (see transpose_ref.h).
#include "transpose_ref.h"

ENERGY_REFERENCE(transpose_tiled) { transposeReference(in, out); }
