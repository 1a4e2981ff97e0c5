# energy_add_cuda_executable(<name> <sources...> [ARCH sm_XX] [OPTIONS ...])
#
# Builds a CUDA program with clang-19 and the energy plugin through the
# energy-cuda driver (the CUDA 13 split pipeline) into
# ${CMAKE_CURRENT_BINARY_DIR}/bin/<name>; the target <name> has the path in
# its ENERGY_OUTPUT property. OPTIONS go to energy-cuda, e.g.
# --energy-objective=time or --energy-report=${CMAKE_BINARY_DIR}/r.json.
# Needs ENERGY_CUDA_DRIVER (set by the energy build and by find_package).
include_guard(GLOBAL)

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
  add_custom_command(OUTPUT ${exe}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/bin
    COMMAND ${ENERGY_CUDA_DRIVER} --arch=${ARG_ARCH} ${ARG_OPTIONS} ${sources} -o ${exe}
    DEPENDS ${sources} ${ENERGY_CUDA_DEPENDS}
    COMMENT "energy-cuda ${name} (${ARG_ARCH})"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${exe})
  set_target_properties(${name} PROPERTIES ENERGY_OUTPUT ${exe})
endfunction()
