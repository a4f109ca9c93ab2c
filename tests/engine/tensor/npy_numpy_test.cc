// Tests for swarm/tensor/npy.h against numpy itself (Debian's /usr/bin/python3 with numpy 1.24).
// numpy -> swarm: numpy writes every dtype, shapes of rank 0 to 4, C and Fortran order, format
// 1.0 and 2.0, with side files holding the elements in C order and in file order; LoadNpy must
// give the same dtype, shape, memory bytes and C-order values, Fortran strides for Fortran files,
// and SaveNpy of what it loaded must reproduce numpy's 1.0 C-order file byte for byte.
// swarm -> numpy: SaveNpy writes contiguous, transposed, reversed, rank-0, empty and
// Fortran-order tensors of every dtype with a side file of the expected C-order bytes; np.load
// (and np.load with mmap_mode, which needs the aligned data) must agree on dtype, shape and bytes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "swarm/tensor/npy.h"
#include "tests/engine/tensor/npy_test_values.h"
#include "tests/support/every_index.h"
#include "tests/support/python_process.h"

namespace swarm {
namespace {

// numpy's dtype.str of each swarm dtype, by DType value; bf16 has none (numpy has no bfloat16).
const char* const kDescrs[] = {"<f4", "<f8", "|i1", "<i2",  "<i4", "<i8",   "|u1", "<u2",
                               "<u4", "<u8", "<c8", "<c16", "<f2", nullptr, "|b1"};
static_assert(std::size(kDescrs) == kDTypeCount);
constexpr size_t kNumpyDTypes = kDTypeCount - 1;

std::string TestDirectory(const std::string& name) {
  const std::string directory = "npy_numpy_files/" + name;
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  return directory;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// Runs a python script with numpy; returns its exit status and keeps its output for INFO.
int RunPython(const std::string& script, const std::string& argument, std::string* output) {
  const std::string script_path = argument + "/script.py";
  WriteFile(script_path, script);
  test::PythonRun run = test::RunPython(script_path + " " + argument + " 2>&1");
  *output = std::move(run.output);
  return run.status;
}

using test::EveryIndex;

constexpr const char* kNumpyWrites = R"(
import sys
import numpy as np

out = sys.argv[1]
# By swarm dtype value; None: bf16, which numpy lacks.
descrs = ['<f4', '<f8', '|i1', '<i2', '<i4', '<i8', '|u1', '<u2', '<u4', '<u8', '<c8', '<c16',
          '<f2', None, '|b1']
shapes = [(), (0,), (5,), (3, 4), (2, 3, 4), (2, 0, 3), (3, 1, 2, 2)]
rng = np.random.default_rng(2024)

def values(dtype, n):
    if dtype.kind == 'b':
        return rng.integers(0, 2, size=n).astype(dtype)
    if dtype.kind in 'fc':
        real = rng.standard_normal(n)
        if n >= 4:
            real[:4] = [np.inf, -np.inf, np.nan, -0.0]
        if dtype.kind == 'c':
            return (real + 1j * rng.standard_normal(n)).astype(dtype)
        return real.astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)

with open(out + '/manifest.txt', 'w') as manifest:
    for d, descr in enumerate(descrs):
        if descr is None:
            continue
        for s, shape in enumerate(shapes):
            for order in 'CF':
                for major in (1, 2):
                    a = values(np.dtype(descr), int(np.prod(shape))).reshape(shape)
                    if order == 'F':
                        a = np.asfortranarray(a)
                    base = '%s/%d_%d_%s_%d' % (out, d, s, order, major)
                    with open(base + '.npy', 'wb') as f:
                        np.lib.format.write_array(f, a, version=(major, 0))
                    fortran = a.flags.f_contiguous and not a.flags.c_contiguous
                    with open(base + '.c', 'wb') as f:
                        f.write(a.tobytes(order='C'))
                    with open(base + '.mem', 'wb') as f:
                        f.write(a.tobytes(order='F' if fortran else 'C'))
                    # a.shape: np.asfortranarray makes a 0-d array 1-d.
                    manifest.write('%s %d %d %d %s\n' % (base, d, major, int(fortran),
                                                        ','.join(str(x) for x in a.shape)))
)";

constexpr const char* kNumpyChecks = R"(
import sys
import numpy as np

out = sys.argv[1]
lines = open(out + '/manifest.txt').read().split('\n')
checked = 0
failures = 0
for line in lines:
    if not line:
        continue
    path, descr, shape_text = line.split(' ')
    shape = tuple(int(x) for x in shape_text.split(',') if x)
    expected = open(path + '.raw', 'rb').read()
    for mmap_mode in (None, 'r'):
        a = np.load(path + '.npy', mmap_mode=mmap_mode, allow_pickle=False)
        problems = []
        if a.dtype.str != descr:
            problems.append('dtype %s, expected %s' % (a.dtype.str, descr))
        if a.shape != shape:
            problems.append('shape %s, expected %s' % (a.shape, shape))
        if a.tobytes(order='C') != expected:
            problems.append('values differ')
        if problems:
            failures += 1
            print(path, mmap_mode, '; '.join(problems))
    checked += 1
print('checked', checked, 'files,', failures, 'failures')
sys.exit(1 if failures or checked == 0 else 0)
)";

std::vector<int64_t> ParseShape(const std::string& text) {
  std::vector<int64_t> shape;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) shape.push_back(std::stoll(item));
  return shape;
}

using test::ValueAt;

std::string JoinShape(const std::vector<int64_t>& shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(shape[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("LoadNpy reads what numpy writes: every dtype, C and Fortran order, versions 1 and 2") {
  const std::string directory = TestDirectory("from_numpy");
  std::string output;
  REQUIRE(RunPython(kNumpyWrites, directory, &output) == 0);
  INFO(output);
  std::ifstream manifest(directory + "/manifest.txt");
  std::string base;
  size_t dtype_index;
  int major_version;
  int fortran;
  std::string shape_text;
  size_t cases = 0;
  size_t fortran_cases = 0;
  size_t byte_identical = 0;
  MemoryAccountant memory;
  while (manifest >> base >> dtype_index >> major_version >> fortran) {
    std::getline(manifest, shape_text);
    const std::vector<int64_t> shape = ParseShape(shape_text.substr(1));
    INFO(base);
    REQUIRE(dtype_index < kDTypeCount);
    const auto dtype = static_cast<DType>(dtype_index);
    Result<Tensor> tensor = LoadNpy(memory, base + ".npy");
    REQUIRE(tensor.ok());
    const TensorView view = tensor->view();
    CHECK(view.dtype() == dtype);
    REQUIRE(std::vector<int64_t>(view.shape().begin(), view.shape().end()) == shape);
    // Strides: C order, or Fortran (first axis fastest) as numpy's file says.
    int64_t running = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      const size_t axis = fortran ? k : shape.size() - 1 - k;
      if (shape[axis] > 1) CHECK(view.stride(axis) == running);
      running *= std::max<int64_t>(shape[axis], 1);
    }
    // Memory bytes in file order, then the values visited in C order through the strides.
    const std::string in_memory = ReadFile(base + ".mem");
    const size_t element_bytes = DTypeSize(dtype);
    REQUIRE(in_memory.size() == static_cast<size_t>(view.size()) * element_bytes);
    CHECK(std::memcmp(view.data(), in_memory.data(), in_memory.size()) == 0);
    const std::string c_order = ReadFile(base + ".c");
    size_t mismatches = 0;
    EveryIndex(shape, [&](const std::vector<int64_t>& index, int64_t n) {
      const void* element = view.ElementPointer(index).value();
      if (std::memcmp(element, c_order.data() + n * element_bytes, element_bytes) != 0) {
        ++mismatches;
      }
    });
    CHECK(mismatches == 0);
    // What swarm writes for a C-order array is what numpy's default (1.0) writer wrote.
    if (!fortran && major_version == 1) {
      REQUIRE(SaveNpy(view, base + ".swarm.npy").ok());
      CHECK(ReadFile(base + ".swarm.npy") == ReadFile(base + ".npy"));
      ++byte_identical;
    }
    fortran_cases += fortran;
    ++cases;
  }
  CHECK(cases == kNumpyDTypes * 7 * 2 * 2);
  // Fortran differs from C only for (3, 4), (2, 3, 4), (3, 1, 2, 2).
  CHECK(fortran_cases == kNumpyDTypes * 3 * 2);
  CHECK(byte_identical == kNumpyDTypes * (7 + 4));
}

TEST_CASE("numpy's np.load reads what SaveNpy writes") {
  const std::string directory = TestDirectory("to_numpy");
  MemoryAccountant memory;
  std::string manifest;
  for (size_t d = 0; d < kDTypeCount; ++d) {
    const auto dtype = static_cast<DType>(d);
    if (kDescrs[d] == nullptr) continue;
    VisitDType(dtype, [&](auto zero) {
      using T = decltype(zero);
      // Cases: name, the view to save, and the shape plus value formula numpy must see.
      Result<Tensor> base = Tensor::Create(memory, dtype, {2, 3, 4});
      REQUIRE(base.ok());
      T* data = static_cast<T*>(base->view().data());
      EveryIndex({2, 3, 4},
                 [&](const std::vector<int64_t>&, int64_t n) { data[n] = ValueAt<T>(n); });
      Result<Tensor> fortran =
          Tensor::Create(memory, dtype, {3, 5}, MemoryCategory::kTensors, MemoryOrder::kFortran);
      REQUIRE(fortran.ok());
      T* fortran_data = static_cast<T*>(fortran->view().data());
      for (int64_t m = 0; m < 15; ++m) fortran_data[m] = ValueAt<T>(m);
      Result<Tensor> scalar = Tensor::Create(memory, dtype, {});
      REQUIRE(scalar.ok());
      *static_cast<T*>(scalar->view().data()) = ValueAt<T>(41);
      Result<Tensor> empty = Tensor::Create(memory, dtype, {0, 3});
      REQUIRE(empty.ok());

      struct Case {
        const char* name;
        TensorView view;
        std::vector<int64_t> shape;
        std::function<int64_t(const std::vector<int64_t>&)> source;  // element number in memory
      };
      const TensorView all = base->view();
      const std::vector<Case> cases = {
          {"contiguous",
           all,
           {2, 3, 4},
           [](const std::vector<int64_t>& i) { return i[0] * 12 + i[1] * 4 + i[2]; }},
          {"transposed",
           all.Transposed(),
           {4, 3, 2},
           [](const std::vector<int64_t>& i) { return i[2] * 12 + i[1] * 4 + i[0]; }},
          {"reversed",
           all.Sliced({{}, {0, kSliceEnd, -1, true}, {1, 4, 2}}).value(),
           {2, 3, 2},
           [](const std::vector<int64_t>& i) { return i[0] * 12 + (2 - i[1]) * 4 + 1 + 2 * i[2]; }},
          {"fortran",
           fortran->view(),
           {3, 5},
           [](const std::vector<int64_t>& i) { return i[1] * 3 + i[0]; }},
          {"scalar", scalar->view(), {}, [](const std::vector<int64_t>&) { return int64_t{41}; }},
          {"empty", empty->view(), {0, 3}, [](const std::vector<int64_t>&) { return int64_t{0}; }},
      };
      for (const Case& c : cases) {
        const std::string path = directory + "/" + DTypeName(dtype) + "_" + c.name;
        REQUIRE(SaveNpy(c.view, path + ".npy").ok());
        std::string raw;
        EveryIndex(c.shape, [&](const std::vector<int64_t>& index, int64_t) {
          const T value = ValueAt<T>(c.source(index));
          raw.append(reinterpret_cast<const char*>(&value), sizeof(T));
        });
        WriteFile(path + ".raw", raw);
        manifest += path + " " + kDescrs[d] + " " + JoinShape(c.shape) + "\n";
      }
    });
  }
  WriteFile(directory + "/manifest.txt", manifest);
  std::string output;
  const int status = RunPython(kNumpyChecks, directory, &output);
  INFO(output);
  CHECK(status == 0);
  CHECK(output.find("checked " + std::to_string(kNumpyDTypes * 6) + " files, 0 failures") !=
        std::string::npos);
}

}  // namespace swarm
