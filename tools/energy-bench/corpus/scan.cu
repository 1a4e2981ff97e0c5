// scan: inclusive prefix sum of n ints in one launch: a single-pass scan with
// decoupled look-back (Merrill & Garland, 2016). Each block takes the next
// tile number from an atomic ticket (tiles in start order, so a tile only
// waits for tiles already running), scans BLOCK_X * ITEMS elements (staged
// through shared memory for coalescing; thread-local, warp-shuffle and
// warp-total scans), publishes its aggregate, then its inclusive prefix once
// the tiles before it are known. Status words carry a launch epoch, so
// back-to-back launches need no host reset: the block with the last ticket
// clears the ticket and advances the epoch.
//
// Grid: ceil(n / (BLOCK_X * ITEMS)). Scratch: status (>= grid u64) and
// control (2 u32: ticket, epoch), zero before the first launch.
#include <energy/energy.cuh>

ENERGY_TUNABLE_PER_THREAD(ITEMS, 4, 1, 4, 8);
ENERGY_WORKLOAD(scan, 1 << 25);

// Tile status: epoch (30 bits) | flag (2 bits) | value (32 bits).
#define FLAG_AGGREGATE 1u
#define FLAG_PREFIX 2u
#define EPOCH_MASK 0x3fffffffu

__device__ inline unsigned long long packStatus(unsigned epoch, unsigned flag,
                                                int value) {
  return (unsigned long long)(epoch & EPOCH_MASK) << 34 |
         (unsigned long long)flag << 32 | (unsigned)value;
}

__device__ inline int warpInclusiveScan(int v, unsigned lane) {
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset)
      v += up;
  }
  return v;
}

// The sum of all tiles before `tile` in this launch (one thread).
__device__ int lookBack(volatile unsigned long long *status, unsigned tile,
                        unsigned epoch) {
  int prefix = 0;
  for (int t = (int)tile - 1; t >= 0;) {
    unsigned long long s = status[t];
    unsigned flag = (unsigned)(s >> 32) & 3u;
    if ((unsigned)(s >> 34) != (epoch & EPOCH_MASK) || flag == 0)
      continue; // not published in this launch yet
    prefix += (int)(unsigned)s;
    if (flag == FLAG_PREFIX)
      break;
    --t;
  }
  return prefix;
}

// Declared: the shapes it is written for, every whole number of warps (the
// plugin proves no shape of a kernel whose threads share data).
ENERGY_BLOCK_RULES(scan, "multiple=32");

extern "C" {
ENERGY_KERNEL(scan)
void scan(int n, const int *__restrict__ in, int *__restrict__ out,
          unsigned long long *status, unsigned *control) {
  // Element e of the tile lives at e + e/32: a thread walking its ITEMS
  // consecutive elements hits distinct banks.
  ENERGY_SHARED(int, stage, "ITEMS,BLOCK_X+32")[ITEMS_max][1024 + 32];
  __shared__ int warp_offsets[32];
  __shared__ unsigned tile_s, epoch_s;
  __shared__ int prefix_s;
  const int items = ENERGY_VALUE(ITEMS);
  const unsigned tid = threadIdx.x, threads = blockDim.x;
  const unsigned lane = tid % 32, warp = tid / 32;
  int *buf = &stage[0][0];

  if (tid == 0) {
    unsigned epoch = atomicAdd(&control[1], 0u);
    __threadfence(); // read the epoch before taking a ticket
    unsigned tile = atomicAdd(&control[0], 1u);
    if (tile == gridDim.x - 1) { // all blocks have read the epoch
      __threadfence();
      atomicExch(&control[0], 0u);
      atomicAdd(&control[1], 1u);
    }
    tile_s = tile;
    epoch_s = epoch;
  }
  __syncthreads();
  const unsigned tile = tile_s, epoch = epoch_s;
  const int base = tile * threads * items;

  for (int k = 0; k < items; ++k) {
    int e = k * threads + tid, g = base + e;
    buf[e + e / 32] = g < n ? in[g] : 0;
  }
  __syncthreads();

  int v[ITEMS_max];
  int run = 0;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    int e = tid * items + k;
    run += buf[e + e / 32];
    v[k] = run;
  }
  const int inclusive = warpInclusiveScan(run, lane);
  if (lane == 31)
    warp_offsets[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const unsigned warps = threads / 32;
    const int total = lane < warps ? warp_offsets[lane] : 0;
    const int scanned = warpInclusiveScan(total, lane);
    if (lane < warps)
      warp_offsets[lane] = scanned - total;
    const int aggregate = __shfl_sync(0xffffffffu, scanned, 31);
    if (lane == 0) {
      int prefix = 0;
      volatile unsigned long long *st = status;
      if (tile == 0) {
        st[0] = packStatus(epoch, FLAG_PREFIX, aggregate);
      } else {
        st[tile] = packStatus(epoch, FLAG_AGGREGATE, aggregate);
        prefix = lookBack(st, tile, epoch);
        st[tile] = packStatus(epoch, FLAG_PREFIX, prefix + aggregate);
      }
      prefix_s = prefix;
    }
  }
  __syncthreads();

  const int offset = prefix_s + warp_offsets[warp] + inclusive - run;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    int e = tid * items + k;
    buf[e + e / 32] = v[k] + offset;
  }
  __syncthreads();
  for (int k = 0; k < items; ++k) {
    int e = k * threads + tid, g = base + e;
    if (g < n)
      out[g] = buf[e + e / 32];
  }
}
}
