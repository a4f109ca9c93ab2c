// The pkg-config consumer: one file compiled with
//   g++ pkgconfig_check.cc $(pkg-config --cflags --libs swarm)
// and nothing else, so it passes only if swarm.pc names every include directory, library and
// dependency (Highway, GLM, libxxhash, threads) a program using the whole umbrella header needs.
// It touches each of them: kernels through a particle system, xxHash through the state hash,
// a worker thread through a two-thread pool.
#include <swarm/swarm.h>

#include <cstdio>

int main() {
  swarm::MemoryAccountant memory;
  swarm::ThreadPool pool(2);
  swarm::Result<swarm::ParticleSystem> created =
      swarm::ParticleSystem::Create(memory, 5000, swarm::ParticleConfig{});
  if (!created.ok()) {
    std::fprintf(stderr, "pkgconfig_check: %s\n", created.status().message().c_str());
    return 1;
  }
  for (int step = 0; step < 60; ++step) {
    if (swarm::Status s = created->Step(1.0f / 120.0f, pool); !s.ok()) {
      std::fprintf(stderr, "pkgconfig_check: %s\n", s.message().c_str());
      return 1;
    }
  }
  std::printf("pkg-config consumer: %u steps on %s, state hash %016llx\n", created->steps_taken(),
              swarm::ActiveSimdTarget().name.c_str(),
              static_cast<unsigned long long>(created->StateHash()));
  return 0;
}
