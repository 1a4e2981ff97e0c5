# cmake -DCUDA=<toolkit root> -P print-compat-flags.cmake: the CUDA 13
# compatibility flags energy_tune_target gives a clang CUDA target
# (energy_cuda_compat_flags), on one line of standard output
# (test/Tools/compat-flags-agree.test).
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/EnergyCUDA.cmake)
energy_cuda_compat_flags(flags ${CUDA})
list(JOIN flags " " flags)
execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${flags}")
