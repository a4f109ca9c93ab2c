// Unit tests of swarm-robots' parts that need no robot: the progress text, command and flag
// parsing, the recording plan and its size limit, and the streaming .npy writer (read back with
// engine/tensor/npy.h here; numpy reads the real outputs in robots_outputs_test.py).
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "demos/robots/npy_stream.h"
#include "demos/robots/options.h"
#include "demos/robots/progress_bar.h"
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

}  // namespace
}  // namespace swarm
