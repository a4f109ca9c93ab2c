#include "demos/robots/npy_stream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "swarm/tensor/npy.h"

namespace swarm {
namespace {

Status SystemError(const std::string& what, const std::string& path) {
  return InvalidArgument("cannot " + what + " '" + path + "': " + std::strerror(errno));
}

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
  writer.path_ = path;
  writer.partial_path_ = path + ".partial";
  writer.expected_elements_ = ElementCount(shape);
  const std::string header = NpyHeaderBytes(DType::kF32, shape);
  writer.header_bytes_ = header.size();
  writer.file_ = std::fopen(writer.partial_path_.c_str(), "wb");
  if (writer.file_ == nullptr) return SystemError("create", writer.partial_path_);
  if (std::fwrite(header.data(), 1, header.size(), writer.file_) != header.size()) {
    Status error = SystemError("write", writer.partial_path_);
    writer.Abandon();
    return error;
  }
  return writer;
}

NpyStreamWriter::NpyStreamWriter(NpyStreamWriter&& other) noexcept { *this = std::move(other); }

NpyStreamWriter& NpyStreamWriter::operator=(NpyStreamWriter&& other) noexcept {
  if (this != &other) {
    Abandon();
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    partial_path_ = std::move(other.partial_path_);
    header_bytes_ = other.header_bytes_;
    expected_elements_ = other.expected_elements_;
    written_elements_ = other.written_elements_;
  }
  return *this;
}

NpyStreamWriter::~NpyStreamWriter() { Abandon(); }

void NpyStreamWriter::Abandon() {
  if (file_ == nullptr) return;
  std::fclose(file_);
  file_ = nullptr;
  std::remove(partial_path_.c_str());
}

Status NpyStreamWriter::Append(std::span<const float> values) {
  SWARM_ASSERT(file_ != nullptr);
  if (written_elements_ + values.size() > expected_elements_) {
    return InvalidArgument("'" + path_ + "': " + std::to_string(values.size()) +
                           " more elements would exceed the " + std::to_string(expected_elements_) +
                           " its header announces");
  }
  if (std::fwrite(values.data(), sizeof(float), values.size(), file_) != values.size()) {
    Status error = SystemError("write", partial_path_);
    Abandon();
    return error;
  }
  written_elements_ += values.size();
  return {};
}

Status NpyStreamWriter::Finish() {
  SWARM_ASSERT(file_ != nullptr);
  if (written_elements_ != expected_elements_) {
    Abandon();
    return InvalidArgument("'" + path_ + "': wrote " + std::to_string(written_elements_) +
                           " elements, its header announces " + std::to_string(expected_elements_));
  }
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    Status error = SystemError("write", partial_path_);
    std::remove(partial_path_.c_str());
    return error;
  }
  if (std::rename(partial_path_.c_str(), path_.c_str()) != 0) {
    Status error = SystemError("rename '" + partial_path_ + "' to", path_);
    std::remove(partial_path_.c_str());
    return error;
  }
  return {};
}

}  // namespace swarm
