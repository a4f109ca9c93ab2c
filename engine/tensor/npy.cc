// .npy files in memory and on disk (swarm/tensor/npy.h); npy_header.cc parses and writes the
// header.
//
// Element bytes are copied as they are: swarm runs on little-endian machines only (checked at
// compile time below), so '<' data needs no swapping.
#include "swarm/tensor/npy.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "swarm/core/input_file.h"
#include "swarm/core/output_file.h"
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
// Writes the view's elements in C order. Contiguous views go out in one piece; others are
// gathered element by element into a stack buffer.
Status WriteElements(OutputFile& file, const TensorView& tensor) {
  const size_t element_bytes = tensor.element_bytes();
  const size_t total = static_cast<size_t>(tensor.size()) * element_bytes;
  if (total == 0) return {};
  if (tensor.IsContiguous()) return file.Write(tensor.data(), total);
  std::byte buffer[kGatherBytes];
  size_t filled = 0;
  Status status;
  ForEachIndex(tensor.shape(), [&](const int64_t* index) {
    if (!status.ok()) return;
    std::memcpy(buffer + filled, tensor.ElementAddress(index), element_bytes);
    filled += element_bytes;
    // Every element size divides kGatherBytes, so the buffer fills exactly.
    if (filled == kGatherBytes) {
      status = file.Write(buffer, filled);
      filled = 0;
    }
  });
  if (!status.ok()) return status;
  return file.Write(buffer, filled);
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
  Result<InputFile> opened = OpenInputFile(path, ".npy file");
  if (!opened.ok()) return opened.status();
  if (!opened->regular) {
    return InvalidArgument(context + "not a regular file (a device, FIFO or socket)");
  }
  FILE* const file = opened->file.get();
  const size_t file_bytes = opened->size;

  // The prefix, then the header it announces: at most 12 + kNpyMaxHeaderBytes bytes.
  std::vector<std::byte> head(std::min(file_bytes, kNpyMaxPrefixBytes));
  if (Status s = ReadExactly(file, head.data(), head.size(), "the prefix"); !s.ok()) {
    return WithContext(context, s);
  }
  Result<size_t> data_offset = NpyDataOffset(head);
  if (!data_offset.ok()) return WithContext(context, data_offset.status());
  // A file shorter than that fails in ParseNpyHeader, which says so.
  const size_t header_end = std::min(file_bytes, data_offset.value());
  const size_t read_so_far = head.size();
  if (header_end > read_so_far) {
    head.resize(header_end);
    if (Status s =
            ReadExactly(file, head.data() + read_so_far, header_end - read_so_far, "the header");
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
  if (Status s = ReadExactly(file, TensorBytes(*tensor), header->data_bytes, "the data"); !s.ok()) {
    return WithContext(context, s);
  }
  if (std::fgetc(file) != EOF) {
    return InvalidArgument(context + "the file grew while loading (more bytes than the " +
                           std::to_string(file_bytes) + " it had when opened)");
  }
  return tensor;
}

Status SaveNpy(const TensorView& tensor, const std::string& path) {
  const std::string context = FileContext(path);
  if (!HasNpyDescr(tensor.dtype())) {
    return InvalidArgument(context + "numpy has no " + DTypeName(tensor.dtype()) + " dtype, so a " +
                           tensor.TypeString() + " cannot be saved as .npy (Copy it to f32 first)");
  }
  const std::string header = NpyHeaderBytes(tensor.dtype(), tensor.shape());
  Result<OutputFile> file = OutputFile::Create(path);
  if (!file.ok()) return WithContext(context, file.status());
  Status status = file->Write(header.data(), header.size());
  if (status.ok()) status = WriteElements(*file, tensor);
  if (status.ok()) status = file->Commit();
  if (!status.ok()) return WithContext(context, status);
  return {};
}

}  // namespace swarm
