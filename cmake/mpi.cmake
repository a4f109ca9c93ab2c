# SWARM_MPI: swarm-robots shards a run's robots over the ranks of `mpirun`
# (demos/robots/rank_group.h), and demos/mpi_robots shows an MPI program sharding a batch through
# the C API. AUTO turns it on when CMake finds MPI (Debian: libopenmpi-dev openmpi-bin, which
# scripts/install-deps.sh installs), except when cross-compiling, where the host's MPI would not
# link. Without it swarm-robots builds and runs as one process.
set(SWARM_MPI AUTO CACHE STRING "MPI sharding in swarm-robots: AUTO (when found), ON or OFF")
set_property(CACHE SWARM_MPI PROPERTY STRINGS AUTO ON OFF)

set(SWARM_WITH_MPI OFF)
if(SWARM_MPI STREQUAL "ON")
  find_package(MPI REQUIRED COMPONENTS CXX)
  set(SWARM_WITH_MPI ON)
elseif(SWARM_MPI STREQUAL "AUTO" AND NOT CMAKE_CROSSCOMPILING)
  find_package(MPI QUIET COMPONENTS CXX)
  set(SWARM_WITH_MPI ${MPI_CXX_FOUND})
elseif(NOT SWARM_MPI STREQUAL "AUTO" AND NOT SWARM_MPI STREQUAL "OFF")
  message(FATAL_ERROR "SWARM_MPI must be AUTO, ON or OFF, got '${SWARM_MPI}'")
endif()
if(SWARM_WITH_MPI)
  message(STATUS "swarm: MPI sharding on (${MPIEXEC_EXECUTABLE}, MPI ${MPI_CXX_VERSION})")
else()
  message(STATUS "swarm: MPI sharding off (SWARM_MPI=${SWARM_MPI})")
endif()
