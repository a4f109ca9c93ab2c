// libFuzzer harness for the .npy reader (swarm/tensor/npy.h): any bytes go to ParseNpy under a 16
// MiB budget. Besides the sanitizers (out-of-bounds reads, overflow, leaks), each input checks what
// the reader promises: ParseNpy succeeds exactly when ParseNpyHeader does and the data length
// matches, the tensor holds the file's data bytes, and rewriting a C-order result with
// NpyHeaderBytes parses back to the same tensor. Build and run: `make fuzz` (see the Makefile).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

#include "swarm/core/memory.h"
#include "swarm/tensor/npy.h"
#include "swarm/tensor/tensor.h"
#include "tests/fuzz/require.h"

namespace {

using swarm::fuzz::Require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace swarm;
  const std::span<const std::byte> file = std::as_bytes(std::span(data, size));
  MemoryAccountant memory(16 << 20);
  Result<NpyHeader> header = ParseNpyHeader(file);
  {
    Result<Tensor> tensor = ParseNpy(memory, file);
    if (!tensor.ok()) {
      Require(!tensor.status().message().empty());
    } else {
      Require(header.ok());
      Require(header->data_offset + header->data_bytes == size);
      const TensorView view = tensor->view();
      Require(view.dtype() == header->dtype);
      Require(view.rank() == header->shape.size());
      Require(static_cast<size_t>(view.size()) * view.element_bytes() == header->data_bytes);
      const auto* bytes = static_cast<const std::byte*>(view.data());
      Require(std::memcmp(bytes, data + header->data_offset, header->data_bytes) == 0);
      if (!header->fortran_order) {
        std::string rewritten = NpyHeaderBytes(view.dtype(), view.shape());
        rewritten.append(reinterpret_cast<const char*>(bytes), header->data_bytes);
        Result<Tensor> again = ParseNpy(memory, std::as_bytes(std::span(rewritten)));
        Require(again.ok());
        Require(std::memcmp(again->view().data(), bytes, header->data_bytes) == 0);
      }
    }
  }
  Require(memory.Total().live_allocations == 0);
  return 0;
}
