# energy_nvcc_plan(<target> [SOURCES <a.cu>...] [ARCH sm_XX] [OPTIONS ...])
#
# The older form of energy_tune_target for a target nvcc compiles (CMake's
# CUDA language), kept for projects that use it: the same implementation
# (the launcher below), so the plan sees the target's include directories,
# definitions, C++ standard, CUDA_ARCHITECTURES and options, and an included
# header's change re-plans. SOURCES limits the plan to those .cu sources
# (the others build with the defaults); ARCH sm_XX, if given, is the one
# architecture the target is planned and built for: it sets the target's
# CUDA_ARCHITECTURES where the target takes the project's, and must agree
# with the target's own otherwise. OPTIONS are plugin options
# (--energy-NAME[=VALUE]), e.g. --energy-objective=time.
#
#   enable_language(CUDA)
#   add_executable(app app.cu)
#   set_target_properties(app PROPERTIES CUDA_ARCHITECTURES 90)
#   energy_nvcc_plan(app OPTIONS --energy-objective=time)
#
# See docs/cmake.md.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/EnergyCUDA.cmake) # ENERGY_CUDA_DRIVER

set(_ENERGY_NVCC_LAUNCHER ${CMAKE_CURRENT_LIST_DIR}/energy-nvcc-launcher.sh)

# energy_tune_target's nvcc route: the target's CUDA compiles run through
# energy-nvcc-launcher.sh, which plans each object's source with energy-cuda
# from nvcc's command line as CMake wrote it (so the include directories,
# definitions, standard, options and architectures are the target's,
# transitive usage requirements and generator expressions included), then
# runs nvcc with -DENERGY_CHOICES naming the header. Ninja and Make rebuild
# an object when its source or a header in nvcc's depfile changes, which
# plans it again: the header cannot go stale. A project's own launcher
# (ccache, say) runs after the plan, around nvcc. <plan_sources>, if any,
# are the only sources planned (energy_nvcc_plan's SOURCES).
function(_energy_tune_nvcc_target target options plan_sources)
  get_target_property(archs ${target} CUDA_ARCHITECTURES)
  if(NOT archs OR archs MATCHES "^(all|all-major|native)$")
    message(FATAL_ERROR "energy: target '${target}': CUDA_ARCHITECTURES is "
      "'${archs}'; the plan is for one architecture named in the build: set "
      "it to one, e.g. set_target_properties(${target} PROPERTIES "
      "CUDA_ARCHITECTURES 90)")
  endif()
  list(LENGTH archs count)
  if(count GREATER 1)
    message(FATAL_ERROR "energy: target '${target}': CUDA_ARCHITECTURES "
      "names ${count} architectures (${archs}); nvcc builds every one from one "
      "source with one choices header, and a header is planned for one "
      "architecture: give the target one, or build the program with "
      "energy-cuda, which plans and builds each architecture")
  endif()
  set(command bash ${_ENERGY_NVCC_LAUNCHER} ${ENERGY_CUDA_DRIVER}
              ${CMAKE_CUDA_COMPILER} ${options})
  foreach(src ${plan_sources})
    list(APPEND command --plan-only=${src})
  endforeach()
  list(APPEND command --)
  get_target_property(launcher ${target} CUDA_COMPILER_LAUNCHER)
  if(launcher)
    list(APPEND command ${launcher})
  endif()
  set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER "${command}")
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.cu$")
  set_property(SOURCE ${sources} DIRECTORY ${source_dir} APPEND PROPERTY
    OBJECT_DEPENDS ${_ENERGY_NVCC_LAUNCHER} ${ENERGY_CUDA_DRIVER})
endfunction()

function(energy_nvcc_plan target)
  cmake_parse_arguments(ARG "" "ARCH" "SOURCES;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "energy: energy_nvcc_plan: unexpected arguments "
      "'${ARG_UNPARSED_ARGUMENTS}' (expected a target, then SOURCES <a.cu>..., "
      "ARCH sm_XX, OPTIONS --energy-NAME[=VALUE] ...)")
  endif()
  _energy_check_tunable(energy_nvcc_plan ${target})
  if(NOT CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    message(FATAL_ERROR "energy: energy_nvcc_plan: target '${target}' is "
      "compiled by ${CMAKE_CUDA_COMPILER_ID}, not nvcc; energy_tune_target "
      "tunes either")
  endif()
  if(ARG_ARCH)
    if(NOT ARG_ARCH MATCHES "^(sm|compute)_([0-9]+[a-z]?)$")
      message(FATAL_ERROR "energy: energy_nvcc_plan: target '${target}': "
        "ARCH '${ARG_ARCH}' is not sm_XX")
    endif()
    set(number ${CMAKE_MATCH_2})
    get_target_property(archs ${target} CUDA_ARCHITECTURES)
    # The project's default (CMAKE_CUDA_ARCHITECTURES) is no choice of the
    # target's: ARCH names its architecture. A target's own must agree.
    if(NOT archs OR "${archs}" STREQUAL "${CMAKE_CUDA_ARCHITECTURES}")
      set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES ${number})
    elseif(NOT archs MATCHES "^${number}(-real|-virtual)?$")
      message(FATAL_ERROR "energy: energy_nvcc_plan: target '${target}': "
        "ARCH ${ARG_ARCH} but its CUDA_ARCHITECTURES is '${archs}'; the plan "
        "is for the architecture nvcc builds: drop ARCH, or set "
        "CUDA_ARCHITECTURES ${number}")
    endif()
  endif()
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(plan_sources)
  foreach(src ${ARG_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE BASE_DIR ${source_dir})
    list(APPEND plan_sources ${abs})
  endforeach()
  _energy_tune(${target} "${ARG_OPTIONS}" "${plan_sources}")
endfunction()
