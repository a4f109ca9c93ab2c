// libFuzzer harness for the URDF loader (engine/robots/urdf_loader.cc): any bytes go to
// LoadUrdfString with a 256 KiB size limit. Besides the sanitizers (stack overflow in urdfdom's
// recursive TinyXML, leaks of urdfdom's shared_ptr cycles, out-of-bounds reads in the outline
// scan), each accepted model must keep the loader's promises: links in pose order with joint i
// moving link i + 1 from an earlier parent, unit axes, finite numbers within the documented
// magnitudes, q columns in range, names that are valid UTF-8 (so info --json is valid JSON), and
// collision primitives (read for every third input) on links it has, with finite sizes and frames.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "swarm/robots/robot_model.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

// True for well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool IsUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    size_t length = byte < 0x80         ? 1
                    : (byte >> 5) == 6  ? 2
                    : (byte >> 4) == 14 ? 3
                    : (byte >> 3) == 30 ? 4
                                        : 0;
    if (length == 0 || i + length > text.size()) return false;
    uint32_t code = length == 1 ? byte : byte & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next >> 6) != 2) return false;
      code = (code << 6) | (next & 0x3F);
    }
    const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  UrdfOptions options;
  options.max_bytes = 256 << 10;
  options.floating_base = size % 2 == 1;
  // Every third input reads the <collision> primitives too (skipping meshes every sixth).
  options.collisions = size % 3 != 0   ? UrdfCollisions::kIgnore
                       : size % 2 == 0 ? UrdfCollisions::kPrimitives
                                       : UrdfCollisions::kSkipMeshes;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<RobotModel> model = LoadUrdfString(text, options, "fuzz.urdf");
  if (!model.ok()) {
    Require(model.status().message().starts_with("fuzz.urdf"));
    return 0;
  }
  for (const CollisionShape& shape : model->collision_shapes) {
    Require(shape.link >= 0 && static_cast<size_t>(shape.link) < model->links.size());
    for (double size : shape.size) Require(std::isfinite(size) && size >= 0.0);
    for (double value : shape.position) Require(std::isfinite(value));
    for (double value : shape.quaternion) Require(std::isfinite(value));
  }
  Require(model->links.size() == model->joints.size() + 1);
  Require(IsUtf8(model->name));
  for (const std::string& link : model->links) Require(IsUtf8(link));
  for (size_t i = 0; i < model->joints.size(); ++i) {
    const RobotJoint& joint = model->joints[i];
    Require(IsUtf8(joint.name));
    Require(joint.child_link == i + 1);
    Require(joint.parent_link <= i);
    for (double value : joint.origin_xyz) Require(std::fabs(value) <= kUrdfMaxMagnitude);
    double quat_norm = 0;
    for (double value : joint.origin_quat) quat_norm += value * value;
    Require(std::fabs(quat_norm - 1.0) < 1e-9);
    if (joint.type != RobotJointType::kFixed) {
      const double axis_norm = std::hypot(joint.axis[0], joint.axis[1], joint.axis[2]);
      Require(std::fabs(axis_norm - 1.0) < 1e-9);
      Require(joint.q_index >= 0 && static_cast<size_t>(joint.q_index) < model->dof());
    }
    if (joint.has_position_limits) Require(joint.lower <= joint.upper);
  }
  Require(model->QNames().size() == model->q_count());
  return 0;
}
