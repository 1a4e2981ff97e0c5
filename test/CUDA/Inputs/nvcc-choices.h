// A header as energy.so -energy-header writes it, with values of our own:
// what energy.cuh does with each entry under nvcc (test/CUDA/nvcc-header.test).
#pragma once
#define ENERGY_CHOICES_FORMAT 1
#define ENERGY_CHOICE_KERNEL_saxpy ~, (384, 1, 1, 0, 4, __launch_bounds__(384))
#define ENERGY_CHOICE_KERNEL_tiled ~, (8, 8, 1, 0, 1, __launch_bounds__(64))
#define ENERGY_CHOICE_KERNEL_dyn ~, (96, 1, 1, 400, 1, __launch_bounds__(96))
#define ENERGY_CHOICE_TUNABLE_ITEMS ~, 4
#define ENERGY_CHOICE_TUNABLE_TILE ~, 8
#define ENERGY_CHOICE_TEMPLATE_scale ~, 1
#define ENERGY_CHOICE_TEMPLATE_LIST_scale(M) \
  M(scale, (double, 2), (160, 1, 1, 0, 1)) \
  M(scale, (float, 4), (64, 1, 1, 0, 1))
