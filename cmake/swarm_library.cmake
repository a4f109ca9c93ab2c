# swarm_add_library(<room> SOURCES <file>... PUBLIC_HEADERS <file>...)
# One static library per room of the architecture: target swarm_<room>, alias and export name
# swarm::<room>, compiled with the project's warnings. PUBLIC_HEADERS is the explicit list that
# `cmake --install` copies to include/swarm/<room>/; every other header of the room is internal.
# Each room's CMakeLists.txt adds its own dependencies (PUBLIC only where a public header needs
# them, PRIVATE otherwise).
function(swarm_add_library room)
  cmake_parse_arguments(arg "" "" "SOURCES;PUBLIC_HEADERS" ${ARGN})
  add_library(swarm_${room} STATIC ${arg_SOURCES})
  add_library(swarm::${room} ALIAS swarm_${room})
  set_target_properties(swarm_${room} PROPERTIES EXPORT_NAME ${room})
  target_compile_options(swarm_${room} PRIVATE -Wall -Wextra)
  target_include_directories(swarm_${room} PUBLIC
    $<BUILD_INTERFACE:${SWARM_BUILD_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(FILES ${arg_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/swarm/${room})
  set_property(GLOBAL APPEND PROPERTY SWARM_LIBRARIES swarm_${room})
  list(TRANSFORM arg_PUBLIC_HEADERS PREPEND ${room}/)
  set_property(GLOBAL APPEND PROPERTY SWARM_PUBLIC_HEADERS ${arg_PUBLIC_HEADERS})
endfunction()
