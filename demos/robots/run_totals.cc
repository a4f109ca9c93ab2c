#include "demos/robots/run_totals.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "swarm/core/text.h"

namespace swarm {

TorqueTotals MeasureTorqueTotals(const RobotBatch& batch, std::span<const float> kinetic,
                                 std::span<const float> potential) {
  TorqueTotals totals;
  totals.robots = batch.size();
  const ConstLanesView torque = batch.torque();
  const std::vector<JointControl>& control = batch.config().control;
  for (size_t r = 0; r < batch.size(); ++r) {
    for (size_t j = 0; j < torque.arrays; ++j) {
      const float magnitude = std::fabs(torque.Array(j)[r]);
      totals.abs_torque.Add(magnitude);
      totals.max_abs_torque = std::max(totals.max_abs_torque, double(magnitude));
      totals.saturated += magnitude >= control[j].effort_limit;
    }
  }
  totals.joints = batch.size() * torque.arrays;
  for (size_t r = 0; r < batch.size(); ++r) {
    totals.kinetic.Add(kinetic[r]);
    totals.potential.Add(potential[r]);
    totals.max_kinetic = std::max(totals.max_kinetic, double(kinetic[r]));
  }
  const ConstLanesView normal = batch.contact_forces();
  for (size_t r = 0; r < batch.size(); ++r) {
    for (size_t c = 0; c < normal.arrays; ++c) {
      totals.normal_force.Add(normal.Array(c)[r]);
      totals.touching += normal.Array(c)[r] > 0.0f;
    }
  }
  totals.contacts = batch.size() * normal.arrays;
  return totals;
}

void TorqueTotals::Merge(const TorqueTotals& other) {
  robots += other.robots;
  joints += other.joints;
  saturated += other.saturated;
  contacts += other.contacts;
  touching += other.touching;
  abs_torque.Merge(other.abs_torque);
  kinetic.Merge(other.kinetic);
  potential.Merge(other.potential);
  normal_force.Merge(other.normal_force);
  max_abs_torque = std::max(max_abs_torque, other.max_abs_torque);
  max_kinetic = std::max(max_kinetic, other.max_kinetic);
}

Status CheckFinite(const TorqueSummary& summary) {
  const struct {
    const char* what;
    double value;
    const char* unit;
  } values[] = {{"joint torque's mean |tau|", summary.mean_abs_torque, "N m or N"},
                {"joint torque's max |tau|", summary.max_abs_torque, "N m or N"},
                {"kinetic energy per robot: mean", summary.mean_kinetic, "J"},
                {"kinetic energy per robot: max", summary.max_kinetic, "J"},
                {"potential energy per robot: mean", summary.mean_potential, "J"},
                {"normal force per robot: mean", summary.mean_normal_force, "N"}};
  for (const auto& v : values) {
    if (!std::isfinite(v.value)) {
      return InvalidArgument(std::string("the final ") + v.what + " overflowed to " +
                             NumberText(v.value) + " " + v.unit +
                             " (the state is finite, but too large for its energy or forces)");
    }
  }
  return {};
}

TorqueSummary TorqueTotals::Summary() const {
  TorqueSummary summary;
  summary.max_abs_torque = max_abs_torque;
  summary.saturated = saturated;
  summary.joints = joints;
  summary.mean_abs_torque = joints > 0 ? abs_torque.Value() / double(joints) : 0.0;
  summary.max_kinetic = max_kinetic;
  summary.touching = touching;
  summary.contacts = contacts;
  if (robots > 0) {
    summary.mean_kinetic = kinetic.Value() / double(robots);
    summary.mean_potential = potential.Value() / double(robots);
    summary.mean_normal_force = normal_force.Value() / double(robots);
  }
  return summary;
}

void RunTotals::Merge(const RunTotals& other) {
  errors.Merge(other.errors);
  torque.Merge(other.torque);
  state_digest += other.state_digest;
  stepping_seconds = std::max(stepping_seconds, other.stepping_seconds);
}

std::array<uint64_t, RunTotals::kWords> RunTotals::Words() const {
  std::array<uint64_t, kWords> words{};
  auto out = std::ranges::copy(errors.Words(), words.begin()).out;
  for (uint64_t count :
       {torque.robots, torque.joints, torque.saturated, torque.contacts, torque.touching}) {
    *out++ = count;
  }
  for (const ExactSum* sum :
       {&torque.abs_torque, &torque.kinetic, &torque.potential, &torque.normal_force}) {
    out = std::ranges::copy(sum->Words(), out).out;
  }
  for (double value : {torque.max_abs_torque, torque.max_kinetic}) {
    *out++ = std::bit_cast<uint64_t>(value);
  }
  *out++ = state_digest;
  *out++ = std::bit_cast<uint64_t>(stepping_seconds);
  return words;
}

RunTotals RunTotals::FromWords(std::span<const uint64_t, kWords> words) {
  RunTotals totals;
  totals.errors = TaskErrorTotals::FromWords(words.first<TaskErrorTotals::kWords>());
  size_t next = TaskErrorTotals::kWords;
  TorqueTotals& torque = totals.torque;
  for (uint64_t* count :
       {&torque.robots, &torque.joints, &torque.saturated, &torque.contacts, &torque.touching}) {
    *count = words[next++];
  }
  for (ExactSum* sum :
       {&torque.abs_torque, &torque.kinetic, &torque.potential, &torque.normal_force}) {
    *sum = ExactSum::FromWords(words.subspan(next).first<ExactSum::kWords>());
    next += ExactSum::kWords;
  }
  for (double* value : {&torque.max_abs_torque, &torque.max_kinetic}) {
    *value = std::bit_cast<double>(words[next++]);
  }
  totals.state_digest = words[next++];
  totals.stepping_seconds = std::bit_cast<double>(words[next++]);
  return totals;
}

}  // namespace swarm
