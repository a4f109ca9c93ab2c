// MuJoCo's forward kinematics as the per-robot peer of swarm's batched robot kinematics
// (bench/robots_bench.cc): the loop a MuJoCo user writes to evaluate R configurations of one
// model, one mjData reused robot after robot (set qpos, mj_kinematics, read the body poses).
//
// Built only when CMake finds Debian's libmujoco-dev (2.2.2); this header names no MuJoCo type,
// so bench/robots_bench.cc compiles either way.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "swarm/core/status.h"

namespace swarm::bench {

// Doubles per body pose in MuJoCo's output: px py pz (d->xpos) then qw qx qy qz (d->xquat).
inline constexpr size_t kMujocoPoseValues = 7;

class MujocoKinematics {
 public:
  // Loads `urdf_path` with mj_loadXML (MuJoCo reads a URDF whose links carry no meshes; it fuses
  // links attached by fixed joints into their parents; bodies without <inertial> get a minimal
  // mass, see robots_peer_mujoco.cc) and maps every hinge or slide joint to
  // its position in `q_names` (swarm's q order; an error names a MuJoCo joint missing there or a
  // joint type other than hinge or slide). `workers` mjData are made, one per thread.
  static Result<std::unique_ptr<MujocoKinematics>> Load(const std::string& urdf_path,
                                                        const std::vector<std::string>& q_names,
                                                        size_t workers);
  ~MujocoKinematics();
  MujocoKinematics(const MujocoKinematics&) = delete;
  MujocoKinematics& operator=(const MujocoKinematics&) = delete;

  // Bodies reported per robot: every MuJoCo body but the world body.
  size_t body_count() const { return body_names_.size(); }
  const std::vector<std::string>& body_names() const { return body_names_; }
  size_t q_count() const { return q_count_; }

  // For r in [0, robots): qpos = q[r q_count() ...], mj_kinematics, then body b's pose to
  // poses[(r body_count() + b) 7 ...] (kMujocoPoseValues). `worker` < workers picks the mjData;
  // concurrent calls must use different workers.
  void Evaluate(const double* q, size_t robots, double* poses, size_t worker);

  static std::string Version();

 private:
  MujocoKinematics() = default;

  struct Handles;  // mjModel and the mjData, kept out of this header
  std::unique_ptr<Handles> handles_;
  std::vector<std::string> body_names_;
  std::vector<size_t> qpos_of_q_;  // qpos address of each q column
  size_t q_count_ = 0;
};

}  // namespace swarm::bench
