// Tests for swarm/tensor/npy.h on bad input: one case per kind of malformed, truncated or lying
// file, asserting the message (what was expected, what was found) and that nothing was allocated;
// the header grammar's accepted variants; memory budgets against huge claimed shapes; errors of
// LoadNpy and SaveNpy that come from the file system (named path, errno text, no partial file);
// and the replay of every input in tests/engine/npy_regressions/ (crafted files and whatever the
// fuzzer in tests/fuzz/ ever found).

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "swarm/tensor/npy.h"
#include "tests/support/file_size_limit.h"

namespace swarm {
namespace {

std::span<const std::byte> Bytes(const std::string& text) { return std::as_bytes(std::span(text)); }

// magic + version + header length field, little-endian.
std::string Prefix(int major_version, size_t header_bytes) {
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major_version);
  out += '\0';
  const int length_bytes = major_version == 1 ? 2 : 4;
  for (int i = 0; i < length_bytes; ++i) out += static_cast<char>(header_bytes >> (8 * i));
  return out;
}

// A file whose header is `dict` padded with spaces and '\n' to 64 bytes, then `data_bytes` bytes.
std::string File(const std::string& dict, size_t data_bytes = 0, int major_version = 1) {
  const size_t prefix_bytes = major_version == 1 ? 10 : 12;
  const size_t header_bytes = (prefix_bytes + dict.size() + 1 + 63) / 64 * 64 - prefix_bytes;
  std::string out = Prefix(major_version, header_bytes) + dict;
  out.append(header_bytes - dict.size() - 1, ' ');
  out += '\n';
  for (size_t i = 0; i < data_bytes; ++i) out += static_cast<char>(i * 7);
  return out;
}

std::string Dict(const std::string& descr, const std::string& order, const std::string& shape) {
  return "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shape + ", }";
}

// ParseNpy must fail, allocate nothing, and say `expected` (a substring of its message).
void ExpectError(const std::string& file, const std::string& expected,
                 ErrorCode code = ErrorCode::kInvalidArgument) {
  MemoryAccountant memory;
  Result<Tensor> tensor = ParseNpy(memory, Bytes(file));
  REQUIRE_FALSE(tensor.ok());
  INFO("message: " << tensor.status().message());
  CHECK(tensor.status().code() == code);
  CHECK(tensor.status().message().find(expected) != std::string::npos);
  CHECK(memory.Total().allocations == 0);
}

std::string TestPath(const std::string& name) {
  std::filesystem::create_directories("npy_bad_files");
  return "npy_bad_files/" + name;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Files in `directory` whose name starts with `stem` (left-over temporaries of SaveNpy).
size_t CountStartingWith(const std::string& directory, const std::string& stem) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().filename().string().rfind(stem, 0) == 0) ++count;
  }
  return count;
}

const std::string kGood = Dict("'<f4'", "False", "(2, 3)");

}  // namespace

TEST_CASE("npy prefix errors: empty, magic, version, header length") {
  ExpectError("", "the file is empty");
  ExpectError("PK\x03\x04 not numpy",
              "expected the magic string \"\\x93NUMPY\" at the start, "
              "found \"PK\\x03\\x04 n");
  ExpectError(std::string("\x93NUM", 4), "ends after 4 bytes, before the format version");
  ExpectError(Prefix(4, 54) + std::string(54, ' '), "unsupported .npy format version 4.0");
  ExpectError(std::string("\x93NUMPY\x01\x01\x36\x00", 10) + std::string(54, ' '),
              "version 1.1 (expected 1.0, 2.0 or 3.0)");
  ExpectError(Prefix(2, 52).substr(0, 10), "inside the 4-byte header length of a version 2.0");
  ExpectError(Prefix(1, 200) + kGood + "\n",
              "header length field says 200 bytes but only 60 follow the 10-byte prefix");
  ExpectError(Prefix(2, size_t{1} << 31), "more than the limit of 1048576");
}

TEST_CASE("npy header must end with a newline") {
  std::string file = File(kGood, 24);
  file[127] = ' ';
  ExpectError(file, "expected the 118-byte header to end with a newline, found \" \"");
  ExpectError(Prefix(1, 0), "found an empty header");
}

TEST_CASE("npy header dict errors name the offset and what was found") {
  ExpectError(File("[1, 2]"),
              "expected '{' opening the header dict at header offset 0, found "
              "\"[1, 2]");
  ExpectError(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'dtype': 1}", 24),
              "unknown key \"dtype\" (expected 'descr', 'fortran_order' and 'shape') at header "
              "offset 58");
  ExpectError(File("{'descr': '<f4', 'shape': (2,), 'fortran_order': False, 'shape': (2, 3)}", 24),
              "key 'shape' appears twice");
  ExpectError(File("{'descr': '<f4', 'shape': (2, 3)}", 24),
              "the dict lacks 'fortran_order' (a .npy header has the keys");
  ExpectError(File("{}"), "the dict lacks 'descr', 'fortran_order', 'shape'");
  ExpectError(File("{'descr': '<f4' 'fortran_order': False, 'shape': (2, 3)}", 24),
              "expected ',' or '}' after the value of 'descr' at header offset 16");
  ExpectError(File("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } x", 24),
              "expected only spaces and the final newline after the dict");
  ExpectError(File("{'descr"), "unterminated string");
  ExpectError(File("{'de\\scr': '<f4'}"), "without escapes");
  ExpectError(File("{descr: '<f4'}"), "expected a key string");
  ExpectError(File("{'descr' '<f4'}"), "expected ':' after key 'descr'");
  ExpectError(File("{'descr': '<f4', \xff}"), "found \"\\xff}");
  ExpectError(File("{,}"), "expected a key string");
}

TEST_CASE("npy descr errors: unsupported types, byte order") {
  ExpectError(File(Dict("'<f16'", "False", "(2, 3)"), 96),
              "unsupported 'descr' \"<f16\" (expected '<f4', '<f8', '|i1'");
  ExpectError(File(Dict("'<V2'", "False", "(2, 3)"), 12), "unsupported 'descr' \"<V2\"");
  ExpectError(File(Dict("'|O'", "False", "(2, 3)"), 48), "unsupported 'descr' \"|O\"");
  ExpectError(File(Dict("'<U4'", "False", "(2, 3)"), 96), "unsupported 'descr' \"<U4\"");
  ExpectError(File(Dict("'f4'", "False", "(2, 3)"), 24), "unsupported 'descr' \"f4\"");
  ExpectError(File(Dict("'>f4'", "False", "(2, 3)"), 24),
              "big-endian data \">f4\" is not supported (expected '<f4'; numpy converts with "
              "a.astype('<f4'))");
  ExpectError(File(Dict("'|i8'", "False", "(2, 3)"), 48),
              "'descr' \"|i8\" does not say little-endian (expected '<i8')");
  ExpectError(File(Dict("5", "False", "(2, 3)"), 24), "expected a dtype string as 'descr'");
  ExpectError(File(Dict("[('x', '<f4')]", "False", "(2, 3)"), 24),
              "structured dtypes (a list as 'descr') are not supported");
}

TEST_CASE("npy fortran_order must be True or False") {
  ExpectError(File(Dict("'<f4'", "true", "(2, 3)"), 24),
              "expected True or False as "
              "'fortran_order'");
  ExpectError(File(Dict("'<f4'", "1", "(2, 3)"), 24), "expected True or False");
  ExpectError(File(Dict("'<f4'", "Falsey", "(2, 3)"), 24), "expected True or False");
}

TEST_CASE("npy shape errors: not a tuple, negative, non-integer, overflow, rank") {
  ExpectError(File(Dict("'<f4'", "False", "[2, 3]"), 24), "expected a tuple such as (3, 4)");
  ExpectError(File(Dict("'<f4'", "False", "6"), 24), "expected a tuple");
  ExpectError(File(Dict("'<f4'", "False", "(6)"), 24),
              "'shape' is a parenthesised integer, not a tuple");
  ExpectError(File(Dict("'<f4'", "False", "(2, -3)"), 24),
              "axis 1 of 'shape' has a negative extent");
  ExpectError(File(Dict("'<f4'", "False", "(2.5, 3)"), 24),
              "expected ',' or ')' in 'shape' at header offset 52, found \".5, 3)");
  ExpectError(File(Dict("'<f4'", "False", "(x,)"), 24),
              "expected a non-negative integer extent for axis 0");
  ExpectError(File(Dict("'<f4'", "False", "(2, 03)"), 24), "extent of axis 1 has a leading zero");
  ExpectError(File(Dict("'<f4'", "False", "(99999999999999999999,)"), 24),
              "extent of axis 0 does not fit in a signed 64-bit integer");
  ExpectError(File(Dict("'<f4'", "False", "(4294967296, 4294967296)")),
              "shape [4294967296, 4294967296] of f32 needs more bytes than fit in 64 bits");
  ExpectError(File(Dict("'<f8'", "False", "(2305843009213693952,)")),
              "needs more bytes than fit in 64 bits");
  // numpy refuses this too: no element, but the strides would overflow.
  ExpectError(File(Dict("'<f4'", "False", "(0, 4611686018427387904, 4611686018427387904)")),
              "needs more bytes than fit in 64 bits");
  ExpectError(File(Dict("'<f4'", "False", "(1, 1, 1, 1, 1, 1, 1, 1, 1)"), 4),
              "'shape' has more than 8 axes");
  ExpectError(File(Dict("'<f4'", "False", "(2, 3L)"), 24, 3), "expected ',' or ')' in 'shape'");
}

TEST_CASE("npy data must be exactly as long as the shape says") {
  ExpectError(File(kGood, 20),
              "the data is truncated: f32[2][3] needs 24 bytes of data after the "
              "128-byte header, the file has 20");
  ExpectError(File(kGood, 29),
              "the file has 5 trailing bytes after the data (f32[2][3] needs 24 "
              "bytes");
  ExpectError(File(Dict("'<f4'", "False", "()"), 0), "needs 4 bytes");
}

TEST_CASE("npy header grammar accepts what Python's literal syntax allows numpy to write") {
  MemoryAccountant memory;
  const std::vector<std::pair<std::string, std::vector<int64_t>>> accepted = {
      {"{\"shape\": (2, 3), \"descr\": \"<f4\", \"fortran_order\": False}", {2, 3}},
      {"{\t'fortran_order' :False ,\n'shape':( 2 ,3 , ),'descr':'<f4'  }", {2, 3}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (6,)}", {6}},
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (3, 2), }", {3, 2}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", {2, 3}},  // Python 2
  };
  for (const auto& [dict, shape] : accepted) {
    INFO(dict);
    Result<Tensor> tensor = ParseNpy(memory, Bytes(File(dict, 24)));
    REQUIRE(tensor.ok());
    const TensorView view = tensor->view();
    CHECK(std::vector<int64_t>(view.shape().begin(), view.shape().end()) == shape);
  }
  // One-byte types may carry any byte order mark; the empty tuple is a scalar.
  for (const char* descr : {"'|u1'", "'>u1'", "'<u1'", "'=i1'"}) {
    INFO(descr);
    CHECK(ParseNpy(memory, Bytes(File(Dict(descr, "False", "( )"), 1))).ok());
  }
  // Data need not start at a multiple of 64.
  const std::string unaligned = Prefix(1, kGood.size() + 1) + kGood + "\n" + std::string(24, '\0');
  Result<NpyHeader> header = ParseNpyHeader(Bytes(unaligned));
  REQUIRE(header.ok());
  CHECK(header->data_offset == 70);
  CHECK(header->data_bytes == 24);
  CHECK(ParseNpy(memory, Bytes(unaligned)).ok());
}

TEST_CASE("a huge claimed shape fails on size or budget before any large allocation") {
  // 4 TiB of f32 claimed by a 64-byte file: the size check comes first, even without a budget.
  const std::string liar = File(Dict("'<f4'", "False", "(1099511627776,)"));
  ExpectError(liar, "the data is truncated: f32[1099511627776] needs 4398046511104 bytes");
  WriteFile(TestPath("liar.npy"), liar);
  MemoryAccountant unlimited;
  Result<Tensor> loaded = LoadNpy(unlimited, TestPath("liar.npy"));
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().message().find(".npy file 'npy_bad_files/liar.npy': the data is "
                                       "truncated") == 0);
  CHECK(unlimited.Total().allocations == 0);

  // Real data beyond the budget: kOverBudget, from ParseNpy and LoadNpy alike.
  const std::string big = File(Dict("'<f4'", "False", "(512, 1024)"), 2 << 20);
  MemoryAccountant small(1 << 20);
  Result<Tensor> parsed = ParseNpy(small, Bytes(big));
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == ErrorCode::kOverBudget);
  CHECK(parsed.status().message().find("cannot allocate f32[512][1024]: memory budget exceeded") ==
        0);
  WriteFile(TestPath("big.npy"), big);
  Result<Tensor> read = LoadNpy(small, TestPath("big.npy"));
  REQUIRE_FALSE(read.ok());
  CHECK(read.status().code() == ErrorCode::kOverBudget);
  CHECK(read.status().message().find(".npy file 'npy_bad_files/big.npy': cannot allocate") == 0);
  CHECK(small.Total().allocations == 0);
}

TEST_CASE("LoadNpy names the file in every error") {
  MemoryAccountant memory;
  Result<Tensor> missing = LoadNpy(memory, TestPath("missing.npy"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() ==
        ".npy file 'npy_bad_files/missing.npy': cannot open: No such file or directory");
  std::filesystem::create_directories(TestPath("a_directory.npy"));
  Result<Tensor> directory = LoadNpy(memory, TestPath("a_directory.npy"));
  REQUIRE_FALSE(directory.ok());
  CHECK(directory.status().message() ==
        ".npy file 'npy_bad_files/a_directory.npy': is a directory");
  for (const auto& [name, bytes, expected] :
       {std::tuple{"empty.npy", std::string(), "the file is empty"},
        std::tuple{"short.npy", std::string("\x93NUMPY\x01", 7), "before the format version"},
        std::tuple{"header.npy", Prefix(1, 100), "header length field says 100 bytes"},
        std::tuple{"shape.npy", File(Dict("'<f4'", "False", "(-1,)")), "negative extent"},
        std::tuple{"trailing.npy", File(kGood, 30), "6 trailing bytes"}}) {
    WriteFile(TestPath(name), bytes);
    Result<Tensor> loaded = LoadNpy(memory, TestPath(name));
    REQUIRE_FALSE(loaded.ok());
    INFO(loaded.status().message());
    CHECK(loaded.status().message().find(".npy file 'npy_bad_files/" + std::string(name) + "': ") ==
          0);
    CHECK(loaded.status().message().find(expected) != std::string::npos);
  }
  CHECK(memory.Total().allocations == 0);
}

TEST_CASE("SaveNpy reports file system errors and never leaves a partial file") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kF64, {1000, 100});
  REQUIRE(tensor.ok());

  SECTION("a directory that does not exist") {
    const Status status = SaveNpy(tensor->view(), TestPath("no_such_dir/out.npy"));
    REQUIRE_FALSE(status.ok());
    CHECK(status.message().find(".npy file 'npy_bad_files/no_such_dir/out.npy': cannot create the "
                                "temporary file 'npy_bad_files/no_such_dir/out.npy.tmp-") == 0);
    CHECK(status.message().find("': No such file or directory") != std::string::npos);
  }
  SECTION("a directory in the way of the rename") {
    std::filesystem::create_directories(TestPath("in_the_way.npy/child"));
    const Status status = SaveNpy(tensor->view(), TestPath("in_the_way.npy"));
    REQUIRE_FALSE(status.ok());
    CHECK(
        status.message() ==
        ".npy file 'npy_bad_files/in_the_way.npy': 'npy_bad_files/in_the_way.npy' is a directory");
    CHECK(std::filesystem::is_directory(TestPath("in_the_way.npy/child")));
    CHECK(CountStartingWith("npy_bad_files", "in_the_way.npy.tmp") == 0);
  }
  SECTION("a write that fails half-way keeps the old file") {
    const std::string path = TestPath("old.npy");
    WriteFile(path, "the previous contents");
    // A 64 KiB file size limit makes write(2) fail with EFBIG after the first 64 KiB of 800 KB.
    Status contiguous, gathered;
    {
      const ScopedFileSizeLimit limit(64 << 10);
      contiguous = SaveNpy(tensor->view(), path);
      gathered = SaveNpy(tensor->view().Transposed(), path);
    }
    for (const Status& status : {contiguous, gathered}) {
      REQUIRE_FALSE(status.ok());
      CHECK(status.message().find(".npy file 'npy_bad_files/old.npy': cannot write the temporary "
                                  "file 'npy_bad_files/old.npy.tmp-") == 0);
      CHECK(status.message().find("File too large") != std::string::npos);
    }
    CHECK(ReadFile(path) == "the previous contents");
    CHECK(CountStartingWith("npy_bad_files", "old.npy.tmp") == 0);
  }
}

TEST_CASE("every regression input parses to an error or a valid tensor") {
  size_t inputs = 0;
  size_t valid = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SWARM_NPY_REGRESSIONS_DIR)) {
    if (entry.path().extension() == ".md") continue;
    const std::string bytes = ReadFile(entry.path().string());
    INFO(entry.path().string());
    MemoryAccountant memory(64 << 20);
    Result<Tensor> tensor = ParseNpy(memory, Bytes(bytes));
    if (tensor.ok()) {
      Result<NpyHeader> header = ParseNpyHeader(Bytes(bytes));
      REQUIRE(header.ok());
      const TensorView view = tensor->view();
      CHECK(static_cast<size_t>(view.size()) * view.element_bytes() == header->data_bytes);
      CHECK(header->data_offset + header->data_bytes == bytes.size());
      ++valid;
    } else {
      CHECK_FALSE(tensor.status().message().empty());
      CHECK(memory.Total().live_allocations == 0);
    }
    ++inputs;
  }
  // The directory holds the crafted inputs at least; an empty or missing one is a broken setup.
  CHECK(inputs >= 30);
  CHECK(valid >= 1);
}

}  // namespace swarm
