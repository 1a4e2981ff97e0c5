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
# energy_tune_target(<target> [OPTIONS ...])
#
#   Tunes the CUDA sources of an existing target: for a target whose CUDA
#   compiler is clang (CMAKE_CUDA_COMPILER_ID Clang), its CUDA compiles load
#   the plugin (-fplugin= and -fpass-plugin=), take OPTIONS as plugin options
#   (--energy-objective=time becomes -mllvm -energy-objective=time, as with
#   energy-cuda), and see the energy headers (energy::headers) and the CUDA 13
#   compatibility headers; editing the plugin recompiles them. nvcc cannot
#   load an LLVM pass plugin: a target compiled by nvcc is an error that says
#   so (energy_add_cuda_executable builds such sources with clang instead).
include_guard(GLOBAL)

# Depfiles name their paths as the compiler saw them; CMake makes them
# relative to the build tree, as Ninja needs (policy CMP0116, CMake 3.20).
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
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

function(energy_tune_target target)
  cmake_parse_arguments(ARG "" "" "OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "energy_tune_target: unexpected arguments "
      "'${ARG_UNPARSED_ARGUMENTS}' (expected a target and OPTIONS ...)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "energy_tune_target: no target '${target}'")
  endif()
  if(NOT CMAKE_CUDA_COMPILER_ID)
    message(FATAL_ERROR "energy_tune_target: target '${target}': CUDA is "
      "not enabled (project(... LANGUAGES CUDA) with clang as "
      "CMAKE_CUDA_COMPILER)")
  endif()
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    message(FATAL_ERROR "energy_tune_target: target '${target}': its CUDA "
      "compiler is nvcc, which cannot load the energy pass plugin; configure "
      "with -DCMAKE_CUDA_COMPILER=clang++, or build the sources with "
      "energy_add_cuda_executable() (clang through energy-cuda, which CUDA 13 "
      "needs)")
  endif()
  if(NOT CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "energy_tune_target: target '${target}': its CUDA "
      "compiler is ${CMAKE_CUDA_COMPILER_ID}; the energy plugin needs clang")
  endif()
  set(flags -fplugin=${ENERGY_PLUGIN} -fpass-plugin=${ENERGY_PLUGIN})
  foreach(opt ${ARG_OPTIONS})
    if(NOT opt MATCHES "^--energy-")
      message(FATAL_ERROR "energy_tune_target: target '${target}': option "
        "'${opt}' is not a plugin option (expected --energy-NAME[=VALUE])")
    endif()
    string(REGEX REPLACE "^--" "-" opt "${opt}")
    list(APPEND flags "SHELL:-mllvm ${opt}")
  endforeach()
  target_compile_options(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:CUDA>:${flags}>")
  target_include_directories(${target} SYSTEM PRIVATE
    "$<$<COMPILE_LANGUAGE:CUDA>:${ENERGY_CUDA_COMPAT_DIR}>")
  target_link_libraries(${target} PRIVATE energy::headers)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  foreach(src ${sources})
    if(src MATCHES "\\.cu$")
      set_property(SOURCE ${src} DIRECTORY ${source_dir} APPEND PROPERTY
        OBJECT_DEPENDS ${ENERGY_PLUGIN})
    endif()
  endforeach()
endfunction()
