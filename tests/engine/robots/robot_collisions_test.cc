// Collision detection over robot batches (swarm/robots/robot_collisions.h, RobotBatch::
// DetectContacts) on the MJCF models of ../shared/mjcf at random poses: every pair's deepest
// contact against the exact double-precision distance of its two shapes placed from the batch's
// link poses in double precision (swarm/kernels/collision/narrow_phase_reference.h), every slot's
// two surface points on the shapes, and the same bits for a robot alone, in a batch, with other
// tile sizes and two threads.
#include "swarm/robots/robot_collisions.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/thread_pool.h"
#include "swarm/kernels/collision/narrow_phase_reference.h"
#include "swarm/robots/mjcf_robot.h"
#include "swarm/robots/robot_batch.h"

namespace swarm {
namespace {

struct Case {
  const char* folder;
  const char* file;
};
constexpr Case kCases[] = {{"unitree_go2", "scene_mjx.xml"},
                           {"anybotics_anymal_c", "scene_mjx.xml"},
                           {"unitree_g1", "scene_mjx.xml"},
                           {"franka_emika_panda", "mjx_scene.xml"}};

MjcfRobot Load(const Case& c) {
  Result<MjcfRobot> robot =
      LoadMjcfFile(std::string(SWARM_SHARED_MJCF_DIR) + "/" + c.folder + "/" + c.file);
  REQUIRE(robot.ok());
  return std::move(robot).value();
}

// Random joint values within the limits (+-1 rad where unlimited) and a floating base within
// 0.5 m of the file's pose, turned by up to 0.3 rad: many shapes near the floor and each other.
void RandomPoses(const MjcfRobot& robot, RobotBatch& batch, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const RobotModel& model = robot.model;
  const LanesView q = batch.q();
  for (size_t r = 0; r < batch.size(); ++r) {
    size_t column = 0;
    if (model.floating_base) {
      for (int k = 0; k < 3; ++k) q.Array(k)[r] = static_cast<float>(robot.q0[k] + 0.5 * unit(rng));
      const double half[3] = {0.15 * unit(rng), 0.15 * unit(rng), 0.15 * unit(rng)};
      q.Array(3)[r] = static_cast<float>(std::cos(half[0]) * std::cos(half[1]));
      q.Array(4)[r] = static_cast<float>(std::sin(half[0]));
      q.Array(5)[r] = static_cast<float>(std::sin(half[1]));
      q.Array(6)[r] = static_cast<float>(std::sin(half[2]));
      column = kFloatingBaseArrays;
    }
    for (size_t j : model.dof_joints) {
      const RobotJoint& joint = model.joints[j];
      const double low = joint.has_position_limits ? joint.lower : -1.0;
      const double high = joint.has_position_limits ? joint.upper : 1.0;
      q.Array(column++)[r] = static_cast<float>(low + (high - low) * (0.5 + 0.5 * unit(rng)));
    }
  }
}

// A shape's world frame in double precision from robot r's link pose (px py pz qx qy qz qw).
void WorldFrame(const CollisionShape& shape, const ConstLanesView& poses, size_t r,
                double frame[12]) {
  double p[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1};
  if (shape.link >= 0) {
    for (int k = 0; k < 3; ++k) p[k] = poses.Array(kPoseArrays * shape.link + k)[r];
    for (int k = 0; k < 4; ++k) q[k] = poses.Array(kPoseArrays * shape.link + 3 + k)[r];
  }
  const auto matrix = [](const double* v, double m[9]) {
    const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    const double x = v[0] / n, y = v[1] / n, z = v[2] / n, w = v[3] / n;
    const double out[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
        2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
        2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    std::memcpy(m, out, sizeof(out));
  };
  double link[9], local[9];
  matrix(q, link);
  matrix(shape.quaternion.data(), local);
  for (int i = 0; i < 3; ++i) {
    frame[i] = p[i];
    for (int k = 0; k < 3; ++k) frame[i] += link[3 * i + k] * shape.position[k];
    for (int j = 0; j < 3; ++j) {
      double sum = 0;
      for (int k = 0; k < 3; ++k) sum += link[3 * i + k] * local[3 * k + j];
      frame[3 + 3 * i + j] = sum;
    }
  }
}

// The radius of a sphere about a shape's centre that holds it (a plane: none, 0).
double Bound(const CollisionShape& shape) {
  const auto& h = shape.size;
  switch (shape.type) {
    case ShapeType::kSphere:
      return h[0];
    case ShapeType::kCapsule:
      return h[0] + h[1];
    case ShapeType::kCylinder:
      return std::hypot(h[0], h[1]);
    case ShapeType::kBox:
      return std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    default:
      return 0.0;
  }
}

ShapeGeometry GeometryOf(const CollisionShape& shape) {
  return ShapeOf(shape.type, static_cast<float>(shape.size[0]), static_cast<float>(shape.size[1]),
                 static_cast<float>(shape.size[2]));
}

RobotBatch MakeBatch(MemoryAccountant& accountant, const MjcfRobot& robot,
                     const CollisionModel& collisions, size_t robots, size_t tile) {
  RobotBatchConfig config;
  config.collisions = collisions;
  config.schedule.tile_elements = tile;
  Result<RobotBatch> batch = RobotBatch::Create(accountant, robot.model, robots, config);
  REQUIRE(batch.ok());
  return std::move(batch).value();
}

bool SameContacts(const ConstLanesView& a, size_t ra, const ConstLanesView& b, size_t rb) {
  for (size_t k = 0; k < a.arrays; ++k) {
    if (std::memcmp(a.Array(k) + ra, b.Array(k) + rb, sizeof(float)) != 0) return false;
  }
  return true;
}

TEST_CASE("robot collisions: MJCF models' contacts against exact geometry, any batch", "[robots]") {
  constexpr double kTolerance = 5e-5;  // float poses of links up to a metre from the origin
  for (const Case& c : kCases) {
    INFO(c.folder << "/" << c.file);
    const MjcfRobot robot = Load(c);
    Result<CollisionModel> collisions = MjcfCollisionModel(robot);
    REQUIRE(collisions.ok());
    REQUIRE_FALSE(collisions->pairs.empty());
    MemoryAccountant accountant;
    constexpr size_t kRobots = 120;
    RobotBatch batch = MakeBatch(accountant, robot, *collisions, kRobots, 64);
    std::mt19937 rng(99);
    RandomPoses(robot, batch, rng);
    ThreadPool pool(1);
    batch.ForwardKinematics(pool);
    batch.DetectContacts(pool);
    const CollisionPlan& plan = *batch.collision_plan();
    const ConstLanesView contacts = batch.contacts();
    const ConstLanesView poses = batch.link_poses();
    size_t touching = 0, compared = 0;
    for (size_t p = 0; p < plan.pair_count(); ++p) {
      const ContactPair& pair = collisions->pairs[p];
      const CollisionShape& s1 = collisions->shapes[pair.shape1];
      const CollisionShape& s2 = collisions->shapes[pair.shape2];
      INFO("pair " << p << ": " << s1.name << " (" << CollisionShapeTypeName(s1.type) << ") and "
                   << s2.name << " (" << CollisionShapeTypeName(s2.type) << ")");
      const ShapeGeometry g1 = GeometryOf(s1), g2 = GeometryOf(s2);
      const bool exact = !(s1.type == ShapeType::kBox && s2.type == ShapeType::kBox) &&
                         s1.type != ShapeType::kCylinder && s2.type != ShapeType::kCylinder;
      const size_t slots = ContactSlotCount(s1.type, s2.type);
      for (size_t r = 0; r < kRobots; ++r) {
        double f1[12], f2[12], normal[3];
        WorldFrame(s1, poses, r, f1);
        WorldFrame(s2, poses, r, f2);
        // Shapes whose bounding spheres are more than 5 cm apart are checked only for their
        // points on the surfaces: the exact distance costs thousands of support evaluations.
        const double apart =
            std::hypot(f1[0] - f2[0], f1[1] - f2[1], f1[2] - f2[2]) - Bound(s1) - Bound(s2);
        const double reference = s1.type == ShapeType::kPlane || apart < 0.05
                                     ? ReferenceSignedDistance(g1, f1, g2, f2, normal)
                                     : apart;
        double deepest = 1e300;
        for (size_t slot = plan.first_slot(p); slot < plan.first_slot(p) + slots; ++slot) {
          REQUIRE(plan.pair_of_slot(slot) == p);
          const float distance = contacts.Array(kContactArrays * slot)[r];
          if (distance == kNoContact) continue;
          double point[3], n[3], on1[3], on2[3];
          for (int k = 0; k < 3; ++k) {
            point[k] = contacts.Array(kContactArrays * slot + 1 + k)[r];
            n[k] = contacts.Array(kContactArrays * slot + 4 + k)[r];
            on1[k] = point[k] - n[k] * distance / 2;
            on2[k] = point[k] + n[k] * distance / 2;
          }
          // On (or, for a capsule's end-sphere candidates, inside) both shapes.
          CHECK(ReferenceShapeDistance(g1, f1, on1) < kTolerance);
          CHECK(ReferenceShapeDistance(g2, f2, on2) < kTolerance);
          deepest = std::min(deepest, double{distance});
        }
        const bool segment_in_box = s1.type == ShapeType::kCapsule && s2.type == ShapeType::kBox &&
                                    reference < -s1.size[0] + 1e-4;
        if (exact && !segment_in_box && (s1.type == ShapeType::kPlane || apart < 0.05)) {
          INFO("robot " << r << " reference " << reference << " deepest " << deepest);
          CHECK(std::fabs(deepest - reference) < kTolerance);
          ++compared;
        }
        touching += reference < 0.0;
      }
    }
    CHECK(touching > 0);  // the poses do bring shapes together
    CHECK(compared >= kRobots);
    WARN(c.folder << ": " << plan.pair_count() << " pairs, " << plan.slot_count()
                  << " contact slots per robot; " << touching << " touching pairs over " << kRobots
                  << " robots");

    // Robot r alone, and the batch with other tiles and two threads: the same bits.
    for (size_t r : {size_t{0}, size_t{77}, kRobots - 1}) {
      RobotBatch alone = MakeBatch(accountant, robot, *collisions, 1, 64);
      for (size_t k = 0; k < batch.q().arrays; ++k) alone.q().Array(k)[0] = batch.q().Array(k)[r];
      alone.ForwardKinematics(pool);
      alone.DetectContacts(pool);
      CHECK(SameContacts(alone.contacts(), 0, contacts, r));
    }
    RobotBatch other = MakeBatch(accountant, robot, *collisions, kRobots, 128);
    for (size_t k = 0; k < batch.q().arrays; ++k) {
      std::copy_n(batch.q().Array(k), kRobots, other.q().Array(k));
    }
    ThreadPool two(2);
    other.ForwardKinematics(two);
    other.DetectContacts(two);
    for (size_t r = 0; r < kRobots; ++r) REQUIRE(SameContacts(other.contacts(), r, contacts, r));
  }
}

TEST_CASE("robot collisions: bad collision models are errors naming the shape", "[robots]") {
  const MjcfRobot robot = Load(kCases[0]);
  Result<CollisionModel> collisions = MjcfCollisionModel(robot);
  REQUIRE(collisions.ok());
  MemoryAccountant accountant;
  const auto error = [&](CollisionModel model) {
    RobotBatchConfig config;
    config.collisions = std::move(model);
    Result<RobotBatch> batch = RobotBatch::Create(accountant, robot.model, 3, config);
    REQUIRE_FALSE(batch.ok());
    CHECK(accountant.Total().bytes_in_use == 0);
    return batch.status().message();
  };
  using Catch::Matchers::Contains;
  CollisionModel bad = *collisions;
  bad.shapes[1].link = 999;
  CHECK_THAT(error(bad), Contains("config.collisions: collision shape") &&
                             Contains("is on link 999, which the robot does not have"));
  bad = *collisions;
  bad.shapes[2].size[0] = std::nan("");
  CHECK_THAT(error(bad), Contains("must be finite and > 0"));
  bad = *collisions;
  bad.shapes[2].quaternion = {0, 0, 0, 0};
  CHECK_THAT(error(bad), Contains("the quaternion not zero"));
  bad = *collisions;
  bad.pairs[0].shape2 = 1000;
  CHECK_THAT(error(bad), Contains("contact pair 0 names a shape the robot does not have"));
  bad = *collisions;
  std::swap(bad.pairs[0].shape1, bad.pairs[0].shape2);  // the floor (a plane) second
  CHECK_THAT(error(bad), Contains("which has no narrow phase (the lower type first)"));
  bad = *collisions;
  bad.pairs[0].margin = -1;
  CHECK_THAT(error(bad), Contains("contact pair 0: its margin must be finite and >= 0"));
}

}  // namespace
}  // namespace swarm
