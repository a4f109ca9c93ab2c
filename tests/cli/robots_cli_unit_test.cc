// Unit tests of swarm-robots' parts that need no robot: the progress text, command and flag
// parsing, the recording plan and its size limit, and the streaming .npy writer (read back with
// swarm/tensor/npy.h here; numpy reads the real outputs in robots_outputs_test.py); and the
// parts of a run sharded over MPI ranks that need no MPI: the robot slices, the agreed error,
// the run fingerprint and the run totals moved as words and merged.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "demos/robots/npy_stream.h"
#include "demos/robots/options.h"
#include "demos/robots/progress_bar.h"
#include "demos/robots/rank_group.h"
#include "demos/robots/rank_group_internal.h"
#include "demos/robots/run_totals.h"
#include "demos/robots/trajectory_recorder.h"
#include "swarm/tensor/npy.h"

namespace swarm {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path TempDir() {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "swarm_robots_cli_unit_test";
  std::filesystem::create_directories(dir);
  return dir;
}

TEST_CASE("progress text: bar, percentage, steps, rate and ETA") {
  // 500 of 1000 steps of 1000 robots in 2 s: 250 k robot-steps/s, 2 s left.
  CHECK(FormatProgress(500, 1000, 1000, 2.0, 10) ==
        "[#####-----]  50%  500/1000 steps  250 k robot-steps/s  ETA 2.0 s");
  CHECK(FormatProgress(0, 1000, 1000, 0.0, 4) == "[----]   0%  0/1000 steps");
  CHECK(FormatProgress(1000, 1000, 100000, 4.0, 4) ==
        "[####] 100%  1000/1000 steps  25 M robot-steps/s  ETA 0.0 s");
  CHECK(FormatRate(950) == "950");
  CHECK(FormatRate(12345) == "12.3 k");
  CHECK(FormatRate(45.6e6) == "45.6 M");
  CHECK(FormatRate(123.4e6) == "123 M");
  CHECK(FormatRate(1.5e9) == "1.5 G");
  CHECK(FormatDuration(0.84) == "0.8 s");
  CHECK(FormatDuration(42.2) == "42 s");
  CHECK(FormatDuration(185) == "3 min 05 s");
  CHECK(FormatDuration(7290) == "2 h 02 min");
  CHECK(FormatDuration(-1) == "?");
}

TEST_CASE("commands: a flag or nothing runs, run, info, fk and help by name, others refused") {
  const auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "swarm-robots");
    return ParseCommand(static_cast<int>(args.size()), args.data());
  };
  Result<CommandLine> bare = parse({"--urdf", "x.urdf"});
  REQUIRE(bare.ok());
  CHECK(bare->command == RobotsCommand::kRun);
  CHECK(bare->first_argument == 1);
  Result<CommandLine> none = parse({});
  REQUIRE(none.ok());
  CHECK(none->command == RobotsCommand::kRun);
  Result<CommandLine> info = parse({"info", "--json"});
  REQUIRE(info.ok());
  CHECK(info->command == RobotsCommand::kInfo);
  CHECK(info->first_argument == 2);
  Result<CommandLine> fk = parse({"fk"});
  REQUIRE(fk.ok());
  CHECK(fk->command == RobotsCommand::kFk);
  Result<CommandLine> run = parse({"run", "--robots", "3"});
  REQUIRE(run.ok());
  CHECK(run->command == RobotsCommand::kRun);
  CHECK(run->first_argument == 2);
  Result<CommandLine> help = parse({"--help"});
  REQUIRE(help.ok());
  CHECK(help->command == RobotsCommand::kHelp);
  Result<CommandLine> bad = parse({"walk"});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Contains("unknown command 'walk'") && Contains("run, info"));
}

TEST_CASE("run flags: defaults, --record-robots clamped to --robots, errors name the flag") {
  const auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "run");
    return ParseRunOptions(static_cast<int>(args.size()), args.data(), 1);
  };
  Result<RunOptions> options = parse({"--urdf", "u.urdf", "--robots", "40", "--task=track"});
  REQUIRE(options.ok());
  CHECK(options->robots == 40);
  CHECK(options->record_robots == 40);
  CHECK(options->record_every == 10);
  CHECK(options->task.task == RobotTask::kTrack);
  CHECK(options->dt == 0.002);
  options = parse({"--urdf", "u.urdf", "--robots", "1e5", "--record-robots", "0"});
  REQUIRE(options.ok());
  CHECK(options->record_robots == 100000);
  options = parse({"--urdf", "u.urdf", "--robots", "1e5"});
  REQUIRE(options.ok());
  CHECK(options->record_robots == 1000);

  Result<RunOptions> bad = parse({"--urdf", "u.urdf", "--task", "dance"});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Contains("--task") && Contains("'dance'"));
  bad = parse({"--robots", "5"});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Contains("--urdf"));
  bad = parse({"--urdf", "u.urdf", "--robots", "0"});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Contains("--robots") && Contains("out of range"));
  bad = parse({"--urdf", "u.urdf", "--dt", "0"});
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.status().message(), Contains("--dt"));
}

TEST_CASE("run flags: the soft constraints' parameters, speed caps and their defaults") {
  const auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), {"run", "--urdf", "u.urdf"});
    return ParseRunOptions(static_cast<int>(args.size()), args.data(), 1);
  };
  // The defaults are the library's (the decimals --help prints round to its floats).
  Result<RunOptions> options = parse({});
  REQUIRE(options.ok());
  CHECK(float(options->ground_time_constant) == SoftConstraint{}.time_constant);
  CHECK(float(options->limit_damping_ratio) == SoftConstraint{}.damping_ratio);
  CHECK(float(options->ground_friction) == GroundContact{}.friction);
  CHECK(float(options->limit_tolerance) == TorqueModeConfig{}.limit_tolerance);
  CHECK(float(options->max_joint_speed) == TorqueModeConfig{}.max_joint_speed);
  CHECK_THAT(options->usage, Contains("--limit-tolerance") && Contains("--max-joint-speed") &&
                                 Contains("--ground-time-constant") &&
                                 Contains("--limit-damping-ratio") &&
                                 Contains("--ground-friction") && Contains("(default: 0.02)"));
  options =
      parse({"--control", "torque", "--ground-time-constant", "0.01", "--ground-damping-ratio",
             "0.5", "--limit-time-constant", "0.05", "--limit-damping-ratio", "2",
             "--limit-tolerance", "0.002", "--max-joint-speed", "30", "--ground-friction", "0"});
  REQUIRE(options.ok());
  CHECK(options->ground_time_constant == 0.01);
  CHECK(options->ground_damping_ratio == 0.5);
  CHECK(options->limit_time_constant == 0.05);
  CHECK(options->limit_damping_ratio == 2.0);
  CHECK(options->limit_tolerance == 0.002);
  CHECK(options->max_joint_speed == 30.0);
  CHECK(options->ground_friction == 0.0);
  // Out of range, or the spring-damper flags the soft constraints replaced.
  for (const std::vector<const char*>& flags :
       std::vector<std::vector<const char*>>{{"--limit-tolerance", "0"},
                                             {"--max-joint-speed", "-1"},
                                             {"--ground-time-constant", "0"},
                                             {"--ground-friction", "-0.5"}}) {
    INFO(flags[0]);
    Result<RunOptions> bad = parse(flags);
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.status().message(), Contains(flags[0]) && Contains("out of range"));
  }
  for (const char* removed : {"--ground-stiffness", "--ground-damping", "--limit-spring"}) {
    INFO(removed);
    Result<RunOptions> bad = parse({removed, "1"});
    REQUIRE_FALSE(bad.ok());
    CHECK_THAT(bad.status().message(), Contains(std::string("unknown flag ") + removed));
  }
}

TEST_CASE("recording plan: frames at steps 0, K, 2K, ..., sizes, refused over --max-output") {
  CHECK(EndEffectorOutputPath("out/run.npy") == "out/run_ee.npy");
  CHECK(EndEffectorOutputPath("run") == "run_ee.npy");
  Result<RecordingPlan> plan = PlanRecording("run.npy", 1000, 10, 50, 6, 1 << 20);
  REQUIRE(plan.ok());
  CHECK(plan->frames == 101);
  CHECK(plan->IsRecordedStep(0));
  CHECK(plan->IsRecordedStep(1000));
  CHECK_FALSE(plan->IsRecordedStep(15));
  // Two headers of 128 bytes (numpy pads them so the data starts at a multiple of 64).
  CHECK(plan->total_bytes == 128 + 101 * 50 * 6 * 4 + 128 + 101 * 50 * 7 * 4);
  CHECK(plan->ee_path == "run_ee.npy");
  plan = PlanRecording("run.npy", 7, 3, 2, 6, 1 << 20);
  REQUIRE(plan.ok());
  CHECK(plan->frames == 3);  // steps 0, 3, 6

  // 100,000 robots x 1001 frames x 13 floats: 5.2 GB.
  Result<RecordingPlan> huge = PlanRecording("run.npy", 1000, 1, 100000, 6, size_t{1} << 30);
  REQUIRE_FALSE(huge.ok());
  CHECK_THAT(huge.status().message(), Contains("--max-output=1.00 GiB") &&
                                          Contains("--record-every") &&
                                          Contains("--record-robots") && Contains("GiB"));
}

// Temporary files "<name>.tmp-*" left in `dir`.
size_t Temporaries(const std::filesystem::path& dir, const std::string& name) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    count += entry.path().filename().string().starts_with(name + ".tmp-");
  }
  return count;
}

TEST_CASE("NpyStreamWriter writes what numpy's np.save would and leaves nothing on failure") {
  const std::filesystem::path dir = TempDir();
  const std::string path = (dir / "stream.npy").string();
  std::filesystem::remove(path);
  std::vector<float> values(2 * 3 * 5);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f * static_cast<float>(i) - 3.0f;
  {
    Result<NpyStreamWriter> writer = NpyStreamWriter::Open(path, {2, 3, 5});
    REQUIRE(writer.ok());
    CHECK_FALSE(std::filesystem::exists(path));  // only the temporary file until Finish
    CHECK(Temporaries(dir, "stream.npy") == 1);
    REQUIRE(writer->Append({values.data(), 15}).ok());
    REQUIRE(writer->Append({values.data() + 15, 15}).ok());
    Status extra = writer->Append({values.data(), 1});
    CHECK_THAT(extra.message(), Contains("exceed the 30"));
    REQUIRE(writer->Finish().ok());
    CHECK(writer->file_bytes() == std::filesystem::file_size(path));
  }
  CHECK(Temporaries(dir, "stream.npy") == 0);
  MemoryAccountant memory;
  Result<Tensor> loaded = LoadNpy(memory, path);
  REQUIRE(loaded.ok());
  const TensorView view = loaded->view();
  REQUIRE(view.dtype() == DType::kF32);
  REQUIRE(view.rank() == 3);
  CHECK(view.shape(0) == 2);
  CHECK(view.shape(1) == 3);
  CHECK(view.shape(2) == 5);
  const float* data = static_cast<const float*>(view.data());
  for (size_t i = 0; i < values.size(); ++i) CHECK(data[i] == values[i]);

  // Short of elements: Finish fails, naming the counts, and removes the temporary file.
  const std::string short_path = (dir / "short.npy").string();
  {
    Result<NpyStreamWriter> writer = NpyStreamWriter::Open(short_path, {4});
    REQUIRE(writer.ok());
    REQUIRE(writer->Append({values.data(), 3}).ok());
    Status finished = writer->Finish();
    CHECK_THAT(finished.message(), Contains("wrote 3 elements") && Contains("announces 4"));
  }
  CHECK_FALSE(std::filesystem::exists(short_path));
  CHECK(Temporaries(dir, "short.npy") == 0);
  // Abandoned (destroyed before Finish): nothing left behind.
  {
    Result<NpyStreamWriter> writer = NpyStreamWriter::Open(short_path, {4});
    REQUIRE(writer.ok());
  }
  CHECK(Temporaries(dir, "short.npy") == 0);
  // A directory that does not exist: the error names the path.
  Result<NpyStreamWriter> nowhere = NpyStreamWriter::Open((dir / "no-such/x.npy").string(), {1});
  REQUIRE_FALSE(nowhere.ok());
  CHECK_THAT(nowhere.status().message(), Contains("no-such/x.npy") && Contains("cannot create"));
}

TEST_CASE("two NpyStreamWriters of one path never mix: the path holds one complete file") {
  const std::filesystem::path dir = TempDir();
  const std::string path = (dir / "race.npy").string();
  std::filesystem::remove(path);
  const std::vector<float> ones(6, 1.0f), twos(6, 2.0f);
  Result<NpyStreamWriter> first = NpyStreamWriter::Open(path, {2, 3});
  Result<NpyStreamWriter> second = NpyStreamWriter::Open(path, {2, 3});
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(Temporaries(dir, "race.npy") == 2);
  // Interleaved appends, as two runs started together would make them.
  for (size_t half = 0; half < 2; ++half) {
    REQUIRE(first->Append({ones.data() + 3 * half, 3}).ok());
    REQUIRE(second->Append({twos.data() + 3 * half, 3}).ok());
  }
  REQUIRE(first->Finish().ok());
  MemoryAccountant memory;
  const auto values_at = [&](float expected) {
    Result<Tensor> loaded = LoadNpy(memory, path);
    REQUIRE(loaded.ok());
    const float* data = static_cast<const float*>(loaded->view().data());
    for (int i = 0; i < 6; ++i) CHECK(data[i] == expected);
  };
  values_at(1.0f);
  // The second run finishes later and replaces the file whole; one that fails instead leaves the
  // first run's file as it was.
  REQUIRE(second->Finish().ok());
  values_at(2.0f);
  {
    Result<NpyStreamWriter> failing = NpyStreamWriter::Open(path, {2, 3});
    REQUIRE(failing.ok());
    REQUIRE(failing->Append({ones.data(), 5}).ok());
    CHECK_FALSE(failing->Finish().ok());
  }
  values_at(2.0f);
  CHECK(Temporaries(dir, "race.npy") == 0);
}

TEST_CASE("robot slices: contiguous in rank order, every robot once, sizes differ by one") {
  for (uint64_t robots : {1u, 2u, 3u, 7u, 100u, 101u, 1000003u}) {
    for (int ranks = 1; ranks <= 17; ++ranks) {
      if (robots < uint64_t(ranks)) continue;
      uint64_t next = 0, most = 0, fewest = robots;
      for (int r = 0; r < ranks; ++r) {
        const RobotSlice slice = RobotSliceOf(robots, r, ranks);
        CHECK(slice.first == next);
        CHECK(slice.count >= 1);
        next += slice.count;
        most = std::max(most, slice.count);
        fewest = std::min(fewest, slice.count);
        // Earlier ranks hold at least as many robots as later ones.
        if (r > 0) CHECK(RobotSliceOf(robots, r - 1, ranks).count >= slice.count);
      }
      CHECK(next == robots);
      CHECK(most - fewest <= 1);
    }
  }
  const RobotSlice last = RobotSliceOf(101, 2, 3);  // 34 + 34 + 33
  CHECK(last.first == 68);
  CHECK(last.count == 33);
}

TEST_CASE("agreed error: the lowest failing rank, named, with how many others failed") {
  using rank_group_internal::AgreedStatus;
  using rank_group_internal::EncodeStatus;
  const Status ok;
  const Status bad_urdf = InvalidArgument("URDF file 'x': cannot open");
  const Status budget(ErrorCode::kOverBudget, "budget: 1 MiB");
  const std::string all_ok[] = {EncodeStatus(ok), EncodeStatus(ok), EncodeStatus(ok)};
  CHECK(AgreedStatus(all_ok).ok());
  const std::string one[] = {EncodeStatus(ok), EncodeStatus(budget), EncodeStatus(ok)};
  const Status agreed_one = AgreedStatus(one);
  CHECK(agreed_one.code() == ErrorCode::kOverBudget);
  CHECK(agreed_one.message() == "rank 1 of 3: budget: 1 MiB");
  const std::string two[] = {EncodeStatus(ok), EncodeStatus(bad_urdf), EncodeStatus(budget),
                             EncodeStatus(budget)};
  CHECK(AgreedStatus(two).message() ==
        "rank 1 of 4: URDF file 'x': cannot open (and 2 more ranks failed)");
  const std::string alike[] = {EncodeStatus(bad_urdf), EncodeStatus(bad_urdf)};
  CHECK(AgreedStatus(alike).message() == "URDF file 'x': cannot open (on each of the 2 ranks)");
  // One process: the error as it is; a message holding the separator survives.
  const std::string single[] = {EncodeStatus(InvalidArgument("a: b: c"))};
  CHECK(AgreedStatus(single).message() == "a: b: c");
  CHECK(AgreedStatus(single).code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("run fingerprint: every option that shapes the results, none of a rank's own") {
  Result<RunOptions> base =
      ParseRunOptions(3, std::vector<const char*>{"run", "--urdf", "robot.urdf"}.data(), 1);
  REQUIRE(base.ok());
  const std::string text = RunFingerprintText(base.value());
  const auto with = [&](std::vector<const char*> flags) {
    flags.insert(flags.begin(), {"run", "--urdf", "robot.urdf"});
    Result<RunOptions> options = ParseRunOptions(int(flags.size()), flags.data(), 1);
    REQUIRE(options.ok());
    return RunFingerprintText(options.value());
  };
  // A rank's own resources and rank 0's files do not count ...
  CHECK(with({"--threads", "3"}) == text);
  CHECK(with({"--simd", "scalar"}) == text);
  CHECK(with({"--memory-limit", "1G"}) == text);
  CHECK(with({"--no-progress"}) == text);
  CHECK(with({"--max-urdf-bytes", "1M"}) == text);
  CHECK(with({"--max-mjcf-bytes", "1M"}) == text);
  CHECK(with({"--max-output", "4G"}) == text);
  // ... and whether a run records does (the ranks gather frames), but not where it writes.
  CHECK(with({"--out", "a.npy"}) != text);
  CHECK(with({"--out", "a.npy"}) == with({"--out", "elsewhere/b.npy"}));
  // Everything that changes what the robots do, or what is recorded, counts.
  for (std::vector<const char*> flags :
       std::vector<std::vector<const char*>>{{"--robots", "7"},
                                             {"--steps", "9"},
                                             {"--dt", "0.001"},
                                             {"--task", "track"},
                                             {"--seed", "2"},
                                             {"--start-spread", "0.25"},
                                             {"--track-radius", "0.1"},
                                             {"--track-period", "3"},
                                             {"--resample-every", "9"},
                                             {"--record-every", "3"},
                                             {"--record-robots", "5"},
                                             {"--control", "torque"},
                                             {"--kp", "100"},
                                             {"--kd", "2"},
                                             {"--ground-time-constant", "0.01"},
                                             {"--ground-damping-ratio", "0.5"},
                                             {"--ground-friction", "0.5"},
                                             {"--limit-time-constant", "0.05"},
                                             {"--limit-damping-ratio", "2"},
                                             {"--limit-tolerance", "0.02"},
                                             {"--max-joint-speed", "50"},
                                             {"--floating-base"},
                                             {"--end-effector", "wrist"}}) {
    INFO(flags[0]);
    CHECK(with(flags) != text);
  }
  // Numbers are compared exactly, not as rounded text.
  CHECK(with({"--dt", "0.0020000000000000001"}) == text);
  CHECK(with({"--dt", "0.0020000000000001"}) != text);
}

TEST_CASE("robot files: --urdf or --mjcf, exactly one, --floating-base with --urdf only") {
  const auto parse = [](std::vector<const char*> args) {
    args.insert(args.begin(), "info");
    return ParseInfoOptions(int(args.size()), args.data(), 1);
  };
  Result<InfoOptions> mjcf = parse({"--mjcf", "scene.xml", "--max-mjcf-bytes", "2M"});
  REQUIRE(mjcf.ok());
  CHECK(mjcf->source.mjcf == "scene.xml");
  CHECK(mjcf->source.max_mjcf_bytes == size_t{2} << 20);
  CHECK(std::string(mjcf->source.flag()) == "--mjcf");
  CHECK(mjcf->source.path() == "scene.xml");
  Result<InfoOptions> urdf = parse({"--urdf", "r.urdf", "--floating-base"});
  REQUIRE(urdf.ok());
  CHECK(std::string(urdf->source.flag()) == "--urdf");
  CHECK(urdf->source.floating_base);
  const std::pair<std::vector<const char*>, const char*> bad[] = {
      {{}, "--urdf or --mjcf: expected the path of a robot file"},
      {{"--urdf", "r.urdf", "--mjcf", "s.xml"}, "expected one robot file, got both"},
      {{"--mjcf", "s.xml", "--floating-base"}, "says itself whether its base floats"}};
  for (const auto& [args, message] : bad) {
    INFO(message);
    Result<InfoOptions> refused = parse(args);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.status().message(), Contains(message));
  }
  // A run's fingerprint tells the formats apart (the bytes of the files are compared as well).
  const auto run_text = [](const char* flag) {
    std::vector<const char*> args{"run", flag, "model"};
    Result<RunOptions> options = ParseRunOptions(int(args.size()), args.data(), 1);
    REQUIRE(options.ok());
    return RunFingerprintText(options.value());
  };
  CHECK(run_text("--urdf") != run_text("--mjcf"));
}

TEST_CASE("run totals: split into ranks, moved as words and merged, they equal the whole") {
  // Synthetic per-robot values spanning many binades, whose double sum depends on the order.
  std::vector<float> values(999);
  for (size_t r = 0; r < values.size(); ++r) {
    values[r] = std::ldexp(1.0f + float(r % 13) / 16.0f, int(r % 50) - 25);
  }
  const auto totals_of = [&](size_t first, size_t count) {
    RunTotals totals;
    totals.errors.robots = count;
    totals.torque.robots = count;
    totals.torque.joints = 6 * count;
    for (size_t r = first; r < first + count; ++r) {
      totals.errors.position_m.Add(values[r]);
      totals.errors.max_joint_error = std::max(totals.errors.max_joint_error, double(values[r]));
      totals.errors.successes += values[r] < 1.0f;
      totals.torque.kinetic.Add(values[r]);
      totals.torque.abs_torque.Add(values[values.size() - 1 - r]);
      totals.torque.max_kinetic = std::max(totals.torque.max_kinetic, double(values[r]));
      totals.torque.touching += r % 3 == 0;
    }
    totals.state_digest = 0x9e3779b97f4a7c15ull * (first + 1) + count;
    totals.stepping_seconds = 0.001 * double(count);
    return totals;
  };
  const RunTotals whole = totals_of(0, values.size());
  for (int ranks : {1, 2, 3, 7}) {
    INFO(ranks << " ranks");
    RunTotals merged;
    uint64_t digest = 0;
    double slowest = 0.0;
    // Merged last rank first, through words, as rank 0 would receive them in any order.
    for (int r = ranks; r-- > 0;) {
      const RobotSlice slice = RobotSliceOf(values.size(), r, ranks);
      const RunTotals part = totals_of(slice.first, slice.count);
      digest += part.state_digest;
      slowest = std::max(slowest, part.stepping_seconds);
      const std::array<uint64_t, RunTotals::kWords> words = part.Words();
      merged.Merge(RunTotals::FromWords(words));
    }
    CHECK(merged.errors.Words() == whole.errors.Words());
    CHECK(merged.state_digest == digest);
    CHECK(merged.stepping_seconds == slowest);
    const TorqueSummary a = merged.torque.Summary(), b = whole.torque.Summary();
    CHECK(std::bit_cast<uint64_t>(a.mean_kinetic) == std::bit_cast<uint64_t>(b.mean_kinetic));
    CHECK(std::bit_cast<uint64_t>(a.mean_abs_torque) == std::bit_cast<uint64_t>(b.mean_abs_torque));
    CHECK(a.max_kinetic == b.max_kinetic);
    CHECK(a.touching == b.touching);
    CHECK(a.joints == b.joints);
  }
  // The mean of the whole against a long-double reference (exact sums round once).
  long double reference = 0.0L;
  for (float v : values) reference += v;
  CHECK(whole.torque.Summary().mean_kinetic ==
        Approx(double(reference / values.size())).epsilon(1e-15));
}

TEST_CASE("run summary: a non-finite energy, torque or force is an error naming it") {
  TorqueSummary finite;
  finite.mean_abs_torque = 1.5, finite.max_abs_torque = 80.0, finite.mean_kinetic = 2.0;
  finite.max_kinetic = 3.0, finite.mean_potential = -1.0, finite.mean_normal_force = 40.0;
  CHECK(CheckFinite(finite).ok());
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const struct {
    double TorqueSummary::*field;
    double value;
    const char* named;
  } cases[] = {
      {&TorqueSummary::mean_abs_torque, nan,
       "the final joint torque's mean |tau| overflowed to nan"},
      {&TorqueSummary::max_abs_torque, inf, "joint torque's max |tau| overflowed to inf N m or N"},
      {&TorqueSummary::mean_kinetic, inf, "kinetic energy per robot: mean overflowed to inf J"},
      {&TorqueSummary::max_kinetic, inf, "kinetic energy per robot: max overflowed to inf J"},
      {&TorqueSummary::mean_potential, -inf, "potential energy per robot: mean overflowed to -inf"},
      {&TorqueSummary::mean_normal_force, nan, "normal force per robot: mean overflowed to nan N"},
  };
  for (const auto& c : cases) {
    TorqueSummary summary = finite;
    summary.*c.field = c.value;
    const Status status = CheckFinite(summary);
    INFO(status.message());
    CHECK(status.code() == ErrorCode::kInvalidArgument);
    CHECK(status.message().find(c.named) != std::string::npos);
  }
}

}  // namespace
}  // namespace swarm
