# The swarm/ include root of the build tree. Sources and consumers spell every swarm header
# `swarm/<room>/<file>.h`, the path it has once installed (include/swarm/<room>/), while the
# source tree keeps the rooms where the architecture puts them (engine/<room>/, kernels/). The
# build tree bridges the two with one symbolic link per room under <binary dir>/include/swarm,
# so no header is copied and an edited header is seen by the next build without reconfiguring.
# The links reach internal headers too (the kernels' -inl.h, engine *_checks.h); only the
# installed tree holds just the public ones, and tests/gameloop compiles every installed header
# on its own to prove that no public header needs an internal one.

# The rooms: include/swarm/<name> -> <source root>/<folder>.
set(SWARM_INCLUDE_ROOMS
  core engine/core
  tensor engine/tensor
  vision engine/vision
  particles engine/particles
  render engine/render
  robots engine/robots
  c_api engine/c_api
  kernels kernels)

# swarm_make_include_root(<include dir> <source root>): creates <include dir>/swarm/<room> links
# and <include dir>/swarm/swarm.h (the umbrella header at the source root).
function(swarm_make_include_root include_dir source_root)
  file(MAKE_DIRECTORY ${include_dir}/swarm)
  set(rooms ${SWARM_INCLUDE_ROOMS})
  while(rooms)
    list(POP_FRONT rooms name folder)
    file(CREATE_LINK ${source_root}/${folder} ${include_dir}/swarm/${name} SYMBOLIC)
  endwhile()
  file(CREATE_LINK ${source_root}/swarm.h ${include_dir}/swarm/swarm.h SYMBOLIC)
endfunction()
