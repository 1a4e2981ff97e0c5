// CPU reference of reduce_halving.cu (see sum_ref.h).
#include "sum_ref.h"

ENERGY_REFERENCE(reduce_halving) { sumReference(in, out); }
