// ENERGY_LAUNCH in host-only C++: a compile error that says what to do.
#include <energy/energy.cuh>
ENERGY_KERNEL_EXTERN(axpy);
void axpy(int n, float a, const float *x, float *y);
int main() { return ENERGY_LAUNCH(1 << 20, axpy)(1 << 20, 2.0f, nullptr, nullptr); }
