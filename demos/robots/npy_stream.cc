#include "demos/robots/npy_stream.h"

#include <utility>
#include <vector>

#include "swarm/tensor/npy.h"

namespace swarm {
namespace {

uint64_t ElementCount(std::span<const int64_t> shape) {
  uint64_t count = 1;
  for (int64_t extent : shape) count *= static_cast<uint64_t>(extent);
  return count;
}

}  // namespace

uint64_t NpyFileBytes(std::span<const int64_t> shape) {
  return NpyHeaderBytes(DType::kF32, shape).size() + 4 * ElementCount(shape);
}

Result<NpyStreamWriter> NpyStreamWriter::Open(const std::string& path, std::vector<int64_t> shape) {
  NpyStreamWriter writer;
  Result<OutputFile> file = OutputFile::Create(path);
  if (!file.ok()) return InvalidArgument("'" + path + "': " + file.status().message());
  writer.file_ = std::move(file).value();
  writer.expected_elements_ = ElementCount(shape);
  const std::string header = NpyHeaderBytes(DType::kF32, shape);
  writer.header_bytes_ = header.size();
  if (Status s = writer.file_.Write(header.data(), header.size()); !s.ok()) {
    return InvalidArgument("'" + path + "': " + s.message());
  }
  return writer;
}

Status NpyStreamWriter::Append(std::span<const float> values) {
  SWARM_ASSERT(file_.is_open());
  if (written_elements_ + values.size() > expected_elements_) {
    return InvalidArgument("'" + path() + "': " + std::to_string(values.size()) +
                           " more elements would exceed the " + std::to_string(expected_elements_) +
                           " its header announces");
  }
  if (Status s = file_.Write(values.data(), values.size() * sizeof(float)); !s.ok()) {
    file_.Discard();
    return InvalidArgument("'" + path() + "': " + s.message());
  }
  written_elements_ += values.size();
  return {};
}

Status NpyStreamWriter::CheckComplete() {
  SWARM_ASSERT(file_.is_open());
  if (written_elements_ != expected_elements_) {
    file_.Discard();
    return InvalidArgument("'" + path() + "': wrote " + std::to_string(written_elements_) +
                           " elements, its header announces " + std::to_string(expected_elements_));
  }
  return {};
}

Status NpyStreamWriter::Finish() {
  NpyStreamWriter* const self[] = {this};
  return FinishTogether(self);
}

Status NpyStreamWriter::FinishTogether(std::span<NpyStreamWriter* const> writers) {
  std::vector<OutputFile*> files;
  Status complete;
  for (NpyStreamWriter* writer : writers) {
    if (Status s = writer->CheckComplete(); !s.ok() && complete.ok()) complete = s;
    files.push_back(&writer->file_);
  }
  if (!complete.ok()) {
    for (OutputFile* file : files) file->Discard();
    return complete;
  }
  // The message names the file that failed (its temporary file's name starts with its path).
  return OutputFile::CommitTogether(files);
}

}  // namespace swarm
