// libFuzzer harness for the MJCF reader (engine/robots/mjcf_document.cc) and the robots made of
// it (swarm/robots/mjcf_robot.h): any bytes go to ReadMjcfText and LoadMjcfString as the main
// file of a folder that does not exist (so every <include> fails to open), with a 256 KiB limit.
// Besides the sanitizers, each accepted document must keep the reader's promises: elements after
// their parents with consistent child lists, classes after their parents, every element's
// attribute sources ending with itself and reading numbers without a crash (finite values only);
// and each accepted robot its layout: a body or -1 per link, joints and q columns in range,
// keyframes and q0 of the model's sizes, finite inertials, rigid bodies that either build or say
// why, and contact pairs that either build (shapes in range, in MuJoCo's order, finite
// parameters) or say why.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/robots/mjcf_document.h"
#include "swarm/robots/contact_pairs.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/rigid_body_tree.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  MjcfReadOptions options;
  options.max_bytes = 256 << 10;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<MjcfDocument> document = ReadMjcfText(text, "/nonexistent-mjcf-fuzz/model.xml", options);
  if (!document.ok()) {
    Require(document.status().message().starts_with("/nonexistent-mjcf-fuzz/"));
    return 0;
  }
  Require(!document->elements.empty() && document->elements[0].tag == "mujoco");
  for (uint32_t e = 0; e < document->elements.size(); ++e) {
    const MjcfElement& element = document->elements[e];
    Require(e == 0 ? element.parent == 0 : element.parent < e);
    for (uint32_t child : element.children) Require(document->elements[child].parent == e);
    Require(element.file < document->files.size());
    Result<std::vector<uint32_t>> sources = document->AttributeSources(e);
    if (!sources.ok()) continue;
    Require(!sources->empty() && sources->back() == e);
    Result<std::vector<double>> values = MjcfNumbers(*document, e, "pos", {0, 0, 0});
    if (values.ok()) {
      for (double value : *values) Require(std::isfinite(value));
    }
  }
  for (size_t c = 0; c < document->classes.size(); ++c) {
    Require(c == 0 ? document->classes[c].parent == -1
                   : document->classes[c].parent >= 0 &&
                         static_cast<size_t>(document->classes[c].parent) < c);
  }

  MjcfOptions robot_options;
  robot_options.max_bytes = options.max_bytes;
  Result<MjcfRobot> robot = LoadMjcfString(text, "/nonexistent-mjcf-fuzz/model.xml", robot_options);
  if (!robot.ok()) return 0;
  const RobotModel& model = robot->model;
  Require(robot->link_body.size() == model.links.size());
  Require(model.inertials.size() == model.links.size());
  Require(model.joints.size() + 1 == model.links.size());
  for (const RobotJoint& joint : model.joints) {
    Require(joint.parent_link < joint.child_link && joint.child_link < model.links.size());
    Require(joint.type == RobotJointType::kFixed ||
            (joint.q_index >= 0 && static_cast<size_t>(joint.q_index) < model.dof()));
  }
  for (const LinkInertial& inertial : model.inertials) {
    Require(std::isfinite(inertial.mass) && inertial.mass >= 0.0);
    for (double value : inertial.inertia) Require(std::isfinite(value));
  }
  Require(robot->q0.size() == model.q_count() && robot->armature.size() == model.dof());
  for (const MjcfRobotKeyframe& key : robot->keyframes) {
    Require(key.q.size() == model.q_count() && key.velocities.size() == model.velocity_count());
    Require(key.ctrl.size() == robot->actuators.size());
  }
  for (const MjcfRobotActuator& actuator : robot->actuators) Require(actuator.dof < model.dof());
  Result<RigidBodyTree> bodies = BuildRigidBodyTree(model);
  Require(bodies.ok() || !bodies.status().message().empty());
  // The contact pairs: shapes in range, the lower type first, parameters finite.
  Require(robot->shape_body.size() == robot->collision_shapes.size());
  Result<std::vector<ContactPair>> pairs = MjcfContactPairs(*robot);
  Require(pairs.ok() || !pairs.status().message().empty());
  if (pairs.ok()) {
    for (const ContactPair& pair : *pairs) {
      Require(pair.shape1 < robot->collision_shapes.size() &&
              pair.shape2 < robot->collision_shapes.size());
      Require(robot->collision_shapes[pair.shape1].type <=
              robot->collision_shapes[pair.shape2].type);
      Require(std::isfinite(pair.margin) && std::isfinite(pair.gap));
      for (double value : pair.friction) Require(std::isfinite(value));
    }
  }
  return 0;
}
