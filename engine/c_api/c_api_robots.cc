// C API: robot models from URDF or MJCF and robot batches (swarm/robots/robot_batch.h) with their
// state as zero-copy tensor views.
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/c_api/c_api_internal.h"
#include "engine/c_api/c_api_robots_internal.h"
#include "swarm/robots/robot_batch.h"
#include "swarm/robots/robot_model.h"
#include "swarm/tensor/tensor_adapters.h"

namespace swarm::c_api {
namespace {

swarm_status Invalid(const char* function, const std::string& message) {
  return Fail(SWARM_INVALID_ARGUMENT, std::string(function) + ": " + message);
}

Result<UrdfOptions> ToUrdfOptions(const swarm_urdf_desc* desc) {
  UrdfOptions options;
  if (desc != nullptr) {
    options.floating_base = desc->floating_base;
    if (desc->max_bytes != 0) options.max_bytes = desc->max_bytes;
    const int collisions = EnumValue(desc->collisions);
    if (collisions < SWARM_URDF_COLLISIONS_IGNORE ||
        collisions > SWARM_URDF_COLLISIONS_SKIP_MESHES) {
      return InvalidArgument("desc->collisions must be a swarm_urdf_collisions (0 .. 2), got " +
                             std::to_string(collisions));
    }
    options.collisions = static_cast<UrdfCollisions>(collisions);
  }
  return options;
}

swarm_status NewModel(const char* function, Result<RobotModel> model, swarm_robot_model* out) {
  if (!model.ok()) return Report(function, model.status());
  *out = new swarm_robot_model_impl{std::move(model).value(), std::nullopt};
  return SWARM_OK;
}

// A per-joint array of the desc into `apply(joint index, value)`, checked finite >= 0.
template <typename Apply>
swarm_status ReadJointValues(const char* function, const char* field, const float* values,
                             size_t dof, const Apply& apply) {
  if (values == nullptr) return SWARM_OK;
  for (size_t j = 0; j < dof; ++j) {
    if (!std::isfinite(values[j]) || values[j] < 0.0f) {
      return Invalid(function, std::string("desc->") + field + "[" + std::to_string(j) +
                                   "] must be finite and >= 0, got " + std::to_string(values[j]));
    }
    apply(j, values[j]);
  }
  return SWARM_OK;
}

// A soft constraint desc onto `soft`: zero means default, anything else is used as given (and
// checked by RobotBatch::Create, naming the field).
void ApplySoftConstraint(const swarm_soft_constraint_desc& desc, SoftConstraint* soft) {
  const auto apply = [](auto value, auto* field) {
    if (value != 0) *field = value;
  };
  apply(desc.time_constant, &soft->time_constant);
  apply(desc.damping_ratio, &soft->damping_ratio);
  apply(desc.impedance_min, &soft->impedance_min);
  apply(desc.impedance_max, &soft->impedance_max);
  apply(desc.width, &soft->width);
  apply(desc.midpoint, &soft->midpoint);
  apply(desc.power, &soft->power);
  apply(desc.max_push_speed, &soft->max_push_speed);
}

// The RobotBatchConfig a desc asks for (the fields swarm_c.h documents), or an error status.
swarm_status ToBatchConfig(const char* function, const swarm_robot_model_impl& source,
                           const swarm_robot_batch_desc& desc, RobotBatchConfig* config) {
  const RobotModel& model = source.model;
  const size_t dof = model.dof();
  // An MJCF model's torque settings (armature, gravity, limits, actuators) are the defaults.
  if (desc.torque && source.mjcf) config->torque = MjcfTorqueConfig(*source.mjcf).torque;
  if (desc.collisions) {
    Result<CollisionModel> collisions =
        source.mjcf ? MjcfCollisionModel(*source.mjcf) : UrdfCollisionModel(model);
    if (!collisions.ok()) {
      return Invalid(function, "desc->collisions: " + collisions.status().message());
    }
    config->collisions = std::move(collisions).value();
  }
  if (desc.world_contacts && !desc.collisions) {
    return Invalid(function, "desc->world_contacts needs desc->collisions");
  }
  if ((desc.kp != nullptr || desc.kd != nullptr || desc.armature != nullptr) && desc.dof != dof) {
    return Invalid(function, "desc->dof must be the model's " + std::to_string(dof) +
                                 " independent joints (the length of kp, kd and armature), got " +
                                 std::to_string(desc.dof));
  }
  config->control = DefaultJointControl(model);
  std::vector<JointControl>& control = config->control;
  if (swarm_status s = ReadJointValues(function, "kp", desc.kp, dof,
                                       [&](size_t j, float v) { control[j].kp = v; });
      s != SWARM_OK) {
    return s;
  }
  if (swarm_status s = ReadJointValues(function, "kd", desc.kd, dof,
                                       [&](size_t j, float v) { control[j].kd = v; });
      s != SWARM_OK) {
    return s;
  }
  if (desc.end_effector != nullptr) {
    Result<size_t> link = model.FindLink(desc.end_effector);
    if (!link.ok()) return Invalid(function, "desc->end_effector: " + link.status().message());
    config->end_effector = link.value();
  }
  TorqueModeConfig& torque = config->torque;
  torque.enabled = desc.torque;
  torque.world_contacts = desc.world_contacts;
  const bool torque_only_fields = desc.armature != nullptr || desc.gravity != nullptr ||
                                  EnumValue(desc.integrator) != 0 || desc.contacts ||
                                  desc.world_contacts || desc.limits != nullptr ||
                                  desc.limit_tolerance != 0.0f || desc.max_joint_speed != 0.0f ||
                                  desc.max_base_angular_speed != 0.0f || desc.max_step_turn != 0.0f;
  if (!desc.torque && torque_only_fields) {
    return Invalid(function,
                   "desc->armature, gravity, integrator, contacts, world_contacts, limits, "
                   "limit_tolerance, max_joint_speed, max_base_angular_speed and max_step_turn "
                   "need desc->torque "
                   "(a kinematic batch has no dynamics)");
  }
  if (desc.armature != nullptr) torque.dynamics.armature.assign(dof, 0.0);
  if (swarm_status s = ReadJointValues(function, "armature", desc.armature, dof,
                                       [&](size_t j, float v) { torque.dynamics.armature[j] = v; });
      s != SWARM_OK) {
    return s;
  }
  if (desc.gravity != nullptr) {
    for (int k = 0; k < 3; ++k) torque.gravity[k] = desc.gravity[k];
  }
  if (desc.limits != nullptr) ApplySoftConstraint(*desc.limits, &torque.limits);
  if (desc.limit_tolerance != 0.0f) torque.limit_tolerance = desc.limit_tolerance;
  if (desc.max_joint_speed != 0.0f) torque.max_joint_speed = desc.max_joint_speed;
  if (desc.max_base_angular_speed != 0.0f) {
    torque.max_base_angular_speed = desc.max_base_angular_speed;
  }
  if (desc.max_step_turn != 0.0f) torque.max_step_turn = desc.max_step_turn;
  switch (EnumValue(desc.integrator)) {
    case SWARM_INTEGRATOR_SEMI_IMPLICIT_EULER:
      torque.integrator = TorqueIntegrator::kSemiImplicitEuler;
      break;
    case SWARM_INTEGRATOR_RK4:
      torque.integrator = TorqueIntegrator::kRungeKutta4;
      break;
    default:
      return Invalid(function,
                     "desc->integrator must be SWARM_INTEGRATOR_SEMI_IMPLICIT_EULER "
                     "(0) or SWARM_INTEGRATOR_RK4 (1), got " +
                         std::to_string(EnumValue(desc.integrator)));
  }
  GroundContactConfig& contacts = torque.contacts;
  contacts.enabled = desc.contacts;
  if (desc.contact_link_count > 0 && desc.contact_links == nullptr) {
    return Invalid(function, "desc->contact_links is null but contact_link_count is " +
                                 std::to_string(desc.contact_link_count));
  }
  if (!desc.contacts &&
      (desc.contact_link_count > 0 || desc.ground != nullptr || desc.contact_radius != 0.0f)) {
    return Invalid(function, "desc->contact_links, contact_radius and ground need desc->contacts");
  }
  for (size_t c = 0; c < desc.contact_link_count; ++c) {
    if (desc.contact_links[c] == nullptr) {
      return Invalid(function, "desc->contact_links[" + std::to_string(c) + "] is null");
    }
    contacts.links.emplace_back(desc.contact_links[c]);
  }
  contacts.radius = desc.contact_radius;
  if (desc.ground != nullptr) {
    contacts.ground.height = desc.ground->height;
    contacts.ground.friction = desc.ground->friction;
    ApplySoftConstraint(desc.ground->soft, &contacts.ground.soft);
  }
  return SWARM_OK;
}

// The first non-finite value of `view` as an error naming the array, robot and column, or OK.
swarm_status CheckFinite(const char* function, const char* array, ConstLanesView view) {
  for (size_t a = 0; a < view.arrays; ++a) {
    const float* values = view.Array(a);
    for (size_t r = 0; r < view.count; ++r) {
      if (!std::isfinite(values[r])) {
        char value[32];
        std::snprintf(value, sizeof(value), "%g", static_cast<double>(values[r]));
        return Invalid(function, std::string(array) + " of robot " + std::to_string(r) +
                                     ", column " + std::to_string(a) + " is " + value +
                                     " (every input of a step must be finite); nothing was "
                                     "stepped");
      }
    }
  }
  return SWARM_OK;
}

struct NamedView {
  const char* name;
  ConstLanesView view;
};

swarm_status CheckInputs(const char* function, std::initializer_list<NamedView> inputs) {
  for (const NamedView& input : inputs) {
    if (swarm_status s = CheckFinite(function, input.name, input.view); s != SWARM_OK) return s;
  }
  return SWARM_OK;
}

// Runs `step(state)` under the context's kernel lock after the null check.
template <typename Step>
swarm_status WithBatch(const char* function, swarm_robot_batch batch, const Step& step) {
  return Guarded(function, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(function, "batch");
    RobotBatchState& state = *batch->state;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);
    return step(state);
  });
}

// The view of one state array (swarm_robot_array), writable unless derived by the steps.
Result<TensorView> ArrayView(RobotBatch& batch, int array) {
  const auto lanes = [&](LanesView view, bool read_only) {
    return read_only ? LaneMajorTensor(static_cast<const float*>(view.data), view.count,
                                       view.arrays, view.stride)
                     : LaneMajorTensor(view.data, view.count, view.arrays, view.stride);
  };
  const auto read_only = [&](ConstLanesView view) {
    return LaneMajorTensor(view.data, batch.size(), view.arrays, view.stride);
  };
  // f32[R][arrays / per_group][per_group], read-only: element [r][g][k] is array
  // per_group g + k at robot r (link poses: 7 per link; friction forces: x y per contact).
  const auto grouped = [&](ConstLanesView view, size_t per_group) {
    const int64_t stride = static_cast<int64_t>(view.stride);
    const int64_t per = static_cast<int64_t>(per_group);
    const int64_t shape[] = {static_cast<int64_t>(batch.size()),
                             static_cast<int64_t>(view.arrays) / per, per};
    const int64_t strides[] = {1, per * stride, stride};
    return TensorView::Create(view.data, DType::kF32, shape, strides);
  };
  switch (array) {
    case SWARM_ROBOT_Q:
      return lanes(batch.q(), false);
    case SWARM_ROBOT_QD:
      return lanes(batch.qd(), false);
    case SWARM_ROBOT_Q_TARGET:
      return lanes(batch.q_target(), false);
    case SWARM_ROBOT_QD_TARGET:
      return lanes(batch.qd_target(), false);
    case SWARM_ROBOT_QDD_TARGET:
      return lanes(batch.qdd_target(), false);
    case SWARM_ROBOT_TORQUE:
      return lanes(batch.torque(), false);
    case SWARM_ROBOT_QDD:
      return lanes(batch.qdd(), true);
    case SWARM_ROBOT_BASE_VELOCITY:
      return lanes(batch.base_velocity(), false);
    case SWARM_ROBOT_TARGET_POSE:
      return lanes(batch.target_pose(), false);
    case SWARM_ROBOT_CONTACT_FORCES:
      return read_only(std::as_const(batch).contact_forces());
    case SWARM_ROBOT_LIMIT_FORCES:
      return read_only(std::as_const(batch).limit_forces());
    case SWARM_ROBOT_CONTACT_SLIDING:
      return read_only(std::as_const(batch).contact_sliding());
    case SWARM_ROBOT_CONTACT_FRICTION_FORCES:
      return grouped(std::as_const(batch).contact_friction_forces(), 2);
    case SWARM_ROBOT_LINK_POSES:
      return grouped(std::as_const(batch).link_poses(), kPoseArrays);
    case SWARM_ROBOT_CTRL:
      return lanes(batch.ctrl(), false);
    case SWARM_ROBOT_SHAPE_CONTACTS:
      return grouped(std::as_const(batch).contacts(), kContactArrays);
    case SWARM_ROBOT_CONTACT_GEOMETRY:
      return grouped(std::as_const(batch).contact_geometry(), kContactArrays);
    default:
      return InvalidArgument("array must be a swarm_robot_array (0 .. 16), got " +
                             std::to_string(array));
  }
}

}  // namespace
}  // namespace swarm::c_api

using swarm::c_api::Fail;
using swarm::c_api::Guarded;
using swarm::c_api::NullArgument;
using swarm::c_api::Report;

extern "C" {

swarm_status swarm_robot_model_load_urdf(const char* path, const swarm_urdf_desc* desc,
                                         swarm_robot_model* out) {
  constexpr const char* kFunction = "swarm_robot_model_load_urdf";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (path == nullptr) return NullArgument(kFunction, "path");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::Result<swarm::UrdfOptions> options = swarm::c_api::ToUrdfOptions(desc);
    if (!options.ok()) return Report(kFunction, options.status());
    return swarm::c_api::NewModel(kFunction, swarm::LoadUrdfFile(path, *options), out);
  });
}

swarm_status swarm_robot_model_parse_urdf(const char* text, size_t length,
                                          const swarm_urdf_desc* desc, swarm_robot_model* out) {
  constexpr const char* kFunction = "swarm_robot_model_parse_urdf";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (text == nullptr) return NullArgument(kFunction, "text");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::Result<swarm::UrdfOptions> options = swarm::c_api::ToUrdfOptions(desc);
    if (!options.ok()) return Report(kFunction, options.status());
    return swarm::c_api::NewModel(
        kFunction, swarm::LoadUrdfString(std::string_view(text, length), *options), out);
  });
}

swarm_status swarm_robot_model_load_mjcf(const char* path, const swarm_mjcf_desc* desc,
                                         swarm_robot_model* out) {
  constexpr const char* kFunction = "swarm_robot_model_load_mjcf";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (path == nullptr) return NullArgument(kFunction, "path");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::MjcfOptions options;
    if (desc != nullptr && desc->max_bytes != 0) options.max_bytes = desc->max_bytes;
    swarm::Result<swarm::MjcfRobot> robot = swarm::LoadMjcfFile(path, options);
    if (!robot.ok()) return Report(kFunction, robot.status());
    swarm::RobotModel model = robot->model;
    *out = new swarm_robot_model_impl{std::move(model), std::move(robot).value()};
    return SWARM_OK;
  });
}

void swarm_robot_model_destroy(swarm_robot_model model) { delete model; }

swarm_status swarm_robot_model_info_get(swarm_robot_model model, swarm_robot_model_info* out) {
  constexpr const char* kFunction = "swarm_robot_model_info_get";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (model == nullptr) return NullArgument(kFunction, "model");
    if (out == nullptr) return NullArgument(kFunction, "out");
    const swarm::RobotModel& m = model->model;
    *out = {m.links.size(),
            m.dof(),
            m.q_count(),
            m.velocity_count(),
            m.DefaultEndEffector(),
            m.floating_base,
            model->mjcf ? model->mjcf->actuators.size() : 0,
            model->mjcf ? model->mjcf->keyframes.size() : 0};
    return SWARM_OK;
  });
}

swarm_status swarm_robot_model_name(swarm_robot_model model, swarm_robot_name_kind kind,
                                    size_t index, char* text, size_t capacity, size_t* length) {
  constexpr const char* kFunction = "swarm_robot_model_name";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (model == nullptr) return NullArgument(kFunction, "model");
    const swarm::RobotModel& m = model->model;
    std::vector<std::string> names;
    switch (swarm::c_api::EnumValue(kind)) {
      case SWARM_ROBOT_NAME_MODEL:
        names = {m.name};
        break;
      case SWARM_ROBOT_NAME_LINK:
        names = m.links;
        break;
      case SWARM_ROBOT_NAME_Q:
        names = m.QNames();
        break;
      case SWARM_ROBOT_NAME_VELOCITY:
        names = m.VelocityNames();
        break;
      case SWARM_ROBOT_NAME_ACTUATOR:
        if (model->mjcf) {
          for (const swarm::MjcfRobotActuator& actuator : model->mjcf->actuators) {
            names.push_back(actuator.name);
          }
        }
        break;
      case SWARM_ROBOT_NAME_KEYFRAME:
        if (model->mjcf) {
          for (const swarm::MjcfRobotKeyframe& key : model->mjcf->keyframes) {
            names.push_back(key.name);
          }
        }
        break;
      default:
        return swarm::c_api::Invalid(kFunction,
                                     "kind must be a swarm_robot_name_kind (0 .. 5), got " +
                                         std::to_string(swarm::c_api::EnumValue(kind)));
    }
    if (index >= names.size()) {
      return swarm::c_api::Invalid(kFunction, "index " + std::to_string(index) +
                                                  " is out of range: there are " +
                                                  std::to_string(names.size()) + " names");
    }
    return swarm::c_api::WriteText(kFunction, names[index], text, capacity, length);
  });
}

swarm_status swarm_robot_model_keyframe(swarm_robot_model model, size_t index, float* q,
                                        float* velocities, float* ctrl) {
  constexpr const char* kFunction = "swarm_robot_model_keyframe";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (model == nullptr) return NullArgument(kFunction, "model");
    const size_t count = model->mjcf ? model->mjcf->keyframes.size() : 0;
    if (index >= count) {
      return swarm::c_api::Invalid(kFunction, "index " + std::to_string(index) +
                                                  " is out of range: the model has " +
                                                  std::to_string(count) + " keyframes");
    }
    const swarm::MjcfRobotKeyframe& key = model->mjcf->keyframes[index];
    const auto copy = [](const std::vector<double>& from, float* to) {
      if (to == nullptr) return;
      for (size_t k = 0; k < from.size(); ++k) to[k] = static_cast<float>(from[k]);
    };
    copy(key.q, q);
    copy(key.velocities, velocities);
    copy(key.ctrl, ctrl);
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_create(swarm_context context, swarm_robot_model model,
                                      const swarm_robot_batch_desc* desc, swarm_robot_batch* out) {
  constexpr const char* kFunction = "swarm_robot_batch_create";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (context == nullptr) return NullArgument(kFunction, "context");
    if (model == nullptr) return NullArgument(kFunction, "model");
    if (desc == nullptr) return NullArgument(kFunction, "desc");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::RobotBatchConfig config;
    if (swarm_status s = swarm::c_api::ToBatchConfig(kFunction, *model, *desc, &config);
        s != SWARM_OK) {
      return s;
    }
    auto state = std::make_shared<swarm::c_api::RobotBatchState>();
    state->context = swarm::c_api::HoldContext(context);
    state->model = model->model;
    swarm::Result<swarm::RobotBatch> batch =
        swarm::RobotBatch::Create(state->context->memory, state->model, desc->robots, config);
    if (!batch.ok()) return Report(kFunction, batch.status());
    state->batch = std::move(batch).value();
    *out = new swarm_robot_batch_impl{std::move(state)};
    return SWARM_OK;
  });
}

void swarm_robot_batch_destroy(swarm_robot_batch batch) { delete batch; }

swarm_status swarm_robot_batch_size(swarm_robot_batch batch, size_t* robots) {
  constexpr const char* kFunction = "swarm_robot_batch_size";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(kFunction, "batch");
    if (robots == nullptr) return NullArgument(kFunction, "robots");
    *robots = batch->state->batch.size();
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_tensor(swarm_robot_batch batch, swarm_robot_array array,
                                      swarm_tensor* out) {
  constexpr const char* kFunction = "swarm_robot_batch_tensor";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(kFunction, "batch");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::Result<swarm::TensorView> view =
        swarm::c_api::ArrayView(batch->state->batch, swarm::c_api::EnumValue(array));
    if (!view.ok()) return Report(kFunction, view.status());
    return swarm::c_api::NewTensor(view.value(), batch->state, out);
  });
}

swarm_status swarm_robot_batch_forward_kinematics(swarm_robot_batch batch) {
  constexpr const char* kFunction = "swarm_robot_batch_forward_kinematics";
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    swarm::RobotBatch& b = state.batch;
    if (swarm_status s = swarm::c_api::CheckInputs(kFunction, {{"q", b.q()}}); s != SWARM_OK) {
      return s;
    }
    b.ForwardKinematics(state.context->pool);
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_detect_contacts(swarm_robot_batch batch) {
  constexpr const char* kFunction = "swarm_robot_batch_detect_contacts";
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    state.batch.DetectContacts(state.context->pool);
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_contact_slots(swarm_robot_batch batch, size_t* slots) {
  constexpr const char* kFunction = "swarm_robot_batch_contact_slots";
  if (slots == nullptr) return NullArgument(kFunction, "slots");
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    const swarm::CollisionPlan* plan = state.batch.collision_plan();
    *slots = plan != nullptr ? plan->slot_count() : 0;
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_contact_slot(swarm_robot_batch batch, size_t slot,
                                            swarm_contact_slot_info* out) {
  constexpr const char* kFunction = "swarm_robot_batch_contact_slot";
  if (out == nullptr) return NullArgument(kFunction, "out");
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    const swarm::CollisionPlan* plan = state.batch.collision_plan();
    const size_t slots = plan != nullptr ? plan->slot_count() : 0;
    if (slot >= slots) {
      return Fail(SWARM_INVALID_ARGUMENT, std::string(kFunction) + ": slot " +
                                              std::to_string(slot) + " is past the batch's " +
                                              std::to_string(slots) + " contact slots");
    }
    const size_t p = plan->pair_of_slot(slot);
    const swarm::ContactPair& pair = plan->model().pairs[p];
    const swarm::CollisionShape& shape1 = plan->model().shapes[pair.shape1];
    const swarm::CollisionShape& shape2 = plan->model().shapes[pair.shape2];
    *out = {p,           shape1.name.c_str(), shape2.name.c_str(),
            shape1.link, shape2.link,         static_cast<float>(pair.margin)};
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_control_step(swarm_robot_batch batch, float dt) {
  constexpr const char* kFunction = "swarm_robot_batch_control_step";
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    swarm::RobotBatch& b = state.batch;
    if (swarm_status s = swarm::c_api::CheckInputs(
            kFunction, {{"q", b.q()}, {"qd", b.qd()}, {"q_target", b.q_target()}});
        s != SWARM_OK) {
      return s;
    }
    return Report(kFunction, b.ControlStep(state.context->pool, dt));
  });
}

swarm_status swarm_robot_batch_ik_step(swarm_robot_batch batch) {
  constexpr const char* kFunction = "swarm_robot_batch_ik_step";
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    swarm::RobotBatch& b = state.batch;
    if (swarm_status s = swarm::c_api::CheckInputs(
            kFunction,
            {{"q", b.q()}, {"q_target", b.q_target()}, {"target_pose", b.target_pose()}});
        s != SWARM_OK) {
      return s;
    }
    b.IkStep(state.context->pool);
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_torque_step(swarm_robot_batch batch, float dt,
                                           swarm_torque_controller controller) {
  constexpr const char* kFunction = "swarm_robot_batch_torque_step";
  return swarm::c_api::WithBatch(kFunction, batch, [&](swarm::c_api::RobotBatchState& state) {
    swarm::TorqueController chosen;
    switch (swarm::c_api::EnumValue(controller)) {
      case SWARM_TORQUE_NONE:
        chosen = swarm::TorqueController::kNone;
        break;
      case SWARM_TORQUE_PD_GRAVITY:
        chosen = swarm::TorqueController::kPdGravity;
        break;
      case SWARM_TORQUE_COMPUTED_TORQUE:
        chosen = swarm::TorqueController::kComputedTorque;
        break;
      case SWARM_TORQUE_ACTUATORS:
        chosen = swarm::TorqueController::kActuators;
        break;
      default:
        return swarm::c_api::Invalid(kFunction,
                                     "controller must be a swarm_torque_controller (0 .. 3), got " +
                                         std::to_string(swarm::c_api::EnumValue(controller)));
    }
    const bool targets = chosen == swarm::TorqueController::kPdGravity ||
                         chosen == swarm::TorqueController::kComputedTorque;
    swarm::RobotBatch& b = state.batch;
    const swarm::ConstLanesView none{};
    if (swarm_status s = swarm::c_api::CheckInputs(
            kFunction,
            {{"q", b.q()},
             {"qd", b.qd()},
             {"base_velocity", b.base_velocity()},
             {"q_target", targets ? b.q_target() : none},
             {"qd_target", targets ? b.qd_target() : none},
             {"qdd_target",
              chosen == swarm::TorqueController::kComputedTorque ? b.qdd_target() : none},
             {"torque", chosen == swarm::TorqueController::kNone ? b.torque() : none},
             {"ctrl", chosen == swarm::TorqueController::kActuators ? b.ctrl() : none}});
        s != SWARM_OK) {
      return s;
    }
    return Report(kFunction, b.TorqueStep(state.context->pool, dt, chosen));
  });
}

swarm_status swarm_robot_batch_state_hash(swarm_robot_batch batch, uint64_t* out) {
  constexpr const char* kFunction = "swarm_robot_batch_state_hash";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(kFunction, "batch");
    if (out == nullptr) return NullArgument(kFunction, "out");
    *out = batch->state->batch.StateHash();
    return SWARM_OK;
  });
}

swarm_status swarm_robot_batch_state_digest(swarm_robot_batch batch, uint64_t first_robot,
                                            uint64_t* out) {
  constexpr const char* kFunction = "swarm_robot_batch_state_digest";
  return Guarded(kFunction, [&]() -> swarm_status {
    if (batch == nullptr) return NullArgument(kFunction, "batch");
    if (out == nullptr) return NullArgument(kFunction, "out");
    swarm::c_api::RobotBatchState& state = *batch->state;
    std::lock_guard<std::mutex> lock(state.context->kernel_mutex);  // the pool is shared
    *out = state.batch.StateDigest(state.context->pool, first_robot);
    return SWARM_OK;
  });
}

}  // extern "C"
