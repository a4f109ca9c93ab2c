// .npy files in memory and on disk (engine/tensor/npy.h); npy_header.cc parses and writes the
// header.
//
// Element bytes are copied as they are: swarm runs on little-endian machines only (checked at
// compile time below), so '<' data needs no swapping.
#include "swarm/tensor/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "swarm/tensor/tensor_copy.h"

namespace swarm {

static_assert(std::endian::native == std::endian::little,
              ".npy reading and writing assume a little-endian machine");

namespace {

// Non-contiguous views are gathered through this much stack before each write.
constexpr size_t kGatherBytes = 16 * 1024;

// Keeps the code of `status` (over budget, out of memory) and puts `context` in front.
Status WithContext(const std::string& context, const Status& status) {
  return {status.code(), context + status.message()};
}

std::string FileContext(const std::string& path) { return ".npy file '" + path + "': "; }

std::string SystemError(const std::string& what, const std::string& path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

// The size check shared by ParseNpy and LoadNpy: the data after the header must be exactly what
// the shape says.
Status CheckDataSize(const NpyHeader& header, size_t file_bytes) {
  const size_t available = file_bytes - header.data_offset;
  const std::string needs = TypeString(header.dtype, header.shape) + " needs " +
                            std::to_string(header.data_bytes) + " bytes of data after the " +
                            std::to_string(header.data_offset) + "-byte header";
  if (available < header.data_bytes) {
    return InvalidArgument("the data is truncated: " + needs + ", the file has " +
                           std::to_string(available));
  }
  if (available > header.data_bytes) {
    return InvalidArgument("the file has " + std::to_string(available - header.data_bytes) +
                           " trailing bytes after the data (" + needs + ", the file has " +
                           std::to_string(available) + ")");
  }
  return {};
}

Result<Tensor> CreateTensor(MemoryAccountant& accountant, const NpyHeader& header,
                            MemoryCategory category) {
  Result<Tensor> tensor =
      Tensor::Create(accountant, header.dtype, header.shape, category,
                     header.fortran_order ? MemoryOrder::kFortran : MemoryOrder::kC);
  if (!tensor.ok()) {
    return WithContext("cannot allocate " + TypeString(header.dtype, header.shape) + ": ",
                       tensor.status());
  }
  return tensor;
}

// The first byte of the tensor's memory: C or Fortran order, the element at index 0 sits there.
std::byte* TensorBytes(Tensor& tensor) { return static_cast<std::byte*>(tensor.view().data()); }

struct FileCloser {
  void operator()(FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};

// Reads exactly `bytes` bytes or says how many there were.
Status ReadExactly(FILE* file, std::byte* out, size_t bytes, const std::string& what) {
  const size_t got = std::fread(out, 1, bytes, file);
  if (got == bytes) return {};
  if (std::ferror(file)) {
    return InvalidArgument("read error in " + what + ": " + std::strerror(errno));
  }
  return InvalidArgument("the file ended while reading " + what + " (" + std::to_string(got) +
                         " of " + std::to_string(bytes) + " bytes; was it changed while loading?)");
}

// write(2) until everything is written.
bool WriteAll(int fd, const std::byte* data, size_t bytes) {
  while (bytes > 0) {
    const ssize_t written = ::write(fd, data, bytes);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    bytes -= static_cast<size_t>(written);
  }
  return true;
}

// Writes the view's elements in C order. Contiguous views go out in one piece; others are
// gathered element by element into a stack buffer.
bool WriteElements(int fd, const TensorView& tensor) {
  const size_t element_bytes = tensor.element_bytes();
  const size_t total = static_cast<size_t>(tensor.size()) * element_bytes;
  if (total == 0) return true;
  if (tensor.IsContiguous()) {
    return WriteAll(fd, static_cast<const std::byte*>(tensor.data()), total);
  }
  std::byte buffer[kGatherBytes];
  size_t filled = 0;
  bool ok = true;
  ForEachIndex(tensor.shape(), [&](const int64_t* index) {
    if (!ok) return;
    std::memcpy(buffer + filled, tensor.ElementAddress(index), element_bytes);
    filled += element_bytes;
    // Every element size divides kGatherBytes, so the buffer fills exactly.
    if (filled == kGatherBytes) {
      ok = WriteAll(fd, buffer, filled);
      filled = 0;
    }
  });
  return ok && WriteAll(fd, buffer, filled);
}

// A new file next to `path` that no one else has: path.tmp-<pid>-<n>, created exclusively.
// Permissions are 0666 less the umask, as for any new file.
Result<std::pair<int, std::string>> CreateTemporary(const std::string& path) {
  const std::string base = path + ".tmp-" + std::to_string(::getpid()) + "-";
  for (int attempt = 0;; ++attempt) {
    std::string name = base + std::to_string(attempt);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return std::pair{fd, std::move(name)};
    // Taken by another writer of the same path in this process (or left by a crash): next name.
    if (errno != EEXIST || attempt == 1000) {
      return InvalidArgument(SystemError("cannot create the temporary file", name));
    }
  }
}

}  // namespace

Result<Tensor> ParseNpy(MemoryAccountant& accountant, std::span<const std::byte> file,
                        MemoryCategory category) {
  Result<NpyHeader> header = ParseNpyHeader(file);
  if (!header.ok()) return header.status();
  if (Status s = CheckDataSize(*header, file.size()); !s.ok()) return s;
  Result<Tensor> tensor = CreateTensor(accountant, *header, category);
  if (!tensor.ok()) return tensor.status();
  if (header->data_bytes > 0) {
    std::memcpy(TensorBytes(*tensor), file.data() + header->data_offset, header->data_bytes);
  }
  return tensor;
}

Result<Tensor> LoadNpy(MemoryAccountant& accountant, const std::string& path,
                       MemoryCategory category) {
  const std::string context = FileContext(path);
  std::unique_ptr<FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) return InvalidArgument(context + "cannot open: " + std::strerror(errno));
  struct stat info;
  if (::fstat(::fileno(file.get()), &info) != 0) {
    return InvalidArgument(context + "cannot stat: " + std::strerror(errno));
  }
  if (!S_ISREG(info.st_mode)) return InvalidArgument(context + "not a regular file");
  const auto file_bytes = static_cast<size_t>(info.st_size);

  // The prefix, then the header it announces: at most 12 + kNpyMaxHeaderBytes bytes.
  std::vector<std::byte> head(std::min(file_bytes, kNpyMaxPrefixBytes));
  if (Status s = ReadExactly(file.get(), head.data(), head.size(), "the prefix"); !s.ok()) {
    return WithContext(context, s);
  }
  Result<size_t> data_offset = NpyDataOffset(head);
  if (!data_offset.ok()) return WithContext(context, data_offset.status());
  // A file shorter than that fails in ParseNpyHeader, which says so.
  const size_t header_end = std::min(file_bytes, data_offset.value());
  const size_t read_so_far = head.size();
  if (header_end > read_so_far) {
    head.resize(header_end);
    if (Status s = ReadExactly(file.get(), head.data() + read_so_far, header_end - read_so_far,
                               "the header");
        !s.ok()) {
      return WithContext(context, s);
    }
  }
  Result<NpyHeader> header = ParseNpyHeader(head);
  if (!header.ok()) return WithContext(context, header.status());
  if (Status s = CheckDataSize(*header, file_bytes); !s.ok()) return WithContext(context, s);

  Result<Tensor> tensor = CreateTensor(accountant, *header, category);
  if (!tensor.ok()) return WithContext(context, tensor.status());
  // The file position is at data_offset: exactly the prefix and header were read.
  if (Status s = ReadExactly(file.get(), TensorBytes(*tensor), header->data_bytes, "the data");
      !s.ok()) {
    return WithContext(context, s);
  }
  if (std::fgetc(file.get()) != EOF) {
    return InvalidArgument(context + "the file grew while loading (more bytes than the " +
                           std::to_string(file_bytes) + " it had when opened)");
  }
  return tensor;
}

Status SaveNpy(const TensorView& tensor, const std::string& path) {
  const std::string context = FileContext(path);
  const std::string header = NpyHeaderBytes(tensor.dtype(), tensor.shape());
  Result<std::pair<int, std::string>> temporary = CreateTemporary(path);
  if (!temporary.ok()) return WithContext(context, temporary.status());
  const auto [fd, temporary_path] = std::move(temporary).value();
  const bool written =
      WriteAll(fd, reinterpret_cast<const std::byte*>(header.data()), header.size()) &&
      WriteElements(fd, tensor);
  std::string problem;
  if (!written) problem = SystemError("cannot write the temporary file", temporary_path);
  if (::close(fd) != 0 && problem.empty()) {
    problem = SystemError("cannot close the temporary file", temporary_path);
  }
  // The data is complete in the temporary file before it takes the name: a reader of `path` sees
  // the old file or the new one, never a mixture (durability across a power cut would need an
  // fsync as well, which numpy's np.save does not do either).
  if (problem.empty() && std::rename(temporary_path.c_str(), path.c_str()) != 0) {
    problem = "cannot rename the temporary file '" + temporary_path + "' to '" + path +
              "': " + std::strerror(errno);
  }
  if (problem.empty()) return {};
  ::unlink(temporary_path.c_str());
  return InvalidArgument(context + problem);
}

}  // namespace swarm
