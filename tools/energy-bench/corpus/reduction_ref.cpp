// CPU reference of reduction.cu (see sum_ref.h).
#include "sum_ref.h"

ENERGY_REFERENCE(reduction) { sumReference(in, out); }
