# CUDA builds with the energy plugin, for the energy build and for projects
# that find_package(energy). Needs ENERGY_CUDA_DRIVER or ENERGY_BIN_DIR, and
# ENERGY_PLUGIN and ENERGY_CUDA_COMPAT_DIR for energy_tune_target (all set
# by the package).
#
# energy_add_cuda_executable(<name> <sources...> [ARCH sm_XX] [OPTIONS ...])
#
#   Builds a CUDA program with clang-19 and the energy plugin through the
#   energy-cuda driver (the CUDA 13 split pipeline) into
#   ${CMAKE_CURRENT_BINARY_DIR}/bin/<name>; the target <name> has the path in
#   its ENERGY_OUTPUT property. OPTIONS go to energy-cuda, e.g.
#   --energy-objective=time or --energy-report=${CMAKE_BINARY_DIR}/r.json.
#   The headers the sources include are dependencies (a depfile from
#   energy-cuda -MD -MF), so editing one rebuilds the program.
#
# energy_tune_target(<target> [BOARD <name>] [OBJECTIVE energy|time|edp]
#                    [OPTIONS --energy-NAME[=VALUE] ...])
#
#   The one line that tunes an existing CUDA target (docs/cmake.md). Its
#   compiles see what the target's do: include directories, definitions,
#   C++ standard, CUDA_ARCHITECTURES and options, with those of the
#   libraries it links. BOARD is --energy-gpu=, OBJECTIVE
#   --energy-objective=; OPTIONS are further plugin options. The target
#   (and whatever links it) sees energy::headers.
#   - nvcc (CMAKE_CUDA_COMPILER_ID NVIDIA): each CUDA compile first plans
#     its source with the plugin through energy-cuda into a choices header,
#     then nvcc builds it with -DENERGY_CHOICES naming it
#     (EnergyNvccPlan.cmake). One architecture per target.
#   - clang: its CUDA compiles load the plugin (-fplugin=, -fpass-plugin=,
#     each option as -mllvm -energy-NAME[=VALUE]) and get energy-cuda's
#     CUDA 13 compatibility (energy_cuda_compat_flags).
#   Editing the plugin recompiles the target's CUDA sources.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/EnergyCudaCompat.cmake)

# Depfiles name their paths as the compiler saw them; CMake makes them
# relative to the build tree, as Ninja needs (policy CMP0116, CMake 3.20).
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

if(NOT ENERGY_INCLUDE_DIR)
  get_filename_component(ENERGY_INCLUDE_DIR
    ${CMAKE_CURRENT_LIST_DIR}/../include ABSOLUTE)
endif()
if(NOT ENERGY_CUDA_COMPAT_DIR)
  set(ENERGY_CUDA_COMPAT_DIR ${ENERGY_INCLUDE_DIR}/energy/cuda-compat)
endif()

if(NOT ENERGY_CUDA_DRIVER)
  if(ENERGY_BIN_DIR)
    set(ENERGY_CUDA_DRIVER ${ENERGY_BIN_DIR}/energy-cuda)
  else()
    set(ENERGY_CUDA_DRIVER ${PROJECT_BINARY_DIR}/bin/energy-cuda)
  endif()
endif()

function(energy_add_cuda_executable name)
  cmake_parse_arguments(ARG "" "ARCH" "OPTIONS" ${ARGN})
  if(NOT ARG_ARCH)
    set(ARG_ARCH sm_90)
  endif()
  set(sources)
  foreach(src ${ARG_UNPARSED_ARGUMENTS})
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND sources ${abs})
  endforeach()
  set(exe ${CMAKE_CURRENT_BINARY_DIR}/bin/${name})
  set(depfile ${CMAKE_CURRENT_BINARY_DIR}/bin/${name}.d)
  add_custom_command(OUTPUT ${exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/bin
    COMMAND ${ENERGY_CUDA_DRIVER} --arch=${ARG_ARCH} ${ARG_OPTIONS}
            -MD -MF ${depfile} ${sources} -o ${exe}
    DEPENDS ${sources} ${ENERGY_CUDA_DEPENDS}
    DEPFILE ${depfile}
    COMMENT "energy-cuda ${name} (${ARG_ARCH})"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${exe})
  set_target_properties(${name} PROPERTIES ENERGY_OUTPUT ${exe})
endfunction()

# energy_cuda_compat_flags(<var> <cuda root>): the flags energy-cuda adds to
# clang for CUDA 13 (the list in EnergyCudaCompat.cmake): the shim
# directory, nvcc's host min/max overloads, CCCL's include/cccl and
# -Wno-unknown-cuda-version.
function(energy_cuda_compat_flags out cuda_root)
  if(NOT cuda_root)
    message(FATAL_ERROR "energy: energy_cuda_compat_flags: no CUDA toolkit "
      "root (CMAKE_CUDA_COMPILER_TOOLKIT_ROOT for a clang CUDA project)")
  endif()
  _energy_fill_compat_flags(flags ${ENERGY_CUDA_COMPAT_DIR} ${cuda_root})
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

function(energy_tune_target target)
  cmake_parse_arguments(ARG "" "BOARD;OBJECTIVE" "OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "energy: energy_tune_target: unexpected arguments "
      "'${ARG_UNPARSED_ARGUMENTS}' (expected a target, then BOARD <name>, "
      "OBJECTIVE energy|time|edp, OPTIONS --energy-NAME[=VALUE] ...)")
  endif()
  _energy_check_tunable(energy_tune_target ${target})
  set(options ${ARG_OPTIONS})
  if(ARG_BOARD)
    list(APPEND options --energy-gpu=${ARG_BOARD})
  endif()
  if(ARG_OBJECTIVE)
    if(NOT ARG_OBJECTIVE MATCHES "^(energy|time|edp)$")
      message(FATAL_ERROR "energy: target '${target}': OBJECTIVE "
        "'${ARG_OBJECTIVE}' is not energy, time or edp")
    endif()
    list(APPEND options --energy-objective=${ARG_OBJECTIVE})
  endif()
  _energy_tune(${target} "${options}" "")
endfunction()

# What every route needs of <target>: that it exists, compiles here, in a
# project with CUDA enabled. <caller> names the function in the errors.
function(_energy_check_tunable caller target)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "energy: ${caller}: no target '${target}'")
  endif()
  get_target_property(type ${target} TYPE)
  get_target_property(imported ${target} IMPORTED)
  if(imported)
    set(type "imported ${type}")
  endif()
  if(imported OR type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
    message(FATAL_ERROR "energy: target '${target}' compiles nothing here "
      "(${type}); name the target whose .cu sources this project builds")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT CMAKE_CUDA_COMPILER_ID OR NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "energy: target '${target}' is not a CUDA target: "
      "CUDA is not enabled (project(... LANGUAGES CXX CUDA) or "
      "enable_language(CUDA))")
  endif()
endfunction()

# The one implementation of energy_tune_target and energy_nvcc_plan: the
# plugin options <options> for the target's CUDA compiles; <plan_sources>,
# if any, the .cu sources nvcc's route plans (default: all).
function(_energy_tune target options plan_sources)
  get_target_property(sources ${target} SOURCES)
  set(cuda_sources ${sources})
  list(FILTER cuda_sources INCLUDE REGEX "\\.cu$")
  if(NOT cuda_sources)
    message(FATAL_ERROR "energy: target '${target}' has no .cu sources: "
      "name the target that compiles the kernels (a library the executable "
      "links, say)")
  endif()
  foreach(opt ${options})
    if(NOT opt MATCHES "^--energy-")
      message(FATAL_ERROR "energy: target '${target}': option '${opt}' is "
        "not a plugin option (expected --energy-NAME[=VALUE])")
    endif()
  endforeach()

  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    _energy_tune_nvcc_target(${target} "${options}" "${plan_sources}")
  elseif(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
    set(flags -fplugin=${ENERGY_PLUGIN} -fpass-plugin=${ENERGY_PLUGIN})
    foreach(opt ${options})
      string(REGEX REPLACE "^--" "-" opt "${opt}")
      list(APPEND flags "SHELL:-mllvm ${opt}")
    endforeach()
    energy_cuda_compat_flags(compat "${CMAKE_CUDA_COMPILER_TOOLKIT_ROOT}")
    list(JOIN compat " " compat)
    list(APPEND flags "SHELL:${compat}")
    target_compile_options(${target} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:${flags}>")
  else()
    message(FATAL_ERROR "energy: target '${target}': its CUDA compiler is "
      "${CMAKE_CUDA_COMPILER_ID}; the energy plugin plans for nvcc or clang")
  endif()

  if(NOT TARGET energy::headers) # in the energy source tree
    add_library(energy::headers INTERFACE IMPORTED)
    set_target_properties(energy::headers PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES ${ENERGY_INCLUDE_DIR})
  endif()
  # Usage requirements: the target's compiles and its users' (a host .cpp
  # reading the choices) see energy.cuh. Set as properties so that either
  # target_link_libraries signature of the project's own still works.
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES energy::headers)
  set_property(TARGET ${target} APPEND PROPERTY
    INTERFACE_LINK_LIBRARIES energy::headers)
  get_target_property(source_dir ${target} SOURCE_DIR)
  foreach(src ${cuda_sources})
    set_property(SOURCE ${src} DIRECTORY ${source_dir} APPEND PROPERTY
      OBJECT_DEPENDS ${ENERGY_PLUGIN} ${ENERGY_CUDA_DEPENDS})
  endforeach()
endfunction()

# The nvcc route (_energy_tune_nvcc_target) is in EnergyNvccPlan.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/EnergyNvccPlan.cmake)
