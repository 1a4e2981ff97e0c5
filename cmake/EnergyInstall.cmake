# Installation and the exported CMake package: a downstream project does
#   find_package(energy CONFIG REQUIRED)
# with CMAKE_PREFIX_PATH=<install prefix> or energy_DIR=<this build tree>,
# and gets the imported module target energy::energy (the pass plugin), the
# interface target energy::headers (the include directory of
# <energy/energy.cuh>), the variable ENERGY_PLUGIN (the plugin's path), the
# CUDA header directory in ENERGY_INCLUDE_DIR, and the helpers
# energy_add_cuda_executable() and energy_tune_target() (EnergyCUDA.cmake,
# docs/cmake.md) and energy_nvcc_plan() (EnergyNvccPlan.cmake, with the
# launcher energy_tune_target gives nvcc targets).
include(CMakePackageConfigHelpers)

set(ENERGY_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/energy)

add_library(energy_headers INTERFACE)
add_library(energy::headers ALIAS energy_headers)
set_target_properties(energy_headers PROPERTIES EXPORT_NAME headers)
target_include_directories(energy_headers INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS energy_headers EXPORT energyTargets)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/energy
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT energyTargets NAMESPACE energy::
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/EnergyCUDA.cmake
              ${PROJECT_SOURCE_DIR}/cmake/EnergyCudaCompat.cmake
              ${PROJECT_SOURCE_DIR}/cmake/EnergyNvccPlan.cmake
              ${PROJECT_SOURCE_DIR}/cmake/energy-nvcc-launcher.sh
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})

# The same package for the build tree (energy_DIR=<build>): the targets
# where the build puts them, the headers and helpers from the source tree.
export(EXPORT energyTargets NAMESPACE energy::
       FILE ${PROJECT_BINARY_DIR}/energyTargets.cmake)
set(ENERGY_CONFIG_INCLUDE_DIR ${PROJECT_SOURCE_DIR}/include)
set(ENERGY_CONFIG_BIN_DIR ${PROJECT_BINARY_DIR}/bin)
set(ENERGY_CONFIG_MODULE_DIR ${PROJECT_SOURCE_DIR}/cmake)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/energyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/energyConfig.cmake
  INSTALL_DESTINATION ${PROJECT_BINARY_DIR}
  INSTALL_PREFIX ${PROJECT_BINARY_DIR}
  PATH_VARS ENERGY_CONFIG_INCLUDE_DIR ENERGY_CONFIG_BIN_DIR
            ENERGY_CONFIG_MODULE_DIR)

# The installed package: paths relative to the prefix (relocatable).
set(ENERGY_CONFIG_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR})
set(ENERGY_CONFIG_BIN_DIR ${CMAKE_INSTALL_BINDIR})
set(ENERGY_CONFIG_MODULE_DIR ${ENERGY_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/energyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/install/energyConfig.cmake
  INSTALL_DESTINATION ${ENERGY_INSTALL_CMAKEDIR}
  PATH_VARS ENERGY_CONFIG_INCLUDE_DIR ENERGY_CONFIG_BIN_DIR
            ENERGY_CONFIG_MODULE_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/energyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/install/energyConfig.cmake
              ${PROJECT_BINARY_DIR}/energyConfigVersion.cmake
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})
