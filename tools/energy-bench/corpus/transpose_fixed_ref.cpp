// CPU reference of transpose_fixed.cu (see transpose_ref.h).
#include "transpose_ref.h"

ENERGY_REFERENCE(transpose_fixed) { transposeReference(in, out); }
