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
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/EnergyCUDA.cmake) # ENERGY_CUDA_DRIVER

if(NOT ENERGY_INCLUDE_DIR)
  set(ENERGY_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include)
endif()

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
