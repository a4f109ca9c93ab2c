/* The layout the Python package's ctypes mirrors (engine/c_api/python/swarm/_structures.py) and
 * copied constants must match, as a C compiler sees swarm_c.h and DLPack 0.6's dlpack.h;
 * tests/python/test_c_api_layout.py compares it with the package. One line per item:
 *
 *   struct <name> <sizeof> <alignof>
 *   field <struct> <field> <offset> <element size> <kind> <elements>
 *   constant <name> <value>
 *
 * kind is int, uint, bool, float, pointer or struct (of an array field: of its elements).
 * Every structure and every enumerator of swarm_c.h is listed here (the test fails naming what is
 * missing, by parsing the header), and DLPack's four structures with kDLCPU. Compiled as C (C11
 * with GCC's or Clang's __builtin_classify_type), not C++, so the header is read as C reads it. */
#include <dlpack/dlpack.h>
#include <stdio.h>

#include "swarm/c_api/swarm_c.h"

/* The kind of a field's type: bool and float by _Generic; pointers and structures by GCC's and
 * Clang's type classes (5 and 12 in gcc/typeclass.h), whose argument is promoted (so they do not
 * tell bool or an enum from an integer); integers by signedness. An enum field, of an unsigned or
 * signed int type as the compiler chooses, prints as uint or int: the test knows it is an enum
 * from the header's declaration. */
static const char* kind(int type_class, int generic, int is_signed) {
  if (generic) return generic == 1 ? "bool" : "float";
  if (type_class == 5) return "pointer";
  if (type_class == 12) return "struct";
  if (type_class == 1) return is_signed ? "int" : "uint";
  return "unknown";
}

#define GENERIC_KIND(x) \
  _Generic((x), _Bool : 1, float : 2, double : 2, long double : 2, default : 0)
#define IS_SIGNED(x) \
  _Generic((x), signed char : 1, short : 1, int : 1, long : 1, long long : 1, default : 0)
#define KIND(x) kind(__builtin_classify_type(x), GENERIC_KIND(x), IS_SIGNED(x))

#define STRUCT(T) printf("struct %s %zu %zu\n", #T, sizeof(T), _Alignof(T))
#define FIELD(T, f) \
  printf("field %s %s %zu %zu %s 1\n", #T, #f, offsetof(T, f), sizeof(((T){0}).f), KIND(((T){0}).f))
#define ARRAY(T, f)                                                                     \
  printf("field %s %s %zu %zu %s %zu\n", #T, #f, offsetof(T, f), sizeof(((T){0}).f[0]), \
         KIND(((T){0}).f[0]), sizeof(((T){0}).f) / sizeof(((T){0}).f[0]))
#define CONSTANT(name) printf("constant %s %lld\n", #name, (long long)(name))

int main(void) {
  STRUCT(swarm_context_desc);
  FIELD(swarm_context_desc, budget_bytes);
  FIELD(swarm_context_desc, threads);

  STRUCT(swarm_tensor_info);
  FIELD(swarm_tensor_info, data);
  FIELD(swarm_tensor_info, dtype);
  FIELD(swarm_tensor_info, rank);
  ARRAY(swarm_tensor_info, shape);
  ARRAY(swarm_tensor_info, strides);
  FIELD(swarm_tensor_info, read_only);

  STRUCT(swarm_slice);
  FIELD(swarm_slice, start);
  FIELD(swarm_slice, stop);
  FIELD(swarm_slice, step);
  FIELD(swarm_slice, has_start);
  FIELD(swarm_slice, has_stop);

  STRUCT(swarm_format_desc);
  FIELD(swarm_format_desc, limit);
  FIELD(swarm_format_desc, edge_items);

  STRUCT(swarm_euler_params);
  ARRAY(swarm_euler_params, gravity);
  FIELD(swarm_euler_params, drag_per_second);
  FIELD(swarm_euler_params, dt_seconds);

  STRUCT(swarm_particle_system_desc);
  FIELD(swarm_particle_system_desc, interaction);
  ARRAY(swarm_particle_system_desc, box_min);
  ARRAY(swarm_particle_system_desc, box_max);
  FIELD(swarm_particle_system_desc, seed);

  STRUCT(swarm_interaction_stats);
  FIELD(swarm_interaction_stats, neighbor_seconds);
  FIELD(swarm_interaction_stats, interaction_seconds);
  FIELD(swarm_interaction_stats, average_neighbors);
  FIELD(swarm_interaction_stats, steps);
  FIELD(swarm_interaction_stats, state_hash);

  STRUCT(swarm_urdf_desc);
  FIELD(swarm_urdf_desc, floating_base);
  FIELD(swarm_urdf_desc, max_bytes);
  FIELD(swarm_urdf_desc, collisions);

  STRUCT(swarm_robot_model_info);
  FIELD(swarm_robot_model_info, links);
  FIELD(swarm_robot_model_info, dof);
  FIELD(swarm_robot_model_info, q_count);
  FIELD(swarm_robot_model_info, velocity_count);
  FIELD(swarm_robot_model_info, default_end_effector);
  FIELD(swarm_robot_model_info, floating_base);
  FIELD(swarm_robot_model_info, actuators);
  FIELD(swarm_robot_model_info, keyframes);

  STRUCT(swarm_mjcf_desc);
  FIELD(swarm_mjcf_desc, max_bytes);

  STRUCT(swarm_soft_constraint_desc);
  FIELD(swarm_soft_constraint_desc, time_constant);
  FIELD(swarm_soft_constraint_desc, damping_ratio);
  FIELD(swarm_soft_constraint_desc, impedance_min);
  FIELD(swarm_soft_constraint_desc, impedance_max);
  FIELD(swarm_soft_constraint_desc, width);
  FIELD(swarm_soft_constraint_desc, midpoint);
  FIELD(swarm_soft_constraint_desc, power);
  FIELD(swarm_soft_constraint_desc, max_push_speed);

  STRUCT(swarm_ground_desc);
  FIELD(swarm_ground_desc, height);
  FIELD(swarm_ground_desc, friction);
  FIELD(swarm_ground_desc, soft);

  STRUCT(swarm_robot_batch_desc);
  FIELD(swarm_robot_batch_desc, robots);
  FIELD(swarm_robot_batch_desc, torque);
  FIELD(swarm_robot_batch_desc, dof);
  FIELD(swarm_robot_batch_desc, kp);
  FIELD(swarm_robot_batch_desc, kd);
  FIELD(swarm_robot_batch_desc, armature);
  FIELD(swarm_robot_batch_desc, gravity);
  FIELD(swarm_robot_batch_desc, integrator);
  FIELD(swarm_robot_batch_desc, end_effector);
  FIELD(swarm_robot_batch_desc, contacts);
  FIELD(swarm_robot_batch_desc, contact_links);
  FIELD(swarm_robot_batch_desc, contact_link_count);
  FIELD(swarm_robot_batch_desc, contact_radius);
  FIELD(swarm_robot_batch_desc, ground);
  FIELD(swarm_robot_batch_desc, limits);
  FIELD(swarm_robot_batch_desc, limit_tolerance);
  FIELD(swarm_robot_batch_desc, max_joint_speed);
  FIELD(swarm_robot_batch_desc, max_base_angular_speed);
  FIELD(swarm_robot_batch_desc, max_step_turn);
  FIELD(swarm_robot_batch_desc, collisions);
  FIELD(swarm_robot_batch_desc, world_contacts);

  STRUCT(swarm_contact_slot_info);
  FIELD(swarm_contact_slot_info, pair);
  FIELD(swarm_contact_slot_info, shape1);
  FIELD(swarm_contact_slot_info, shape2);
  FIELD(swarm_contact_slot_info, link1);
  FIELD(swarm_contact_slot_info, link2);
  FIELD(swarm_contact_slot_info, margin);

  STRUCT(swarm_robot_task_desc);
  FIELD(swarm_robot_task_desc, task);
  FIELD(swarm_robot_task_desc, seed);
  FIELD(swarm_robot_task_desc, first_robot);
  FIELD(swarm_robot_task_desc, torque_control);
  FIELD(swarm_robot_task_desc, controller);

  STRUCT(swarm_task_totals);
  ARRAY(swarm_task_totals, words);

  STRUCT(swarm_task_summary);
  FIELD(swarm_task_summary, robots);
  FIELD(swarm_task_summary, successes);
  FIELD(swarm_task_summary, success_rate);
  FIELD(swarm_task_summary, mean_position_m);
  FIELD(swarm_task_summary, max_position_m);
  FIELD(swarm_task_summary, mean_orientation_rad);
  FIELD(swarm_task_summary, max_orientation_rad);
  FIELD(swarm_task_summary, mean_joint_error);
  FIELD(swarm_task_summary, max_joint_error);

  /* DLPack 0.6 */
  STRUCT(DLDevice);
  FIELD(DLDevice, device_type);
  FIELD(DLDevice, device_id);

  STRUCT(DLDataType);
  FIELD(DLDataType, code);
  FIELD(DLDataType, bits);
  FIELD(DLDataType, lanes);

  STRUCT(DLTensor);
  FIELD(DLTensor, data);
  FIELD(DLTensor, device);
  FIELD(DLTensor, ndim);
  FIELD(DLTensor, dtype);
  FIELD(DLTensor, shape);
  FIELD(DLTensor, strides);
  FIELD(DLTensor, byte_offset);

  STRUCT(DLManagedTensor);
  FIELD(DLManagedTensor, dl_tensor);
  FIELD(DLManagedTensor, manager_ctx);
  FIELD(DLManagedTensor, deleter);

  CONSTANT(kDLCPU);
  CONSTANT(SWARM_MAX_RANK);
  CONSTANT(SWARM_TASK_TOTALS_WORDS);

  CONSTANT(SWARM_OK);
  CONSTANT(SWARM_INVALID_ARGUMENT);
  CONSTANT(SWARM_OVER_BUDGET);
  CONSTANT(SWARM_OUT_OF_MEMORY);
  CONSTANT(SWARM_UNAVAILABLE);

  CONSTANT(SWARM_F32);
  CONSTANT(SWARM_F64);
  CONSTANT(SWARM_S8);
  CONSTANT(SWARM_S16);
  CONSTANT(SWARM_S32);
  CONSTANT(SWARM_S64);
  CONSTANT(SWARM_U8);
  CONSTANT(SWARM_U16);
  CONSTANT(SWARM_U32);
  CONSTANT(SWARM_U64);
  CONSTANT(SWARM_C64);
  CONSTANT(SWARM_C128);
  CONSTANT(SWARM_F16);
  CONSTANT(SWARM_BF16);
  CONSTANT(SWARM_BOOL);

  CONSTANT(SWARM_BUFFER_VEC4);
  CONSTANT(SWARM_BUFFER_F32_ARRAY);
  CONSTANT(SWARM_BUFFER_U8_ARRAY);
  CONSTANT(SWARM_BUFFER_IMAGE_F32);
  CONSTANT(SWARM_BUFFER_IMAGE_U8);
  CONSTANT(SWARM_BUFFER_IMAGE_BATCH_F32);
  CONSTANT(SWARM_BUFFER_IMAGE_BATCH_U8);
  CONSTANT(SWARM_BUFFER_TENSOR);

  CONSTANT(SWARM_OP_ADD);
  CONSTANT(SWARM_OP_SUB);
  CONSTANT(SWARM_OP_MUL);
  CONSTANT(SWARM_OP_DIV);
  CONSTANT(SWARM_OP_MIN);
  CONSTANT(SWARM_OP_MAX);
  CONSTANT(SWARM_OP_LESS);
  CONSTANT(SWARM_OP_LESS_EQUAL);
  CONSTANT(SWARM_OP_GREATER);
  CONSTANT(SWARM_OP_GREATER_EQUAL);
  CONSTANT(SWARM_OP_EQUAL);
  CONSTANT(SWARM_OP_NOT_EQUAL);
  CONSTANT(SWARM_OP_AND);
  CONSTANT(SWARM_OP_OR);

  CONSTANT(SWARM_REDUCE_SUM);
  CONSTANT(SWARM_REDUCE_MEAN);
  CONSTANT(SWARM_REDUCE_MIN);
  CONSTANT(SWARM_REDUCE_MAX);

  CONSTANT(SWARM_INTERACTION_GRANULAR);
  CONSTANT(SWARM_INTERACTION_FLUID);
  CONSTANT(SWARM_INTERACTION_FLOCK);

  CONSTANT(SWARM_PARTICLE_POSITIONS);
  CONSTANT(SWARM_PARTICLE_VELOCITIES);
  CONSTANT(SWARM_PARTICLE_IDS);

  CONSTANT(SWARM_ROBOT_NAME_MODEL);
  CONSTANT(SWARM_ROBOT_NAME_LINK);
  CONSTANT(SWARM_ROBOT_NAME_Q);
  CONSTANT(SWARM_ROBOT_NAME_VELOCITY);
  CONSTANT(SWARM_ROBOT_NAME_ACTUATOR);
  CONSTANT(SWARM_ROBOT_NAME_KEYFRAME);

  CONSTANT(SWARM_TORQUE_NONE);
  CONSTANT(SWARM_TORQUE_PD_GRAVITY);
  CONSTANT(SWARM_TORQUE_COMPUTED_TORQUE);
  CONSTANT(SWARM_TORQUE_ACTUATORS);

  CONSTANT(SWARM_INTEGRATOR_SEMI_IMPLICIT_EULER);
  CONSTANT(SWARM_INTEGRATOR_RK4);

  CONSTANT(SWARM_ROBOT_Q);
  CONSTANT(SWARM_ROBOT_QD);
  CONSTANT(SWARM_ROBOT_Q_TARGET);
  CONSTANT(SWARM_ROBOT_QD_TARGET);
  CONSTANT(SWARM_ROBOT_QDD_TARGET);
  CONSTANT(SWARM_ROBOT_TORQUE);
  CONSTANT(SWARM_ROBOT_QDD);
  CONSTANT(SWARM_ROBOT_BASE_VELOCITY);
  CONSTANT(SWARM_ROBOT_LINK_POSES);
  CONSTANT(SWARM_ROBOT_TARGET_POSE);
  CONSTANT(SWARM_ROBOT_CONTACT_FORCES);
  CONSTANT(SWARM_ROBOT_LIMIT_FORCES);
  CONSTANT(SWARM_ROBOT_CONTACT_FRICTION_FORCES);
  CONSTANT(SWARM_ROBOT_CONTACT_SLIDING);
  CONSTANT(SWARM_ROBOT_CTRL);
  CONSTANT(SWARM_ROBOT_SHAPE_CONTACTS);
  CONSTANT(SWARM_ROBOT_CONTACT_GEOMETRY);

  CONSTANT(SWARM_TASK_REACH);
  CONSTANT(SWARM_TASK_TRACK);
  CONSTANT(SWARM_TASK_RANDOM);
  CONSTANT(SWARM_TASK_STAND);
  CONSTANT(SWARM_URDF_COLLISIONS_IGNORE);
  CONSTANT(SWARM_URDF_COLLISIONS_PRIMITIVES);
  CONSTANT(SWARM_URDF_COLLISIONS_SKIP_MESHES);
  return 0;
}
