// Host-emulation stand-in for CUB's <cub/block/block_reduce.cuh> (see
// ../../../host_emulation.h): the part of cub::BlockReduce the corpus uses,
// BlockReduce<T, BLOCK_DIM_X> for a 1-D block, its TempStorage and Sum(T).
//
// Like CUB's, the reduction is sized by the template argument, never by the
// launch, so it is right only for a block of exactly BLOCK_DIM_X threads:
// TempStorage has one slot per thread of such a block, each thread writes
// the slot of its threadIdx.x (CUB's linear thread id for a 1-D block), and
// thread 0 sums exactly BLOCK_DIM_X slots. A smaller block leaves slots
// unwritten; they hold poison (NaN, or 10794) from when the storage
// was made and from after the previous sum, so the result is wrong. A larger
// block writes past the storage, which the sanitizers report. As in CUB, only
// thread 0's result is defined (the others get their own input back), and
// reusing the storage needs a __syncthreads() first.
#ifndef ENERGY_HOST_CUB_BLOCK_REDUCE_CUH
#define ENERGY_HOST_CUB_BLOCK_REDUCE_CUH

#include "../../../host_emulation.h"

#include <limits>
#include <type_traits>

namespace cub {

template <class T, int BLOCK_DIM_X> class BlockReduce {
  static_assert(std::is_arithmetic_v<T>, "the emulation sums arithmetic types only");
  static_assert(BLOCK_DIM_X > 0, "a block has threads");

  static T poison() {
    if constexpr (std::numeric_limits<T>::has_quiet_NaN)
      return std::numeric_limits<T>::quiet_NaN();
    else
      return T(0x2a2a & std::numeric_limits<T>::max()); // no overflow at test sizes
  }

  // Integers wrap, as the GPU's integer adds do (and UBSan does not stop it).
  static T add(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }

public:
  struct TempStorage {
    T slot[BLOCK_DIM_X];
    TempStorage() { std::fill(slot, slot + BLOCK_DIM_X, poison()); }
  };

  explicit BlockReduce(TempStorage &storage) : storage_(storage) {}

  T Sum(T input) {
    storage_.slot[threadIdx.x] = input;
    __syncthreads();
    if (threadIdx.x != 0)
      return input;
    T sum = storage_.slot[0];
    for (int t = 1; t < BLOCK_DIM_X; ++t)
      sum = add(sum, storage_.slot[t]);
    std::fill(storage_.slot, storage_.slot + BLOCK_DIM_X, poison());
    return sum;
  }

private:
  TempStorage &storage_;
};

} // namespace cub

#endif // ENERGY_HOST_CUB_BLOCK_REDUCE_CUH
