#include "demos/robots/run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "demos/robots/progress_bar.h"
#include "swarm/core/exact_sum.h"
#include "swarm/core/simd.h"

namespace swarm {

void PrintRunHeader(const RunOptions& options, const RobotBatch& batch, size_t threads, int ranks) {
  const RobotModel& model = batch.model();
  const SimdTarget target = ActiveSimdTarget();
  std::printf(
      "swarm-robots: task %s, %zu robots of '%s' (%zu dof, %zu q values, %zu links, "
      "end effector '%s'%s)\n",
      RobotTaskName(options.task.task), static_cast<size_t>(options.robots), model.name.c_str(),
      model.dof(), model.q_count(), model.links.size(), model.links[batch.end_effector()].c_str(),
      model.floating_base ? ", floating base" : "");
  std::printf("%llu steps of %g s, seed %llu, %zu thread(s), SIMD %s (%s)\n",
              static_cast<unsigned long long>(options.steps), options.dt,
              static_cast<unsigned long long>(options.task.seed), threads, target.name.c_str(),
              target.hwy_name.c_str());
  std::printf("SIMD targets this CPU supports: %s\n", TargetNames(SupportedTargets()).c_str());
  if (ranks > 1) {
    // Rank 0 holds the most robots, the last rank the fewest.
    const uint64_t most = RobotSliceOf(options.robots, 0, ranks).count;
    const uint64_t fewest = RobotSliceOf(options.robots, ranks - 1, ranks).count;
    const std::string each = fewest == most
                                 ? std::to_string(most)
                                 : std::to_string(fewest) + " to " + std::to_string(most);
    std::printf(
        "MPI: %d ranks of %s robots each, in robot order, every rank with its own thread pool "
        "(the threads and SIMD above are rank 0's)\n",
        ranks, each.c_str());
  }
  if (options.task.torque_control) {
    std::printf(
        "torque control: %s, rigid-body dynamics, armature %g per joint, gravity (%g, %g, %g), "
        "%s\n",
        TorqueControllerName(options.task.controller), options.armature, options.gravity[0],
        options.gravity[1], options.gravity[2],
        options.integrator == TorqueIntegrator::kRungeKutta4 ? "RK4" : "semi-implicit Euler");
    const TorqueModeConfig& torque = batch.config().torque;
    const SoftConstraint& limits = torque.limits;
    std::printf(
        "joint limits: soft constraints of time constant %g s, damping ratio %g, impedance %g to "
        "%g over %g; a joint's effort limit pushes it at most %g rad (or m) past a limit\n",
        limits.time_constant, limits.damping_ratio, limits.impedance_min, limits.impedance_max,
        limits.width, torque.limit_tolerance);
    std::printf("speed caps: %g rad/s (or m/s) per joint", torque.max_joint_speed);
    if (model.floating_base) {
      std::printf(", %g rad/s for the base's rotation", torque.max_base_angular_speed);
    }
    if (torque.integrator == TorqueIntegrator::kSemiImplicitEuler) {
      std::printf(", %g rad per step (%g rad/s at dt = %g s)", torque.max_step_turn,
                  torque.max_step_turn / options.dt, options.dt);
    }
    std::printf("\n");
  }
  if (!batch.contact_points().empty()) {
    std::string links;
    for (const ContactPoint& contact : batch.contact_points()) {
      links += (links.empty() ? "" : ", ") + model.links[contact.link];
    }
    const GroundContact& ground = batch.config().torque.contacts.ground;
    std::printf(
        "ground contacts: %zu (%s), radius %g m, at z = %g; soft constraints of time constant "
        "%g s, damping ratio %g, impedance %g to %g over %g m; friction %g\n",
        batch.contact_points().size(), links.c_str(), batch.config().torque.contacts.radius,
        ground.height, ground.soft.time_constant, ground.soft.damping_ratio,
        ground.soft.impedance_min, ground.soft.impedance_max, ground.soft.width, ground.friction);
  }
  std::fflush(stdout);
}

std::string RankReportLine(int rank, const std::string& host, RobotSlice slice, size_t threads,
                           double stepping_seconds, const MemoryAccountant& memory) {
  const size_t budget = memory.budget();
  char line[512];
  std::snprintf(line, sizeof(line),
                "  rank %d on %s: robots [%llu, %llu), SIMD %s, %zu thread(s), stepping %.3f s; "
                "memory peak %s of %s, process RSS %s\n",
                rank, host.c_str(), static_cast<unsigned long long>(slice.first),
                static_cast<unsigned long long>(slice.first + slice.count),
                ActiveSimdTarget().name.c_str(), threads, stepping_seconds,
                FormatBytes(memory.Total().peak_bytes).c_str(),
                budget == kNoBudget ? "no budget" : ("a budget of " + FormatBytes(budget)).c_str(),
                FormatBytes(ProcessResidentBytes()).c_str());
  return line;
}

void PrintRunSummary(const RunOptions& options, const RobotBatch& batch, const RunTotals& totals,
                     const RunTimings& timings, const MemoryAccountant& memory,
                     const RecordingPlan* recording, std::span<const std::string> rank_lines) {
  const TaskErrorSummary errors = totals.errors.Summary();
  const double robot_steps =
      static_cast<double>(options.robots) * static_cast<double>(options.steps);
  const double rate = timings.stepping_seconds > 0 ? robot_steps / timings.stepping_seconds : 0.0;
  std::printf(
      "stepping: %.3f s for %.3g robot-steps: %s robot-steps/s (%.3f ms per step of "
      "%llu robots)\n",
      timings.stepping_seconds, robot_steps, FormatRate(rate).c_str(),
      1e3 * timings.stepping_seconds / static_cast<double>(options.steps),
      static_cast<unsigned long long>(options.robots));
  std::printf("total: %.3f s (recording %.3f s)\n", timings.total_seconds,
              timings.recording_seconds);
  if (!rank_lines.empty()) {
    std::printf(
        "MPI gathers on rank 0: %.3f s receiving recorded robots, %.3f s the ranks' totals\n",
        timings.gather_seconds, timings.summary_seconds);
  }
  if (options.task.task == RobotTask::kReach) {
    char orientation[64] = "";
    if (batch.config().ik.orientation_weight > 0.0f) {
      std::snprintf(orientation, sizeof(orientation), " and %g rad",
                    options.task.success_orientation_rad);
    }
    std::printf("reach success: %.1f%% (%zu of %zu robots within %g m%s)\n",
                100.0 * errors.SuccessRate(), errors.successes, errors.robots,
                options.task.success_position_m, orientation);
  }
  if (options.task.task == RobotTask::kStand) {
    std::printf(
        "stand success: %.1f%% (%zu of %zu robots with the base within %g m of its standing "
        "height and tilted < %g rad)\n",
        100.0 * errors.SuccessRate(), errors.successes, errors.robots,
        options.task.success_height_m, options.task.success_tilt_rad);
    std::printf(
        "final base error: height mean %.6f m, max %.6f m; tilt mean %.6f rad, max %.6f rad\n",
        errors.mean_position_m, errors.max_position_m, errors.mean_orientation_rad,
        errors.max_orientation_rad);
  } else if (options.task.task != RobotTask::kRandom) {
    std::printf(
        "final end-effector error: position mean %.6f m, max %.6f m; orientation mean "
        "%.6f rad, max %.6f rad\n",
        errors.mean_position_m, errors.max_position_m, errors.mean_orientation_rad,
        errors.max_orientation_rad);
  }
  std::printf("final joint tracking error |q - q_target|: mean %.6f, max %.6f\n",
              errors.mean_joint_error, errors.max_joint_error);
  if (options.task.torque_control) {
    const TorqueSummary torque = totals.torque.Summary();
    std::printf(
        "final torques: mean |tau| %.4f, max %.4f (N m or N); %zu of %zu joints at their effort "
        "limit\n",
        torque.mean_abs_torque, torque.max_abs_torque, torque.saturated, torque.joints);
    std::printf("final energy per robot: kinetic mean %.6f J, max %.6f J; potential mean %.6f J\n",
                torque.mean_kinetic, torque.max_kinetic, torque.mean_potential);
    if (torque.contacts > 0) {
      std::printf("final contacts: %zu of %zu touching; normal force per robot mean %.4f N\n",
                  torque.touching, torque.contacts, torque.mean_normal_force);
    }
  }
  std::printf("state hash %016llx after %llu steps\n",
              static_cast<unsigned long long>(totals.state_digest),
              static_cast<unsigned long long>(options.steps));
  std::printf("memory per robot: %.0f B (%sbatch arrays %s)\n", batch.BytesPerRobot(),
              rank_lines.empty() ? "" : "rank 0's ", FormatBytes(batch.allocated_bytes()).c_str());
  std::fputs(memory.Report().c_str(), stdout);
  if (!rank_lines.empty()) {
    std::printf("memory and time of every rank (the table above is rank 0's):\n");
    for (const std::string& line : rank_lines) std::fputs(line.c_str(), stdout);
  }
  if (recording != nullptr) {
    std::printf("wrote %s: float32 [%llu, %llu, %llu] (q at steps 0, %llu, ..., %llu)\n",
                recording->q_path.c_str(), static_cast<unsigned long long>(recording->frames),
                static_cast<unsigned long long>(recording->robots),
                static_cast<unsigned long long>(recording->q_count),
                static_cast<unsigned long long>(recording->every),
                static_cast<unsigned long long>((recording->frames - 1) * recording->every));
    std::printf("wrote %s: float32 [%llu, %llu, 7] (end-effector px py pz qw qx qy qz)\n",
                recording->ee_path.c_str(), static_cast<unsigned long long>(recording->frames),
                static_cast<unsigned long long>(recording->robots));
  }
}

}  // namespace swarm
