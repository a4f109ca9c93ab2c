# swarm_add_library(<room> SOURCES <file>... PUBLIC_HEADERS <file>...)
# One static library per room of the architecture: target swarm_<room>, alias and export name
# swarm::<room>, compiled with the project's warnings. PUBLIC_HEADERS are paths below
# include/swarm/<room>/: the explicit list that `cmake --install` copies, keeping sub-folders
# (cmake/install.cmake checks that it names every file under include/swarm/). Every include of a
# swarm header names a real file (docs/design.md, "Include paths"): public headers as
# swarm/<room>/<file>.h below include/, internal ones (the kernels' -inl.h, engine *_checks.h)
# by their path from the source root, which only the project's own targets see.
# Each room's CMakeLists.txt adds its own dependencies (PUBLIC only where a public header needs
# them, PRIVATE otherwise).
function(swarm_add_library room)
  cmake_parse_arguments(arg "" "" "SOURCES;PUBLIC_HEADERS" ${ARGN})
  add_library(swarm_${room} STATIC ${arg_SOURCES})
  add_library(swarm::${room} ALIAS swarm_${room})
  set_target_properties(swarm_${room} PROPERTIES EXPORT_NAME ${room})
  target_compile_options(swarm_${room} PRIVATE -Wall -Wextra)
  swarm_use_include_dirs(swarm_${room})
  foreach(header IN LISTS arg_PUBLIC_HEADERS)
    get_filename_component(folder ${header} DIRECTORY)
    install(FILES ${SWARM_PUBLIC_INCLUDE_DIR}/swarm/${room}/${header}
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/swarm/${room}/${folder})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY SWARM_LIBRARIES swarm_${room})
  list(TRANSFORM arg_PUBLIC_HEADERS PREPEND ${room}/)
  set_property(GLOBAL APPEND PROPERTY SWARM_PUBLIC_HEADERS ${arg_PUBLIC_HEADERS})
endfunction()

# swarm_use_include_dirs(<target>): the project's two include directories. include/ holds the
# public headers (also the installed tree's, so consumers of the install see the same spelling);
# the source root holds the internal ones, seen while building only.
function(swarm_use_include_dirs target)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${SWARM_PUBLIC_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
endfunction()
