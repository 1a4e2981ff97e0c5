// CPU reference of transpose_naive.cu (see transpose_ref.h).
#include "transpose_ref.h"

ENERGY_REFERENCE(transpose_naive) { transposeReference(in, out); }
