# Install rules: headers, the static libraries, a CMake package (swarm::swarm) and swarm.pc.
include(CMakePackageConfigHelpers)

set(SWARM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/swarm)

# The rooms' libraries and their public headers (each room lists its own: swarm_add_library in
# cmake/swarm_library.cmake). The list is also written to the build tree for tests/gameloop,
# which checks that exactly these headers are installed and that each compiles on its own.
get_property(SWARM_LIBRARIES GLOBAL PROPERTY SWARM_LIBRARIES)
install(TARGETS swarm ${SWARM_LIBRARIES} EXPORT swarmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${SWARM_PUBLIC_INCLUDE_DIR}/swarm/swarm.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/swarm)
get_property(SWARM_PUBLIC_HEADERS GLOBAL PROPERTY SWARM_PUBLIC_HEADERS)
list(APPEND SWARM_PUBLIC_HEADERS swarm.h)
list(SORT SWARM_PUBLIC_HEADERS)
# Everything under include/swarm/ is public: the rooms' lists must name exactly those files, so a
# header added there and forgotten in its room's list fails here, not in a consumer's build.
file(GLOB_RECURSE SWARM_HEADERS_ON_DISK RELATIVE ${SWARM_PUBLIC_INCLUDE_DIR}/swarm
  ${SWARM_PUBLIC_INCLUDE_DIR}/swarm/*)
list(SORT SWARM_HEADERS_ON_DISK)
if(NOT SWARM_HEADERS_ON_DISK STREQUAL SWARM_PUBLIC_HEADERS)
  set(listed_only ${SWARM_PUBLIC_HEADERS})
  list(REMOVE_ITEM listed_only ${SWARM_HEADERS_ON_DISK})
  set(unlisted ${SWARM_HEADERS_ON_DISK})
  list(REMOVE_ITEM unlisted ${SWARM_PUBLIC_HEADERS})
  message(FATAL_ERROR "include/swarm/ and the rooms' PUBLIC_HEADERS lists differ: listed but "
    "missing: '${listed_only}'; present but not listed: '${unlisted}'")
endif()
list(JOIN SWARM_PUBLIC_HEADERS "\n" SWARM_PUBLIC_HEADER_LINES)
file(WRITE ${PROJECT_BINARY_DIR}/swarm_public_headers.txt "${SWARM_PUBLIC_HEADER_LINES}\n")

install(EXPORT swarmTargets NAMESPACE swarm:: DESTINATION ${SWARM_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/swarmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/swarmConfig.cmake INSTALL_DESTINATION ${SWARM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/swarmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/swarmConfig.cmake ${PROJECT_BINARY_DIR}/swarmConfigVersion.cmake
  DESTINATION ${SWARM_INSTALL_CMAKEDIR})

# swarm.pc finds its prefix relative to its own location (${pcfiledir}, which pkg-config and
# pkgconf both define), so a tree installed with `cmake --install <build> --prefix <dir>` or moved
# after installation points at its own headers and libraries, not at the configure-time
# CMAKE_INSTALL_PREFIX. Absolute install dirs cannot be relocated and are written as given.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SWARM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(SWARM_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(SWARM_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH SWARM_PC_UP "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" SWARM_PC_UP "${SWARM_PC_UP}")
  set(SWARM_PC_PREFIX "\${pcfiledir}/${SWARM_PC_UP}")
  set(SWARM_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(SWARM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/swarm.pc.in ${PROJECT_BINARY_DIR}/swarm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/swarm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
