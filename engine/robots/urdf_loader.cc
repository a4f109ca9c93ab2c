// URDF loading: urdfdom (Debian liburdfdom, the ROS parser) reads the XML into its model, then
// swarm checks and normalises what the kernels rely on and numbers links and joints in pose order.
//
// What urdfdom does and does not do for us (liburdfdom 3.0):
// - It rejects malformed XML, unknown joint types, unparsable or non-finite numbers (its
//   number parser fails on "nan" and "inf"), missing parent or child links, several roots and
//   revolute or prismatic joints without <limit>. It reports these only through console_bridge's
//   global log, so parsing captures that log (under a lock) and turns it into the error message.
// - It accepts, and swarm rejects: a link that is the child of two joints and the cycles that
//   follow from it, planar and floating joints, zero axes, lower > upper, negative effort or
//   velocity limits, mimics of missing or fixed joints and mimic cycles.
// - Its links own each other through shared_ptrs, so joints in a cycle leak the model: cycles
//   are rejected before urdfdom sees them (CheckLinkGraph), and the links
//   of every model it returns are unlinked after use (BreakLinkCycles).
// - It stores joints and links in name-sorted maps. Pose order (links topological, root first,
//   joints[i] with child link i + 1) is a depth-first walk from the root that visits a link's
//   child joints in document order, so a quadruped's legs stay contiguous and in the order the
//   file lists them. Document order and line numbers come from a light scan of the text
//   (XmlOutline below), which also locates the problem when urdfdom rejects malformed XML.
// - It reads <joint> only as a direct child of <robot>, so joints inside <transmission> or
//   <ros2_control> are ignored, and it keeps joint and link names in separate maps, so a joint
//   and a link may share a name. Origins keep the quaternion urdfdom computed from rpy, never a
//   round trip through roll-pitch-yaw (which is singular at pitch = +-pi/2).
#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/robots/frame_math.h"
#include "engine/robots/urdf_xml_gate.h"
#include "engine/robots/urdf_xml_outline.h"
#include "swarm/core/input_file.h"
#include "swarm/core/text.h"
#include "swarm/robots/robot_model.h"

namespace swarm {
namespace {

// ---------------------------------------------------------------------------------------------
// urdfdom with its console_bridge log captured.

class CapturedLog : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level < console_bridge::CONSOLE_BRIDGE_LOG_ERROR) return;
    for (const std::string& seen : messages_) {
      if (seen == text) return;
    }
    messages_.push_back(text);
  }
  std::string Joined() const {
    std::string out;
    for (const std::string& message : messages_) out += (out.empty() ? "" : "; ") + message;
    return out;
  }

 private:
  std::vector<std::string> messages_;
};

struct UrdfdomResult {
  urdf::ModelInterfaceSharedPtr model;
  std::string errors;  // urdfdom's error log, "; "-separated
};

UrdfdomResult ParseWithUrdfdom(const std::string& text) {
  // console_bridge's handler, its "previous handler" and the level are process-wide: swap them
  // only under a lock and put all three back afterwards. useOutputHandler(h) makes the current
  // handler the previous one and restorePreviousOutputHandler swaps the two, so the previous one
  // is read by swapping, and restored by installing it and then the current one again.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  console_bridge::OutputHandler* const current = console_bridge::getOutputHandler();
  console_bridge::restorePreviousOutputHandler();
  console_bridge::OutputHandler* const previous = console_bridge::getOutputHandler();
  const console_bridge::LogLevel level = console_bridge::getLogLevel();
  CapturedLog captured;
  console_bridge::useOutputHandler(&captured);
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_ERROR);
  UrdfdomResult result;
  try {
    result.model = urdf::parseURDF(text);
  } catch (const std::exception& error) {
    result.model.reset();
    captured.log(error.what(), console_bridge::CONSOLE_BRIDGE_LOG_ERROR, "", 0);
  }
  console_bridge::setLogLevel(level);
  console_bridge::useOutputHandler(previous);
  console_bridge::useOutputHandler(current);
  result.errors = captured.Joined();
  return result;
}

// ---------------------------------------------------------------------------------------------
// The errors of a robot that is not a tree. CheckLinkGraph finds them in the text before urdfdom
// links anything; ModelBuilder checks urdfdom's model again, with the same messages.

Status ChildOfTwoJointsError(std::string_view source, const std::string& link,
                             const std::string& first_joint, const std::string& second_joint) {
  return InvalidArgument(std::string(source) + ": link " + Quoted(link) +
                         " is the child of two joints, " + Quoted(first_joint) + " and " +
                         Quoted(second_joint) + ": a URDF robot must be a tree");
}

// `cycle` lists the links, "a -> b -> a".
Status CycleError(std::string_view source, const std::string& cycle,
                  const std::string& closing_joint) {
  return InvalidArgument(std::string(source) + ": the joints form a cycle through links " + cycle +
                         " (joint " + Quoted(closing_joint) +
                         " closes it): a URDF robot must be a tree");
}

// ---------------------------------------------------------------------------------------------
// From urdfdom's model to swarm's.

class ModelBuilder {
 public:
  ModelBuilder(const urdf::ModelInterface& urdf, const XmlOutline& outline, std::string_view source,
               const UrdfOptions& options)
      : urdf_(urdf), source_(source), options_(options) {
    for (size_t i = 0; i < outline.robot_children.size(); ++i) {
      const XmlElementMark& mark = outline.robot_children[i];
      if (mark.tag == "joint" && !joint_line_.count(mark.name)) {
        joint_line_[mark.name] = mark.line;
        joint_document_index_[mark.name] = i;
      }
      if (mark.tag == "link" && !link_line_.count(mark.name)) link_line_[mark.name] = mark.line;
    }
  }

  Result<RobotModel> Build() {
    model_.name = urdf_.getName();
    model_.floating_base = options_.floating_base;
    if (Status status = CheckTreeShape(); !status.ok()) return status;
    if (Status status = OrderLinksAndJoints(); !status.ok()) return status;
    if (Status status = ResolveMimics(); !status.ok()) return status;
    if (Status status = CheckBaseCoordinateNames(); !status.ok()) return status;
    if (Status status = ConvertInertials(); !status.ok()) return status;
    if (options_.collisions != UrdfCollisions::kIgnore) {
      if (Status status = ConvertCollisions(); !status.ok()) return status;
    }
    return std::move(model_);
  }

 private:
  // With a floating base, q and velocity names start with the base's coordinates; a joint of the
  // same name would make a name stand for two columns (swarm-robots info, --q files).
  Status CheckBaseCoordinateNames() const {
    if (!model_.floating_base) return {};
    for (size_t joint : model_.dof_joints) {
      const std::string& name = model_.joints[joint].name;
      if (IsFloatingBaseCoordinateName(name)) {
        return InvalidArgument(JointContext(name) +
                               "has the name of a floating-base coordinate (base_x .. base_qz, "
                               "base_vx .. base_wz), which a floating base puts before the "
                               "joints: rename the joint or load the robot without a floating "
                               "base");
      }
    }
    return {};
  }

  // "<source>:line: joint 'name' " or "<source>: joint 'name' " when the line is unknown.
  std::string JointContext(const std::string& joint) const {
    std::string context(source_);
    if (const auto line = joint_line_.find(joint); line != joint_line_.end()) {
      context += ':';
      context += std::to_string(line->second);
    }
    context += ": joint ";
    context += Quoted(joint);
    context += ' ';
    return context;
  }

  // "<source>:line: link 'name' ", like JointContext.
  std::string LinkContext(const std::string& link) const {
    std::string context(source_);
    if (const auto line = link_line_.find(link); line != link_line_.end()) {
      context += ':';
      context += std::to_string(line->second);
    }
    return context + ": link " + Quoted(link) + ' ';
  }

  // Each link's <collision> primitives, in link order and, within a link, document order: a
  // sphere's radius, a box's half sizes, a cylinder's radius and half length; the origin as the
  // shape's frame in the link. Sizes must be finite floats > 0; a mesh is an error unless the
  // options skip meshes.
  Status ConvertCollisions() {
    for (size_t i = 0; i < model_.links.size(); ++i) {
      const urdf::Link& link = *urdf_.links_.at(model_.links[i]);
      for (const urdf::CollisionSharedPtr& collision : link.collision_array) {
        if (!collision || !collision->geometry) continue;
        const urdf::Geometry& geometry = *collision->geometry;
        CollisionShape shape;
        shape.name = collision->name;
        shape.link = static_cast<int>(i);
        std::vector<double> sizes;
        switch (geometry.type) {
          case urdf::Geometry::SPHERE:
            shape.type = CollisionShapeType::kSphere;
            sizes = {static_cast<const urdf::Sphere&>(geometry).radius};
            break;
          case urdf::Geometry::BOX: {
            const urdf::Vector3& dim = static_cast<const urdf::Box&>(geometry).dim;
            shape.type = CollisionShapeType::kBox;
            sizes = {dim.x / 2, dim.y / 2, dim.z / 2};
            break;
          }
          case urdf::Geometry::CYLINDER: {
            const auto& cylinder = static_cast<const urdf::Cylinder&>(geometry);
            shape.type = CollisionShapeType::kCylinder;
            sizes = {cylinder.radius, cylinder.length / 2};
            break;
          }
          default:
            if (options_.collisions == UrdfCollisions::kSkipMeshes) continue;
            return InvalidArgument(LinkContext(link.name) +
                                   "has a mesh <collision>, which swarm does not collide (read "
                                   "the primitives only and skip meshes, or remove it)");
        }
        for (size_t k = 0; k < sizes.size(); ++k) {
          if (!std::isfinite(sizes[k]) || !(sizes[k] > 0.0) || sizes[k] > FLT_MAX) {
            return InvalidArgument(LinkContext(link.name) + "has a <collision> " +
                                   CollisionShapeTypeName(shape.type) + " of size " +
                                   NumberText(sizes[k]) + ": expected a finite float > 0");
          }
          shape.size[k] = sizes[k];
        }
        const urdf::Vector3& p = collision->origin.position;
        const urdf::Rotation& r = collision->origin.rotation;
        for (const double value : {p.x, p.y, p.z, r.x, r.y, r.z, r.w}) {
          if (!std::isfinite(value) || std::fabs(value) > FLT_MAX) {
            return InvalidArgument(LinkContext(link.name) + "has a <collision> origin value " +
                                   NumberText(value) + " that is not a finite float");
          }
        }
        shape.position = {p.x, p.y, p.z};
        shape.quaternion = {r.x, r.y, r.z, r.w};
        model_.collision_shapes.push_back(std::move(shape));
      }
    }
    return {};
  }

  // Each link's <inertial> in its link frame: the centre of mass is the inertial origin, and the
  // tensor, given in the inertial frame, is rotated into the link frame (R I R^T). Numbers must be
  // finite and in float range, the mass >= 0; whether the tensor is physical is checked for the
  // bodies dynamics uses (rigid_body_tree.h), after massless links are folded into their parents.
  Status ConvertInertials() {
    model_.inertials.assign(model_.links.size(), LinkInertial{});
    for (size_t i = 0; i < model_.links.size(); ++i) {
      const urdf::Link& link = *urdf_.links_.at(model_.links[i]);
      if (!link.inertial) continue;
      const urdf::Inertial& in = *link.inertial;
      const urdf::Vector3& p = in.origin.position;
      const urdf::Rotation& r = in.origin.rotation;
      for (const double value : {in.mass, in.ixx, in.ixy, in.ixz, in.iyy, in.iyz, in.izz, p.x, p.y,
                                 p.z, r.x, r.y, r.z, r.w}) {
        if (!std::isfinite(value) || std::fabs(value) > FLT_MAX) {
          return InvalidArgument(LinkContext(link.name) + "has an inertial value " +
                                 NumberText(value) + " that is not a finite float");
        }
      }
      if (in.mass < 0.0) {
        return InvalidArgument(LinkContext(link.name) + "has a negative mass (" +
                               NumberText(in.mass) + " kg): expected >= 0");
      }
      LinkInertial& out = model_.inertials[i];
      out.present = true;
      out.mass = in.mass;
      out.com = {p.x, p.y, p.z};
      const double n = std::sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
      const frame_math::Mat3 rotation =
          frame_math::RotationOf({r.x / n, r.y / n, r.z / n, r.w / n});
      out.inertia = frame_math::RotateTensor(
          rotation, {in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz});
    }
    for (size_t j = 0; j < model_.joints.size(); ++j) {
      const urdf::Joint& joint = *urdf_.joints_.at(model_.joints[j].name);
      if (!joint.dynamics) continue;
      const double damping = joint.dynamics->damping, friction = joint.dynamics->friction;
      if (Status status = CheckNumbers(joint.name, "dynamics", {damping, friction}); !status.ok()) {
        return status;
      }
      if (damping < 0.0 || friction < 0.0) {
        return InvalidArgument(JointContext(joint.name) + "has negative dynamics (damping " +
                               NumberText(damping) + ", friction " + NumberText(friction) +
                               "): expected >= 0");
      }
      model_.joints[j].damping = damping;
      model_.joints[j].friction = friction;
    }
    return {};
  }

  // Every link is the child of at most one joint; joint types are ones swarm supports.
  Status CheckTreeShape() {
    for (const auto& [name, joint] : urdf_.joints_) {
      if (joint->type == urdf::Joint::PLANAR || joint->type == urdf::Joint::FLOATING) {
        const char* type = joint->type == urdf::Joint::PLANAR ? "planar" : "floating";
        return InvalidArgument(
            JointContext(name) + "has type " + type +
            ", which swarm does not support (supported: revolute, continuous, prismatic, fixed;"
            " a free-floating root link is UrdfOptions::floating_base)");
      }
      const auto [it, inserted] = parent_joint_.emplace(joint->child_link_name, name);
      if (!inserted)
        return ChildOfTwoJointsError(source_, joint->child_link_name, it->second, name);
    }
    return {};
  }

  // Depth-first from the root, child joints in document order (then by name, for joints the
  // outline could not place).
  Status OrderLinksAndJoints() {
    std::map<std::string, std::vector<const urdf::Joint*>> children;
    for (const auto& [name, joint] : urdf_.joints_) {
      children[joint->parent_link_name].push_back(joint.get());
    }
    for (auto& [parent, joints] : children) {
      std::stable_sort(joints.begin(), joints.end(),
                       [&](const urdf::Joint* a, const urdf::Joint* b) {
                         return DocumentIndex(a->name) < DocumentIndex(b->name);
                       });
    }
    const urdf::LinkConstSharedPtr root = urdf_.getRoot();
    if (!root) return InvalidArgument(std::string(source_) + ": the robot has no root link");
    std::map<std::string, size_t> link_index;
    model_.links.push_back(root->name);
    link_index[root->name] = 0;
    std::vector<const urdf::Joint*> stack;
    auto push_children = [&](const std::string& link) {
      const auto found = children.find(link);
      if (found == children.end()) return;
      for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) stack.push_back(*it);
    };
    push_children(root->name);
    while (!stack.empty()) {
      const urdf::Joint* joint = stack.back();
      stack.pop_back();
      RobotJoint converted;
      if (Status status = ConvertJoint(*joint, converted); !status.ok()) return status;
      converted.parent_link = link_index.at(joint->parent_link_name);
      converted.child_link = model_.links.size();
      link_index[joint->child_link_name] = model_.links.size();
      model_.links.push_back(joint->child_link_name);
      model_.joints.push_back(std::move(converted));
      push_children(joint->child_link_name);
    }
    if (model_.links.size() != urdf_.links_.size()) return DescribeCycle(link_index);
    return {};
  }

  size_t DocumentIndex(const std::string& joint) const {
    const auto found = joint_document_index_.find(joint);
    return found == joint_document_index_.end() ? SIZE_MAX : found->second;
  }

  // Links the walk from the root missed: each has a parent joint (only the root has none), so
  // following parents from one of them must come back to a link already passed: a cycle.
  Status DescribeCycle(const std::map<std::string, size_t>& reached) const {
    std::string link;
    for (const auto& [name, unused] : urdf_.links_) {
      if (!reached.count(name)) {
        link = name;
        break;
      }
    }
    std::vector<std::string> path;
    std::set<std::string> seen;
    while (!seen.count(link)) {
      seen.insert(link);
      path.push_back(link);
      const std::string& joint = parent_joint_.at(link);
      link = urdf_.joints_.at(joint)->parent_link_name;
    }
    std::string cycle = link;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      cycle += " -> " + *it;
      if (*it == link) break;
    }
    return CycleError(source_, cycle, parent_joint_.at(link));
  }

  // Every number must be finite and fit in float (the kernels compute in float); lengths and
  // limits must also be within kUrdfMaxMagnitude, so sums along a chain stay finite.
  Status CheckNumbers(const std::string& joint, const char* attribute,
                      std::initializer_list<double> values, double max_magnitude = FLT_MAX) const {
    for (double value : values) {
      if (!std::isfinite(value)) {
        return InvalidArgument(JointContext(joint) + "has a non-finite " + attribute + " (" +
                               NumberText(value) + ")");
      }
      if (std::fabs(value) > max_magnitude) {
        const bool float_range = max_magnitude == FLT_MAX;
        return InvalidArgument(JointContext(joint) + "has " + attribute + " " + NumberText(value) +
                               ", beyond " +
                               (float_range ? "float range (+-3.4e38)"
                                            : "+-" + NumberText(max_magnitude) +
                                                  " (lengths and limits larger than any robot)"));
      }
    }
    return {};
  }

  Status ConvertJoint(const urdf::Joint& joint, RobotJoint& out) const {
    out.name = joint.name;
    switch (joint.type) {
      case urdf::Joint::REVOLUTE:
        out.type = RobotJointType::kRevolute;
        break;
      case urdf::Joint::CONTINUOUS:
        out.type = RobotJointType::kContinuous;
        break;
      case urdf::Joint::PRISMATIC:
        out.type = RobotJointType::kPrismatic;
        break;
      case urdf::Joint::FIXED:
        out.type = RobotJointType::kFixed;
        break;
      default:
        return InvalidArgument(JointContext(joint.name) + "has an unknown type (urdfdom type " +
                               std::to_string(joint.type) + ")");
    }
    const urdf::Pose& origin = joint.parent_to_joint_origin_transform;
    const urdf::Rotation& rotation = origin.rotation;
    if (Status status = CheckNumbers(joint.name, "origin xyz",
                                     {origin.position.x, origin.position.y, origin.position.z},
                                     kUrdfMaxMagnitude);
        !status.ok()) {
      return status;
    }
    if (Status status = CheckNumbers(joint.name, "origin rpy",
                                     {rotation.x, rotation.y, rotation.z, rotation.w});
        !status.ok()) {
      return status;
    }
    out.origin_xyz = {origin.position.x, origin.position.y, origin.position.z};
    const double rotation_norm = std::sqrt(rotation.x * rotation.x + rotation.y * rotation.y +
                                           rotation.z * rotation.z + rotation.w * rotation.w);
    out.origin_quat = {rotation.x / rotation_norm, rotation.y / rotation_norm,
                       rotation.z / rotation_norm, rotation.w / rotation_norm};
    if (out.type == RobotJointType::kFixed) return {};  // axis, limits and mimic do not apply

    if (Status status =
            CheckNumbers(joint.name, "axis", {joint.axis.x, joint.axis.y, joint.axis.z});
        !status.ok()) {
      return status;
    }
    // In double: components up to 3.4e38 would overflow a sum of squares in float.
    const double axis_norm = std::hypot(joint.axis.x, joint.axis.y, joint.axis.z);
    if (!(axis_norm > 1e-12)) {
      return InvalidArgument(JointContext(joint.name) + "has a zero axis (" +
                             NumberText(joint.axis.x) + " " + NumberText(joint.axis.y) + " " +
                             NumberText(joint.axis.z) + "): expected a non-zero direction");
    }
    out.axis = {joint.axis.x / axis_norm, joint.axis.y / axis_norm, joint.axis.z / axis_norm};

    if (joint.limits) {
      const urdf::JointLimits& limits = *joint.limits;
      if (Status status =
              CheckNumbers(joint.name, "limit", {limits.lower, limits.upper}, kUrdfMaxMagnitude);
          !status.ok()) {
        return status;
      }
      if (Status status = CheckNumbers(joint.name, "limit", {limits.effort, limits.velocity});
          !status.ok()) {
        return status;
      }
      if (limits.effort < 0.0 || limits.velocity < 0.0) {
        return InvalidArgument(JointContext(joint.name) + "has a negative limit (effort " +
                               NumberText(limits.effort) + ", velocity " +
                               NumberText(limits.velocity) + "): expected >= 0");
      }
      out.effort_limit = limits.effort;
      out.velocity_limit = limits.velocity;
      // Continuous joints have no position limits whatever the file says. lower == upper (most
      // often 0 0) means "no limit" in the files people write, as MuJoCo reads it; it applies to
      // prismatic joints too, which otherwise could not move at all.
      if (out.type != RobotJointType::kContinuous && limits.lower != limits.upper) {
        if (limits.lower > limits.upper) {
          return InvalidArgument(JointContext(joint.name) + "has limit lower " +
                                 NumberText(limits.lower) + " > upper " + NumberText(limits.upper) +
                                 ": expected lower <= upper");
        }
        out.has_position_limits = true;
        out.lower = limits.lower;
        out.upper = limits.upper;
      }
    }
    if (joint.mimic) {
      if (Status status =
              CheckNumbers(joint.name, "mimic multiplier or offset",
                           {joint.mimic->multiplier, joint.mimic->offset}, kUrdfMaxMagnitude);
          !status.ok()) {
        return status;
      }
      out.is_mimic = true;
      out.mimic_multiplier = joint.mimic->multiplier;
      out.mimic_offset = joint.mimic->offset;
    }
    return {};
  }

  // Independent joints take q columns in pose order; a mimic joint follows its chain of masters
  // to an independent joint and composes the affine maps on the way:
  //   value = m1 (m2 q + o2) + o1 = (m1 m2) q + (m1 o2 + o1).
  Status ResolveMimics() {
    std::map<std::string, size_t> index_of;
    for (size_t i = 0; i < model_.joints.size(); ++i) {
      RobotJoint& joint = model_.joints[i];
      index_of[joint.name] = i;
      if (joint.type == RobotJointType::kFixed || joint.is_mimic) continue;
      joint.q_index = static_cast<int>(model_.dof_joints.size());
      model_.dof_joints.push_back(i);
    }
    for (RobotJoint& joint : model_.joints) {
      if (!joint.is_mimic) continue;
      double multiplier = joint.mimic_multiplier, offset = joint.mimic_offset;
      std::string chain = Quoted(joint.name);
      const urdf::Joint* current = urdf_.joints_.at(joint.name).get();
      std::set<std::string> visited = {joint.name};
      while (true) {
        const std::string& master_name = current->mimic->joint_name;
        chain += " -> " + Quoted(master_name);
        const auto master_index = index_of.find(master_name);
        if (master_index == index_of.end()) {
          const bool direct = current->name == joint.name;
          return InvalidArgument(JointContext(joint.name) + "mimics joint " + Quoted(master_name) +
                                 (direct ? "" : " (through " + chain + ")") +
                                 ", which does not exist");
        }
        if (visited.count(master_name)) {
          return InvalidArgument(JointContext(joint.name) + "is part of a mimic cycle: " + chain);
        }
        visited.insert(master_name);
        const RobotJoint& master = model_.joints[master_index->second];
        if (master.type == RobotJointType::kFixed) {
          return InvalidArgument(JointContext(joint.name) + "mimics joint " + Quoted(master_name) +
                                 ", which is fixed: expected a moving joint");
        }
        if (!master.is_mimic) {
          joint.q_index = master.q_index;
          break;
        }
        const urdf::Joint* next = urdf_.joints_.at(master_name).get();
        offset = multiplier * next->mimic->offset + offset;
        multiplier = multiplier * next->mimic->multiplier;
        current = next;
      }
      // A chain of mimics composes its multipliers: keep the product in range as well.
      if (Status status = CheckNumbers(joint.name, "a composed mimic multiplier or offset",
                                       {multiplier, offset}, kUrdfMaxMagnitude);
          !status.ok()) {
        return status;
      }
      joint.mimic_multiplier = multiplier;
      joint.mimic_offset = offset;
    }
    return {};
  }

  const urdf::ModelInterface& urdf_;
  std::string_view source_;
  const UrdfOptions& options_;
  std::map<std::string, int> joint_line_;
  std::map<std::string, size_t> joint_document_index_;
  std::map<std::string, int> link_line_;
  std::map<std::string, std::string> parent_joint_;  // child link -> joint
  RobotModel model_;
};

// urdfdom links hold their child links and joints by shared_ptr, so joints that form a cycle
// (which urdfdom accepts, see CheckTreeShape) leave a reference cycle that would never be freed.
void BreakLinkCycles(urdf::ModelInterface& model) {
  for (const auto& [name, link] : model.links_) {
    link->child_links.clear();
    link->child_joints.clear();
    link->parent_joint.reset();
  }
}

// urdfdom links the tree with shared_ptrs before it checks for a root, and it fails (returning
// nothing, leaking what it linked) on a file whose joints form a cycle as soon as anything else
// is wrong with it, e.g. a joint whose link is its own parent next to a misspelt <child>. So
// every cycle the text's joints can form is refused before urdfdom sees the text: a joint from a
// link to itself, a link with two parents (through which a loop can pass), a loop of joints, and
// links that are all some joint's child (no root).
Status CheckLinkGraph(const XmlOutline& outline, const std::string& source) {
  // Only a complete outline lists every link and joint (the XML gate has passed by now).
  if (!outline.open_at_end.empty() || !outline.unterminated.empty()) return {};
  std::set<std::string> links;
  std::map<std::string, std::pair<std::string, std::string>> parent_of;  // child: parent, joint
  for (const XmlElementMark& mark : outline.robot_children) {
    if (mark.tag == "link") links.insert(mark.name);
    if (mark.tag != "joint" || mark.parent_link.empty() || mark.child_link.empty()) continue;
    if (mark.parent_link == mark.child_link) {
      return InvalidArgument(source + ":" + std::to_string(mark.line) + ": joint " +
                             Quoted(mark.name) + " connects link " + Quoted(mark.child_link) +
                             " to itself: a URDF robot must be a tree");
    }
    const auto [it, inserted] =
        parent_of.emplace(mark.child_link, std::pair{mark.parent_link, mark.name});
    if (!inserted) {
      return ChildOfTwoJointsError(source, mark.child_link, it->second.second, mark.name);
    }
  }
  const bool has_root = std::any_of(
      links.begin(), links.end(), [&](const std::string& link) { return !parent_of.count(link); });
  if (!links.empty() && !has_root) {
    return InvalidArgument(source +
                           ": not a valid URDF: no root link: every link is the child of "
                           "a joint, so the joints form a cycle (a URDF robot must be a tree)");
  }
  // Following parents from each link must end at a link without one; coming back to the start
  // of the walk is a cycle. Links already known to reach a root are not walked again.
  std::set<std::string> reach_root;
  for (const auto& [start, unused] : parent_of) {
    std::vector<std::string> path{start};
    std::set<std::string> on_path{start};
    while (true) {
      const std::string& link = path.back();
      if (reach_root.count(link)) break;
      const auto parent = parent_of.find(link);
      if (parent == parent_of.end()) break;
      const std::string& next = parent->second.first;
      if (on_path.count(next)) {
        std::string cycle = next;
        const auto first = std::find(path.begin(), path.end(), next);
        for (auto it = path.end(); it != first;) cycle += " -> " + *--it;
        return CycleError(source, cycle, parent->second.second);
      }
      path.push_back(next);
      on_path.insert(next);
    }
    reach_root.insert(path.begin(), path.end());
  }
  return {};
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

Result<RobotModel> LoadUrdfString(std::string_view xml, const UrdfOptions& options,
                                  std::string_view source_name) {
  const std::string source(source_name);
  if (IsBlank(xml)) {
    return InvalidArgument(source + ": not a valid URDF: the text is empty (expected <robot>)");
  }
  // urdfdom parses a C string: an embedded NUL would silently cut the document short.
  if (const size_t nul = xml.find('\0'); nul != std::string_view::npos) {
    return InvalidArgument(source + ": not a valid URDF: a NUL byte at offset " +
                           std::to_string(nul) + " (a URDF is text)");
  }
  if (xml.size() > options.max_bytes) {
    return InvalidArgument(source + ": not a valid URDF: " + std::to_string(xml.size()) +
                           " bytes is larger than the limit of " +
                           std::to_string(options.max_bytes) +
                           " (UrdfOptions::max_bytes, swarm-robots --max-urdf-bytes)");
  }
  const std::string text(xml);
  const XmlOutline outline = ScanXml(text);
  const XmlLimits limits{kUrdfMaxDepth, kUrdfMaxElements, kUrdfMaxAttributesPerElement,
                         kUrdfMaxAttributes};
  if (Status gate = CheckXmlGate(text, limits); !gate.ok()) {
    std::string message = source + ": not a valid URDF: " + gate.message();
    if (!outline.has_element) message += " (no XML element in the text; expected <robot>)";
    if (const std::string end = DescribeXmlEnd(outline); !end.empty()) message += " (" + end + ")";
    return InvalidArgument(message);
  }
  if (Status status = CheckLinkGraph(outline, source); !status.ok()) return status;
  UrdfdomResult parsed = ParseWithUrdfdom(text);
  if (!parsed.model) {
    std::string message = source + ": not a valid URDF: " +
                          (parsed.errors.empty() ? "urdfdom rejected it" : parsed.errors);
    if (!outline.has_element) message += " (no XML element in the text; expected <robot>)";
    if (const std::string end = DescribeXmlEnd(outline); !end.empty()) message += " (" + end + ")";
    return InvalidArgument(message);
  }
  Result<RobotModel> model = ModelBuilder(*parsed.model, outline, source, options).Build();
  BreakLinkCycles(*parsed.model);
  return model;
}

Result<RobotModel> LoadUrdfFile(const std::string& path, const UrdfOptions& options) {
  Result<std::string> text =
      ReadInputFile(path, "URDF file", options.max_bytes,
                    "raise it with --max-urdf-bytes or UrdfOptions::max_bytes");
  if (!text.ok()) return text.status();
  if (text->empty()) {
    return InvalidArgument(path + ": not a valid URDF: the file is empty (expected <robot>)");
  }
  return LoadUrdfString(*text, options, path);
}

}  // namespace swarm
