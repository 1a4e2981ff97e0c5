# energy_nvcc_plan(<target> [SOURCES <a.cu>...] [ARCH sm_XX] [OPTIONS ...])
#
# The two-step build for a target compiled by nvcc (CMake's CUDA language):
# each source (default: the target's .cu sources) is first planned by the
# energy plugin through energy-cuda, which writes the choices as a header,
# ${CMAKE_CURRENT_BINARY_DIR}/energy/<target>/<source>.choices.h; nvcc then
# compiles the source with -DENERGY_CHOICES naming that header, so each
# opted-in kernel gets its chosen launch bounds, record and tunable constants.
# The header is regenerated when the source changes. OPTIONS go to
# energy-cuda, e.g. --energy-objective=time; ARCH (default sm_90) is the GPU
# the plugin plans for. The plan sees the target's include directories and
# compile definitions, and the registers and spills of its best candidates
# come from this project's nvcc (CMAKE_CUDA_COMPILER) with them and
# CMAKE_CUDA_FLAGS (energy-cuda's --energy-resources=nvcc, the default with
# a header).
#
#   enable_language(CUDA)
#   add_executable(app app.cu)
#   energy_nvcc_plan(app ARCH sm_90)
#
# energy_tune_target(<target>) on a target nvcc compiles takes the same two
# steps inside each object's compile (_energy_tune_nvcc_target below), from
# the compile's own command line: see docs/cmake.md.
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
# (ccache, say) runs after the plan, around nvcc.
function(_energy_tune_nvcc_target target options)
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
  get_target_property(launcher ${target} CUDA_COMPILER_LAUNCHER)
  if(launcher)
    set(launcher ";${launcher}")
  else()
    set(launcher)
  endif()
  set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER
    "bash;${_ENERGY_NVCC_LAUNCHER};${ENERGY_CUDA_DRIVER};${CMAKE_CUDA_COMPILER};${options};--${launcher}")
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.cu$")
  set_property(SOURCE ${sources} DIRECTORY ${source_dir} APPEND PROPERTY
    OBJECT_DEPENDS ${_ENERGY_NVCC_LAUNCHER} ${ENERGY_CUDA_DRIVER})
endfunction()

function(energy_nvcc_plan target)
  cmake_parse_arguments(ARG "" "ARCH" "SOURCES;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "energy_nvcc_plan: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_ARCH)
    set(ARG_ARCH sm_90)
  endif()
  if(NOT ARG_SOURCES)
    get_target_property(all ${target} SOURCES)
    list(FILTER all INCLUDE REGEX "\\.cu$")
    set(ARG_SOURCES ${all})
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "energy_nvcc_plan: target ${target} has no .cu sources")
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/energy/${target})
  # What changes the device code the plan predicts: the target's include
  # directories and definitions (for the plan's clang and the nvcc that
  # counts registers), and the project's CUDA flags (for nvcc only).
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  separate_arguments(cuda_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
  list(TRANSFORM cuda_flags PREPEND "--energy-nvcc-flag=")
  foreach(src ${ARG_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(name ${src} NAME)
    set(header ${dir}/${name}.choices.h)
    add_custom_command(OUTPUT ${header}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${ENERGY_CUDA_DRIVER} -c --arch=${ARG_ARCH} --no-summary
              --energy-header=${header} ${ARG_OPTIONS}
              --energy-nvcc=${CMAKE_CUDA_COMPILER} ${cuda_flags}
              "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
              ${abs} -o ${dir}/${name}.plan.o
      DEPENDS ${abs} ${ENERGY_CUDA_DEPENDS}
      COMMENT "energy: planning ${name} for ${ARG_ARCH}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    target_sources(${target} PRIVATE ${header})
    set_property(SOURCE ${abs} APPEND PROPERTY OBJECT_DEPENDS ${header})
    set_property(SOURCE ${abs} APPEND PROPERTY COMPILE_DEFINITIONS
                 "ENERGY_CHOICES=\"${header}\"")
  endforeach()
  target_include_directories(${target} PRIVATE ${ENERGY_INCLUDE_DIR})
endfunction()
