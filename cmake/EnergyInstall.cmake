# Installation and the exported CMake package: a downstream project does
#   find_package(energy CONFIG REQUIRED)
# and gets the imported module target energy::energy (the pass plugin), the
# variable ENERGY_PLUGIN (its path), the CUDA header directory in
# ENERGY_INCLUDE_DIR, and the energy_add_cuda_executable() and
# energy_nvcc_plan() helpers.
include(CMakePackageConfigHelpers)

set(ENERGY_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/energy)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/energy
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT energyTargets NAMESPACE energy::
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/EnergyCUDA.cmake
              ${PROJECT_SOURCE_DIR}/cmake/EnergyNvccPlan.cmake
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/energyConfig.cmake.in
  ${PROJECT_BINARY_DIR}/energyConfig.cmake
  INSTALL_DESTINATION ${ENERGY_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/energyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/energyConfig.cmake
              ${PROJECT_BINARY_DIR}/energyConfigVersion.cmake
        DESTINATION ${ENERGY_INSTALL_CMAKEDIR})
