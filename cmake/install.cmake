# Install rules: headers, the static libraries, a CMake package (swarm::swarm) and swarm.pc.
include(CMakePackageConfigHelpers)

set(SWARM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/swarm)

install(TARGETS swarm swarm_engine swarm_kernels EXPORT swarmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir engine kernels)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/swarm/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*-inl.h" EXCLUDE)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/swarm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/swarm)

install(EXPORT swarmTargets NAMESPACE swarm:: DESTINATION ${SWARM_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/swarmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/swarmConfig.cmake INSTALL_DESTINATION ${SWARM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/swarmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/swarmConfig.cmake ${PROJECT_BINARY_DIR}/swarmConfigVersion.cmake
  DESTINATION ${SWARM_INSTALL_CMAKEDIR})

configure_file(cmake/swarm.pc.in ${PROJECT_BINARY_DIR}/swarm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/swarm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
