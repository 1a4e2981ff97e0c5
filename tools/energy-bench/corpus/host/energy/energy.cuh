// Host-emulation stand-in for <energy/energy.cuh>: with this directory first
// on the include path, corpus kernels compile as plain C++ (see
// ../../host_emulation.h).
#include "../../host_emulation.h"
