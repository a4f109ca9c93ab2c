// MJCF models as swarm robots: the mapping described in swarm/robots/mjcf_robot.h.
#include "swarm/robots/mjcf_robot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "engine/robots/frame_math.h"
#include "engine/robots/mjcf_document.h"
#include "engine/robots/mjcf_model.h"
#include "swarm/robots/contact_pairs.h"
#include "swarm/robots/heightfield.h"

namespace swarm {
namespace {

namespace fm = frame_math;

// The public default (mjcf_robot.h) is the reader's limit.
static_assert(kMjcfDefaultMaxBytes == kMjcfMaxBytes);

fm::Quat XyzwOf(const std::array<double, 4>& wxyz) { return {wxyz[1], wxyz[2], wxyz[3], wxyz[0]}; }

// The inertial of a link between two joints of one body: stated, and empty.
LinkInertial Massless() {
  LinkInertial inertial;
  inertial.present = true;
  return inertial;
}

class RobotBuilder {
 public:
  RobotBuilder(const MjcfDocument& document, const MjcfModel& model)
      : document_(document), model_(model) {}

  Result<MjcfRobot> Build() {
    Result<uint32_t> root = FindRoot();
    if (!root.ok()) return root.status();
    robot_.model.name = model_.name;
    robot_.files = document_.files;
    robot_.timestep = model_.option.timestep;
    robot_.gravity = model_.option.gravity;
    robot_.limits_enabled = model_.option.limits_enabled;
    robot_.contacts_enabled = model_.option.contact_enabled;
    robot_.filter_parent = model_.option.filter_parent;
    robot_.pyramidal_cone = model_.option.pyramidal_cone;
    robot_.impratio = model_.option.impratio;
    link_of_body_.assign(model_.bodies.size(), -1);
    joint_index_.assign(model_.joints.size(), -1);
    const MjcfBody& root_body = model_.bodies[*root];
    const bool floating = !root_body.joints.empty() &&
                          model_.joints[root_body.joints[0]].type == MjcfJointType::kFree;
    robot_.model.floating_base = floating;
    if (floating) {
      const MjcfJoint& free = model_.joints[root_body.joints[0]];
      if (free.position != std::array<double, 3>{0, 0, 0}) {
        return Error(root_body.element,
                     "has a free joint with a pos: it must be at the body's origin");
      }
      AddLink(root_body.name.empty() ? "body" + std::to_string(*root) : root_body.name,
              static_cast<int>(*root), root_body.inertial);
      link_of_body_[*root] = 0;
      const MjcfPose& pose = root_body.pose;
      q0_floating_ = {pose.position[0],   pose.position[1],   pose.position[2],  pose.quaternion[0],
                      pose.quaternion[1], pose.quaternion[2], pose.quaternion[3]};
    } else {
      AddLink("world", 0, LinkInertial{});
      link_of_body_[0] = 0;
      if (Status s = AddBody(*root); !s.ok()) return s;
    }
    for (uint32_t b = *root + 1; b < model_.bodies.size(); ++b) {
      // Other children of the world (static or mocap bodies) are not part of the robot.
      if (model_.bodies[b].parent <= 0 || link_of_body_[model_.bodies[b].parent] < 0) continue;
      if (Status s = AddBody(b); !s.ok()) return s;
    }
    if (Status s = CheckNames(); !s.ok()) return s;
    if (Status s = ApplyEqualities(); !s.ok()) return s;
    NumberColumns();
    if (Status s = ReadActuators(); !s.ok()) return s;
    SetEffortLimits();
    if (Status s = ReadLimitSoftness(); !s.ok()) return s;
    if (Status s = ReadKeyframes(); !s.ok()) return s;
    if (Status s = ReadCollisionShapes(); !s.ok()) return s;
    return std::move(robot_);
  }

 private:
  Status Error(uint32_t element, const std::string& problem) const {
    return document_.Error(element, problem);
  }

  // The world's one child whose subtree has joints.
  Result<uint32_t> FindRoot() const {
    std::vector<bool> has_joints(model_.bodies.size(), false);
    for (size_t b = model_.bodies.size(); b-- > 1;) {
      if (!model_.bodies[b].joints.empty()) has_joints[b] = true;
      if (has_joints[b]) has_joints[model_.bodies[b].parent] = true;
    }
    int64_t root = -1;
    for (uint32_t b = 1; b < model_.bodies.size(); ++b) {
      if (model_.bodies[b].parent != 0 || !has_joints[b]) continue;
      if (root >= 0) {
        const MjcfBody& other = model_.bodies[b];
        return Error(other.element,
                     "body '" + other.name + "' is a second tree with joints beside '" +
                         model_.bodies[root].name +
                         "': swarm reads one robot per file and does not simulate objects yet");
      }
      root = b;
    }
    if (root < 0) {
      return InvalidArgument(document_.files[0] + ": the model has no joints: nothing would move");
    }
    return static_cast<uint32_t>(root);
  }

  void AddLink(std::string name, int body, const LinkInertial& inertial) {
    robot_.model.links.push_back(std::move(name));
    robot_.model.inertials.push_back(inertial);
    robot_.link_body.push_back(body);
  }

  // Adds a joint from `parent` to a new link.
  RobotJoint& AddJoint(std::string name, RobotJointType type, size_t parent, const fm::Vec3& xyz,
                       const fm::Quat& quat, std::string link, int body,
                       const LinkInertial& inertial) {
    RobotJoint joint;
    joint.name = std::move(name);
    joint.type = type;
    joint.parent_link = parent;
    joint.child_link = robot_.model.links.size();
    joint.origin_xyz = xyz;
    joint.origin_quat = quat;
    AddLink(std::move(link), body, inertial);
    robot_.model.joints.push_back(std::move(joint));
    return robot_.model.joints.back();
  }

  Status AddBody(uint32_t b) {
    const MjcfBody& body = model_.bodies[b];
    const std::string name = body.name.empty() ? "body" + std::to_string(b) : body.name;
    size_t parent = static_cast<size_t>(link_of_body_[body.parent]);
    const fm::Mat3 rotation = fm::RotationOf(XyzwOf(body.pose.quaternion));
    fm::Vec3 xyz = body.pose.position;
    fm::Quat quat = XyzwOf(body.pose.quaternion);
    fm::Vec3 previous_anchor{0, 0, 0};
    bool first = true;
    if (body.joints.empty()) {
      AddJoint(name + "/fixed", RobotJointType::kFixed, parent, xyz, quat, name,
               static_cast<int>(b), body.inertial);
      link_of_body_[b] = static_cast<int>(robot_.model.links.size() - 1);
      return Status();
    }
    for (size_t k = 0; k < body.joints.size(); ++k) {
      const uint32_t j = body.joints[k];
      const MjcfJoint& source = model_.joints[j];
      for (double v : source.position) {
        if (!(std::fabs(v) <= kUrdfMaxMagnitude)) {
          return Error(body.element, "joint '" + source.name + "' has a pos beyond 1e9");
        }
      }
      // The joint frame sits at the anchor, reached from the previous anchor (the body's
      // pose for the first joint).
      fm::Vec3 offset{source.position[0] - previous_anchor[0],
                      source.position[1] - previous_anchor[1],
                      source.position[2] - previous_anchor[2]};
      if (first) {
        const fm::Vec3 turned = fm::Rotate(rotation, source.position);
        offset = {xyz[0] + turned[0], xyz[1] + turned[1], xyz[2] + turned[2]};
      } else {
        quat = {0, 0, 0, 1};
      }
      // At q = ref the body sits where the file puts it: turn (or shift) the joint frame by -ref.
      if (source.type == MjcfJointType::kHinge && source.ref != 0.0) {
        quat = fm::Multiply(quat, fm::QuatOfAxisAngle(source.axis, -source.ref));
      } else if (source.type == MjcfJointType::kSlide && source.ref != 0.0) {
        const fm::Vec3 shift = fm::Rotate(fm::RotationOf(quat), source.axis);
        for (int c = 0; c < 3; ++c) offset[c] -= source.ref * shift[c];
      }
      const bool last = k + 1 == body.joints.size();
      const bool anchored = source.position != fm::Vec3{0, 0, 0};
      const std::string joint_name =
          source.name.empty() ? "joint" + std::to_string(j) : source.name;
      const bool body_link = last && !anchored;
      RobotJointType type = RobotJointType::kPrismatic;
      if (source.type == MjcfJointType::kHinge) {
        type = source.limited ? RobotJointType::kRevolute : RobotJointType::kContinuous;
      }
      RobotJoint& joint = AddJoint(
          joint_name, type, parent, offset, quat, body_link ? name : name + "/" + joint_name,
          body_link ? static_cast<int>(b) : -1, body_link ? body.inertial : Massless());
      joint.axis = source.axis;
      joint.has_position_limits = source.limited;
      joint.lower = source.limited ? source.range[0] : 0.0;
      joint.upper = source.limited ? source.range[1] : 0.0;
      joint.damping = source.damping;
      joint.friction = source.frictionloss;
      if (source.stiffness != 0.0) {
        return Error(body.element, "joint '" + joint_name +
                                       "' has a stiffness: joint springs are not supported yet");
      }
      joint_index_[j] = static_cast<int>(robot_.model.joints.size() - 1);
      parent = robot_.model.links.size() - 1;
      previous_anchor = source.position;
      first = false;
      if (last && anchored) {
        AddJoint(name + "/anchor", RobotJointType::kFixed, parent,
                 {-source.position[0], -source.position[1], -source.position[2]}, {0, 0, 0, 1},
                 name, static_cast<int>(b), body.inertial);
      }
    }
    link_of_body_[b] = static_cast<int>(robot_.model.links.size() - 1);
    return Status();
  }

  Status CheckNames() const {
    std::set<std::string> links, joints;
    for (const std::string& link : robot_.model.links) {
      if (!links.insert(link).second) {
        return InvalidArgument(document_.files[0] + ": two links would be named '" + link +
                               "' (a body's name and the link of another body's joint)");
      }
    }
    for (const RobotJoint& joint : robot_.model.joints) {
      if (!joints.insert(joint.name).second) {
        return InvalidArgument(document_.files[0] + ": two joints would be named '" + joint.name +
                               "'");
      }
      if (robot_.model.floating_base && IsFloatingBaseCoordinateName(joint.name)) {
        return InvalidArgument(document_.files[0] + ": joint '" + joint.name +
                               "' has the name of a floating-base coordinate");
      }
    }
    return Status();
  }

  Status ApplyEqualities() {
    for (const MjcfJointEquality& equality : model_.equalities) {
      if (!equality.active) continue;
      const auto& c = equality.polycoef;
      if (equality.joint2 < 0) {
        return Error(equality.element,
                     "holds a joint at a value (no joint2), which swarm does not support");
      }
      if (c[2] != 0.0 || c[3] != 0.0 || c[4] != 0.0 || c[1] == 0.0) {
        return Error(equality.element,
                     "polycoef must be linear with c1 != 0 (swarm makes joint2 follow joint1)");
      }
      if (equality.joint1 == static_cast<uint32_t>(equality.joint2)) {
        return Error(equality.element,
                     "couples joint '" + model_.joints[equality.joint1].name + "' with itself");
      }
      const int leader = joint_index_[equality.joint1];
      const int follower = joint_index_[static_cast<uint32_t>(equality.joint2)];
      if (leader < 0 || follower < 0) {
        return Error(equality.element, "couples a joint outside the robot");
      }
      RobotJoint& joint = robot_.model.joints[static_cast<size_t>(follower)];
      if (joint.is_mimic || robot_.model.joints[static_cast<size_t>(leader)].is_mimic ||
          followed_.count(follower) != 0) {
        return Error(equality.element, "chains joint equalities: each joint may take part in one");
      }
      const double ref1 = model_.joints[equality.joint1].ref;
      const double ref2 = model_.joints[static_cast<uint32_t>(equality.joint2)].ref;
      // (q1 - ref1) = c0 + c1 (q2 - ref2)  <=>  q2 = q1 / c1 + ref2 - (ref1 + c0) / c1.
      joint.is_mimic = true;
      joint.mimic_multiplier = 1.0 / c[1];
      joint.mimic_offset = ref2 - (ref1 + c[0]) / c[1];
      mimic_leader_[follower] = leader;
      followed_.insert(leader);
    }
    return Status();
  }

  void NumberColumns() {
    RobotModel& m = robot_.model;
    for (size_t j = 0; j < m.joints.size(); ++j) {
      RobotJoint& joint = m.joints[j];
      if (joint.type == RobotJointType::kFixed || joint.is_mimic) continue;
      joint.q_index = static_cast<int>(m.dof_joints.size());
      m.dof_joints.push_back(j);
    }
    for (const auto& [follower, leader] : mimic_leader_) {
      m.joints[static_cast<size_t>(follower)].q_index =
          m.joints[static_cast<size_t>(leader)].q_index;
    }
    robot_.q0.clear();
    if (m.floating_base) robot_.q0.assign(q0_floating_.begin(), q0_floating_.end());
    robot_.armature.assign(m.dof(), 0.0);
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
      const int index = joint_index_[j];
      if (index < 0) continue;
      const RobotJoint& joint = m.joints[static_cast<size_t>(index)];
      // A follower's rotor turns multiplier times as fast as its leader's: its armature is the
      // leader's, times multiplier^2, in the leader's column.
      const double factor = joint.is_mimic ? joint.mimic_multiplier : 1.0;
      robot_.armature[static_cast<size_t>(joint.q_index)] +=
          factor * factor * model_.joints[j].armature;
      if (!joint.is_mimic) robot_.q0.push_back(model_.joints[j].ref);
    }
  }

  // The dof an MJCF joint drives, or -1 (a joint outside the robot, or a mimic).
  int DofOf(uint32_t j) const {
    const int index = joint_index_[j];
    if (index < 0) return -1;
    const RobotJoint& joint = robot_.model.joints[static_cast<size_t>(index)];
    return joint.is_mimic ? -1 : joint.q_index;
  }

  Status ReadActuators() {
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
      const MjcfJoint& joint = model_.joints[j];
      if (joint.actuator_force_limited &&
          joint.actuator_force_range[0] != -joint.actuator_force_range[1]) {
        return InvalidArgument(document_.files[0] + ": joint '" + joint.name +
                               "' has an actuatorfrcrange that is not symmetric (-x x): swarm's "
                               "joint effort limits are");
      }
    }
    for (const MjcfActuator& source : model_.actuators) {
      const int dof = DofOf(source.joint);
      if (dof < 0) {
        return Error(source.element, "drives joint '" + model_.joints[source.joint].name +
                                         "', which follows another joint through an equality "
                                         "or is not part of the robot");
      }
      if (source.gain[1] != 0.0 || source.gain[2] != 0.0) {
        return Error(source.element, "gainprm[1] and [2] must be 0 (a fixed gain reads [0])");
      }
      if (source.bias[2] > 0.0) {
        return Error(source.element,
                     "biasprm[2] > 0 is a velocity gain that adds energy, which swarm does not "
                     "support (a position actuator's kv is -biasprm[2])");
      }
      MjcfRobotActuator actuator;
      actuator.name = source.name;
      actuator.dof = static_cast<size_t>(dof);
      actuator.gear = source.gear;
      actuator.gain = source.gain[0];
      actuator.bias = source.bias;
      actuator.ctrl_limited = source.ctrl_limited;
      actuator.ctrl_range = source.ctrl_range;
      actuator.force_limited = source.force_limited;
      actuator.force_range = source.force_range;
      robot_.actuators.push_back(std::move(actuator));
    }
    return Status();
  }

  void SetEffortLimits() {
    RobotModel& m = robot_.model;
    std::vector<double> limit(m.dof(), 0.0);
    std::vector<bool> unlimited(m.dof(), false);
    for (const MjcfRobotActuator& actuator : robot_.actuators) {
      if (!actuator.force_limited) {
        unlimited[actuator.dof] = true;
        continue;
      }
      limit[actuator.dof] +=
          std::fabs(actuator.gear) *
          std::max(std::fabs(actuator.force_range[0]), std::fabs(actuator.force_range[1]));
    }
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
      const int dof = DofOf(j);
      if (dof < 0) continue;
      double& effort = m.joints[m.dof_joints[static_cast<size_t>(dof)]].effort_limit;
      const MjcfJoint& source = model_.joints[j];
      if (source.actuator_force_limited) {
        // Symmetric (checked in ReadActuators' caller): swarm's effort limits are.
        effort = source.actuator_force_range[1];
      } else if (!unlimited[static_cast<size_t>(dof)]) {
        effort = limit[static_cast<size_t>(dof)];
      }
    }
  }

  Status ReadLimitSoftness() {
    bool first = true;
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
      const MjcfJoint& joint = model_.joints[j];
      if (!joint.limited || DofOf(j) < 0) continue;
      if (first) {
        robot_.limit_solref = joint.solref_limit;
        robot_.limit_solimp = joint.solimp_limit;
        first = false;
      } else if (joint.solref_limit != robot_.limit_solref ||
                 joint.solimp_limit != robot_.limit_solimp) {
        return InvalidArgument(document_.files[0] + ": joint '" + joint.name +
                               "' has its own solreflimit or solimplimit: swarm's joint limits "
                               "share one soft constraint");
      }
    }
    if (robot_.limit_solref[0] <= 0.0 || robot_.limit_solref[1] <= 0.0) {
      return InvalidArgument(document_.files[0] +
                             ": solreflimit must be positive (time constant and damping ratio; "
                             "direct stiffness and damping are not supported)");
    }
    return Status();
  }

  // A body's pose in the world at the file's configuration (bodies outside the robot).
  std::pair<fm::Vec3, fm::Quat> WorldPose(uint32_t b) const {
    if (b == 0) return {fm::Vec3{0, 0, 0}, fm::Quat{0, 0, 0, 1}};
    const MjcfBody& body = model_.bodies[b];
    const auto [parent_position, parent_quat] = WorldPose(static_cast<uint32_t>(body.parent));
    const fm::Vec3 offset = fm::Rotate(fm::RotationOf(parent_quat), body.pose.position);
    return {fm::Vec3{parent_position[0] + offset[0], parent_position[1] + offset[1],
                     parent_position[2] + offset[2]},
            fm::Multiply(parent_quat, XyzwOf(body.pose.quaternion))};
  }

  // Heightfield h's grid in metres (swarm/robots/heightfield.h), read once however many geoms use
  // it: its elevation numbers, its file, or zeros.
  Result<std::shared_ptr<const Heightfield>> HeightfieldOf(size_t h) {
    if (heightfields_.size() < model_.heightfields.size()) {
      heightfields_.resize(model_.heightfields.size());
    }
    if (heightfields_[h]) return heightfields_[h];
    const MjcfHeightfield& field = model_.heightfields[h];
    HeightfieldGrid grid;
    if (!field.file.empty()) {
      MemoryAccountant scratch;  // decoding only: freed before this returns
      Result<HeightfieldGrid> read = ReadHeightfieldGrid(scratch, field.file);
      if (!read.ok()) return Error(field.element, "file: " + read.status().message());
      grid = std::move(*read);
    } else {
      grid.rows = field.rows;
      grid.columns = field.columns;
      grid.values.assign(size_t{field.rows} * field.columns, 0.0f);
      for (size_t i = 0; i < field.elevation.size(); ++i) {
        grid.values[i] = static_cast<float>(field.elevation[i]);
      }
    }
    Result<std::shared_ptr<const Heightfield>> heights = NormalisedHeightfield(grid, field.size[2]);
    if (!heights.ok()) return Error(field.element, heights.status().message());
    heightfields_[h] = *heights;
    return heights;
  }

  Status ReadCollisionShapes() {
    std::vector<bool> paired(model_.geoms.size(), false);
    for (const MjcfPair& pair : model_.pairs) paired[pair.geom1] = paired[pair.geom2] = true;
    std::vector<int> shape_of_geom(model_.geoms.size(), -1);
    for (uint32_t g = 0; g < model_.geoms.size(); ++g) {
      const MjcfGeom& geom = model_.geoms[g];
      if (geom.contype == 0 && geom.conaffinity == 0 && !paired[g]) continue;  // visual
      const uint32_t b = model_.geom_body[g];
      const std::string what =
          "geom " + (geom.name.empty() ? std::to_string(g) : "'" + geom.name + "'");
      if (geom.type == MjcfGeomType::kMesh) {
        return Error(model_.bodies[b].element,
                     what +
                         " collides but is a mesh, which swarm does not read yet "
                         "(contype=\"0\" conaffinity=\"0\" keeps it visual)");
      }
      CollisionShape shape;
      shape.name = geom.name;
      // MjcfGeomType's solids in order (meshes were refused above).
      constexpr CollisionShapeType kShapeOf[] = {
          CollisionShapeType::kPlane,     CollisionShapeType::kHeightfield,
          CollisionShapeType::kSphere,    CollisionShapeType::kCapsule,
          CollisionShapeType::kEllipsoid, CollisionShapeType::kCylinder,
          CollisionShapeType::kBox};
      shape.type = kShapeOf[static_cast<int>(geom.type)];
      const bool on_robot = b != 0 && link_of_body_[b] >= 0;
      shape.link = on_robot ? link_of_body_[b] : -1;
      fm::Vec3 position = geom.pose.position;
      fm::Quat quat = XyzwOf(geom.pose.quaternion);
      if (!on_robot) {  // fixed in the world, where the file puts its body
        const auto [body_position, body_quat] = WorldPose(b);
        const fm::Vec3 offset = fm::Rotate(fm::RotationOf(body_quat), position);
        position = {body_position[0] + offset[0], body_position[1] + offset[1],
                    body_position[2] + offset[2]};
        quat = fm::Multiply(body_quat, quat);
      }
      shape.position = position;
      shape.quaternion = quat;
      shape.size = geom.size;
      if (geom.type == MjcfGeomType::kHfield) {
        const auto h = static_cast<size_t>(model_.geom_heightfield[g]);
        Result<std::shared_ptr<const Heightfield>> grid = HeightfieldOf(h);
        if (!grid.ok()) return grid.status();
        const MjcfHeightfield& field = model_.heightfields[h];
        shape.size = {field.size[0], field.size[1], field.size[3]};
        shape.heightfield = std::move(*grid);
      }
      shape.contype = static_cast<uint32_t>(geom.contype);
      shape.conaffinity = static_cast<uint32_t>(geom.conaffinity);
      shape.condim = geom.condim;
      shape.priority = geom.priority;
      shape.friction = geom.friction;
      shape.solref = geom.solref;
      shape.solimp = geom.solimp;
      shape.margin = geom.margin;
      shape.gap = geom.gap;
      shape.solmix = geom.solmix;
      shape_of_geom[g] = static_cast<int>(robot_.collision_shapes.size());
      robot_.collision_shapes.push_back(std::move(shape));
      robot_.shape_body.push_back(static_cast<int>(b));
      robot_.shape_geom.push_back(static_cast<int>(g));
    }
    for (const MjcfPair& source : model_.pairs) {
      CollisionPair pair;
      uint32_t geom1 = source.geom1, geom2 = source.geom2;
      if (model_.geom_body[geom1] > model_.geom_body[geom2]) std::swap(geom1, geom2);  // MuJoCo's
      pair.shape1 = static_cast<uint32_t>(shape_of_geom[geom1]);
      pair.shape2 = static_cast<uint32_t>(shape_of_geom[geom2]);
      // What the pair leaves out comes from its geoms, as MuJoCo's compiler mixes them.
      const ContactPair mixed = MixContactParameters(robot_.collision_shapes[pair.shape1],
                                                     robot_.collision_shapes[pair.shape2],
                                                     /*explicit_pair=*/true);
      pair.condim = source.has_condim ? source.condim : mixed.condim;
      pair.friction = source.has_friction ? source.friction : mixed.friction;
      pair.solref = source.has_solref ? source.solref : mixed.solref;
      pair.solimp = source.has_solimp ? source.solimp : mixed.solimp;
      pair.margin = source.has_margin ? source.margin : mixed.margin;
      pair.gap = source.has_gap ? source.gap : mixed.gap;
      robot_.collision_pairs.push_back(pair);
    }
    const auto link_of = [&](uint32_t b) { return b == 0 ? -1 : link_of_body_[b]; };
    for (const MjcfExclude& exclude : model_.excludes) {
      robot_.collision_excludes.push_back({link_of(exclude.body1), link_of(exclude.body2),
                                           static_cast<int>(exclude.body1),
                                           static_cast<int>(exclude.body2)});
    }
    return Status();
  }

  Status ReadKeyframes() {
    const RobotModel& m = robot_.model;
    for (const MjcfKeyframe& key : model_.keyframes) {
      MjcfRobotKeyframe out;
      out.name = key.name;
      out.q = robot_.q0;
      out.velocities.assign(m.velocity_count(), 0.0);
      out.ctrl = key.ctrl.empty() ? std::vector<double>(robot_.actuators.size(), 0.0) : key.ctrl;
      size_t qpos = 0, qvel = 0;
      for (uint32_t j = 0; j < model_.joints.size(); ++j) {
        const MjcfJoint& joint = model_.joints[j];
        if (joint.type == MjcfJointType::kFree) {
          if (!key.qpos.empty()) {
            std::copy(key.qpos.begin() + qpos, key.qpos.begin() + qpos + 7, out.q.begin());
            const double norm = std::sqrt(out.q[3] * out.q[3] + out.q[4] * out.q[4] +
                                          out.q[5] * out.q[5] + out.q[6] * out.q[6]);
            if (!(norm > 0.0)) return Error(key.element, "the free joint's quaternion is zero");
            for (int k = 3; k < 7; ++k) out.q[k] /= norm;
          }
          if (!key.qvel.empty()) {
            // MuJoCo: linear velocity in the world frame; swarm: in the base frame.
            const fm::Mat3 r = fm::RotationOf({out.q[4], out.q[5], out.q[6], out.q[3]});
            const fm::Vec3 v{key.qvel[qvel], key.qvel[qvel + 1], key.qvel[qvel + 2]};
            const fm::Vec3 local{r[0] * v[0] + r[3] * v[1] + r[6] * v[2],
                                 r[1] * v[0] + r[4] * v[1] + r[7] * v[2],
                                 r[2] * v[0] + r[5] * v[1] + r[8] * v[2]};
            for (int k = 0; k < 3; ++k) {
              out.velocities[k] = local[k];
              out.velocities[3 + k] = key.qvel[qvel + 3 + k];
            }
          }
          qpos += 7, qvel += 6;
          continue;
        }
        const int dof = DofOf(j);
        if (dof >= 0) {
          const size_t base = m.floating_base ? kFloatingBaseArrays : 0;
          const size_t velocity_base = m.floating_base ? 6 : 0;
          if (!key.qpos.empty()) out.q[base + static_cast<size_t>(dof)] = key.qpos[qpos];
          if (!key.qvel.empty()) {
            out.velocities[velocity_base + static_cast<size_t>(dof)] = key.qvel[qvel];
          }
        }
        qpos += 1, qvel += 1;
      }
      robot_.keyframes.push_back(std::move(out));
    }
    return Status();
  }

  const MjcfDocument& document_;
  const MjcfModel& model_;
  MjcfRobot robot_;
  std::vector<int> link_of_body_;  // per MJCF body: its link, -1 outside the robot
  std::vector<std::shared_ptr<const Heightfield>> heightfields_;  // per asset, once read
  std::vector<int> joint_index_;     // per MJCF joint: its RobotJoint, -1 outside the robot
  std::map<int, int> mimic_leader_;  // follower joint -> leader joint
  std::set<int> followed_;
  std::array<double, 7> q0_floating_{};
};

Result<MjcfRobot> Load(Result<MjcfDocument> document) {
  if (!document.ok()) return document.status();
  Result<MjcfModel> model = ReadMjcfModel(*document);
  if (!model.ok()) return model.status();
  return RobotBuilder(*document, *model).Build();
}

}  // namespace

Result<MjcfRobot> LoadMjcfFile(const std::string& path, const MjcfOptions& options) {
  MjcfReadOptions read;
  read.max_bytes = options.max_bytes;
  return Load(ReadMjcfFile(path, read));
}

Result<MjcfRobot> LoadMjcfString(std::string_view xml, const std::string& path,
                                 const MjcfOptions& options) {
  MjcfReadOptions read;
  read.max_bytes = options.max_bytes;
  return Load(ReadMjcfText(xml, path, read));
}

RobotBatchConfig MjcfTorqueConfig(const MjcfRobot& robot) {
  RobotBatchConfig config;
  config.torque.enabled = true;
  config.torque.dynamics.armature = robot.armature;
  constexpr float kUnlimited = std::numeric_limits<float>::infinity();
  for (const MjcfRobotActuator& source : robot.actuators) {
    JointActuator actuator;
    actuator.dof = static_cast<uint32_t>(source.dof);
    actuator.gear = static_cast<float>(source.gear);
    actuator.gain = static_cast<float>(source.gain);
    actuator.bias_constant = static_cast<float>(source.bias[0]);
    actuator.bias_position = static_cast<float>(source.bias[1]);
    actuator.bias_velocity = static_cast<float>(source.bias[2]);
    actuator.ctrl_lower =
        source.ctrl_limited ? static_cast<float>(source.ctrl_range[0]) : -kUnlimited;
    actuator.ctrl_upper =
        source.ctrl_limited ? static_cast<float>(source.ctrl_range[1]) : kUnlimited;
    actuator.force_lower =
        source.force_limited ? static_cast<float>(source.force_range[0]) : -kUnlimited;
    actuator.force_upper =
        source.force_limited ? static_cast<float>(source.force_range[1]) : kUnlimited;
    config.torque.actuators.push_back(actuator);
  }
  for (int k = 0; k < 3; ++k) config.torque.gravity[k] = static_cast<float>(robot.gravity[k]);
  // MuJoCo clamps the impedance into [0.0001, 0.9999] (mjMINIMP, mjMAXIMP).
  const auto impedance = [](double d) { return static_cast<float>(std::clamp(d, 0.0001, 0.9999)); };
  SoftConstraint& limits = config.torque.limits;
  limits.time_constant = static_cast<float>(robot.limit_solref[0]);
  limits.damping_ratio = static_cast<float>(robot.limit_solref[1]);
  limits.impedance_min = impedance(robot.limit_solimp[0]);
  limits.impedance_max = impedance(robot.limit_solimp[1]);
  limits.width = static_cast<float>(robot.limit_solimp[2]);
  limits.midpoint = static_cast<float>(std::clamp(robot.limit_solimp[3], 0.0001, 0.9999));
  limits.power = static_cast<int>(
      std::clamp(std::round(robot.limit_solimp[4]), 1.0, static_cast<double>(kMaxImpedancePower)));
  if (!robot.limits_enabled) {  // <flag limit="disable">: no joint limit acts
    config.control = DefaultJointControl(robot.model);
    for (JointControl& joint : config.control) {
      joint.lower = -std::numeric_limits<float>::infinity();
      joint.upper = std::numeric_limits<float>::infinity();
    }
  }
  return config;
}

}  // namespace swarm
