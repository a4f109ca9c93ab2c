// .npy files (numpy's binary array format, numpy/lib/format.py) <-> tensors.
//
// A .npy file is a 6-byte magic "\x93NUMPY", a version byte pair, a little-endian header length
// (2 bytes in version 1.0, 4 in 2.0 and 3.0), a header that is the text of a Python dict literal
// such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded with spaces to a
// '\n', and then the raw elements. swarm writes exactly what numpy 1.24's np.save writes (same
// bytes), and reads what any numpy writes for the twelve swarm dtypes:
//   '<f4' f32   '<f8' f64   '|i1' s8   '<i2' s16   '<i4' s32   '<i8' s64
//   '|u1' u8    '<u2' u16   '<u4' u32  '<u8' u64   '<c8' c64   '<c16' c128
// Big-endian data, structured dtypes, object arrays and other element types are refused with a
// clear error (numpy converts with a.astype('<f4') and the like).
//
// Untrusted input: the reader validates everything (magic, version, header length, a strict
// parser for the dict literal, shape, sizes) before allocating, never reads outside the bytes it
// was given, and gives a Status saying what was expected and what was found. tests/fuzz/ holds a
// libFuzzer harness that drives ParseNpy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"
#include "swarm/tensor/tensor.h"

namespace swarm {

// The prefix before the header: magic, version and header length take 10 bytes in version 1.0
// and 12 in versions 2.0 and 3.0.
inline constexpr size_t kNpyMaxPrefixBytes = 12;
// Headers longer than this are refused before they are read. numpy's own reader refuses more
// than 10000 characters by default; every header numpy writes for a swarm dtype is under 200.
inline constexpr size_t kNpyMaxHeaderBytes = size_t{1} << 20;

// What a .npy header says. data_offset is where the elements start (a multiple of 64 in files
// numpy or swarm wrote, but any offset is accepted).
struct NpyHeader {
  DType dtype = DType::kF32;
  std::vector<int64_t> shape;
  bool fortran_order = false;
  uint8_t major_version = 1;  // 1, 2 or 3 (the minor version is always 0)
  size_t data_offset = 0;
  // Bytes of element data the shape and dtype call for.
  size_t data_bytes = 0;
};

// Where the data of a .npy file starts (the prefix plus the header length it states), from its
// first min(file size, kNpyMaxPrefixBytes) bytes: for readers that fetch the header before the
// data. Validates the magic, the version and the header length limit, not the header itself.
Result<size_t> NpyDataOffset(std::span<const std::byte> first_bytes);

// Parses and validates the magic, version (1.0, 2.0 or 3.0) and header of `file`, which needs to
// hold at least the header (the data is not looked at). The shape has at most kMaxTensorRank
// axes and its byte size fits int64 (counting zero extents as one, as numpy does, so that its
// strides fit too).
Result<NpyHeader> ParseNpyHeader(std::span<const std::byte> file);

// Parses a whole .npy file held in memory into a new tensor accounted under `category`. The data
// must be exactly as long as the header says. A file with fortran_order True gives a tensor of
// MemoryOrder::kFortran (its view has Fortran strides; the bytes are not reordered). The budget of
// `accountant` is checked before anything is copied.
Result<Tensor> ParseNpy(MemoryAccountant& accountant, std::span<const std::byte> file,
                        MemoryCategory category = MemoryCategory::kTensors);

// Reads the .npy file at `path` into a new tensor as ParseNpy does. Only the header is read before
// the shape is checked against the file's size and the memory budget, so a file claiming a huge
// shape fails with a size or budget error rather than exhausting memory; the elements are then
// read straight into the tensor. Errors name the file.
Result<Tensor> LoadNpy(MemoryAccountant& accountant, const std::string& path,
                       MemoryCategory category = MemoryCategory::kTensors);

// Whether numpy has `dtype` (every dtype but bf16).
bool HasNpyDescr(DType dtype);
// The header bytes (magic through the '\n') numpy writes for `dtype` (HasNpyDescr) and `shape`
// (extents >= 0, as every TensorView has) in C order: version 1.0 unless the header needs more than
// 65535 bytes, padded so the data starts at a multiple of 64 bytes.
std::string NpyHeaderBytes(DType dtype, std::span<const int64_t> shape);

// Writes the elements of `tensor` (any strides: negative, zero, transposed) in C order as a .npy
// file at `path`, replacing any file there. The file is written under a temporary name in the same
// directory and renamed over `path` once complete, so an error never leaves a partial file at
// `path` (nor a temporary one). Non-contiguous views are gathered through a fixed buffer on the
// stack: nothing is allocated in proportion to the tensor. Errors name the path and the system's
// reason (errno text).
Status SaveNpy(const TensorView& tensor, const std::string& path);

}  // namespace swarm
