// DLPack interop with numpy 1.24 (Debian python3-numpy) through an embedded Python interpreter:
// swarm imports the capsules numpy's __dlpack__ produces (every dtype, a reversed and stepped
// slice), and numpy's np.from_dlpack imports the tensors swarm exports. numpy is the reference:
// element bytes, data addresses and strides are compared with what numpy reports. Lifetimes
// follow the DLPack capsule protocol (a consumer renames the capsule "used_dltensor" and then owns
// the tensor); weak references and counters show each side's memory lives exactly as long as it
// must, and under ASan a use after free would abort.
//
// The interpreter starts isolated (no environment variables, no user site packages) and is never
// finalized (numpy's extension modules do not support it).
#include <Python.h>

#include <catch2/catch.hpp>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "swarm/core/buffer.h"
#include "swarm/core/memory.h"
#include "swarm/tensor/dlpack.h"
#include "swarm/tensor/tensor.h"
#include "swarm/tensor/tensor_adapters.h"

// LeakSanitizer's compiled-in suppressions (a hook it looks up; unused without sanitizers). Python
// keeps objects in pymalloc arenas it maps itself, which LeakSanitizer does not scan, so what they
// reference looks leaked. Exempted are allocations made inside libpython, numpy's extension
// modules and the OpenSSL that Python's hashlib loads (numpy.random imports it), never swarm's.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libpython3\nleak:/usr/lib/python3/dist-packages/numpy/\nleak:libcrypto.so\n";
}

namespace swarm {
namespace {

// The interpreter's __main__ namespace, started on first use with numpy imported.
PyObject* Globals() {
  static PyObject* globals = [] {
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    const PyStatus status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) Py_ExitStatusException(status);
    PyObject* main = PyImport_AddModule("__main__");  // borrowed
    return PyModule_GetDict(main);                    // borrowed, lives as long as Python
  }();
  return globals;
}

// Runs Python statements in the shared namespace; a Python exception fails the test with its
// traceback on stderr.
void Run(const std::string& code) {
  PyObject* result = PyRun_String(code.c_str(), Py_file_input, Globals(), Globals());
  if (result == nullptr) PyErr_Print();
  REQUIRE(result != nullptr);
  Py_DECREF(result);
}

// A global of the shared namespace (borrowed reference).
PyObject* Global(const char* name) {
  PyObject* value = PyDict_GetItemString(Globals(), name);
  REQUIRE(value != nullptr);
  return value;
}

int64_t GlobalInt(const char* name) { return PyLong_AsLongLong(Global(name)); }

bool GlobalTrue(const char* name) { return PyObject_IsTrue(Global(name)) == 1; }

std::vector<int64_t> GlobalInts(const char* name) {
  PyObject* tuple = Global(name);
  std::vector<int64_t> values;
  for (Py_ssize_t i = 0; i < PyTuple_Size(tuple); ++i) {
    values.push_back(PyLong_AsLongLong(PyTuple_GetItem(tuple, i)));
  }
  return values;
}

// The bytes of every element of `view` in C order (numpy's tobytes()).
std::string ElementBytes(const TensorView& view) {
  std::string bytes;
  std::vector<int64_t> index(view.rank(), 0);
  for (int64_t n = 0; n < view.size(); ++n) {
    const std::byte* element = view.ElementAddress(index.data());
    bytes.append(reinterpret_cast<const char*>(element), view.element_bytes());
    for (size_t axis = view.rank(); axis-- > 0;) {
      if (++index[axis] < view.shape(axis)) break;
      index[axis] = 0;
    }
  }
  return bytes;
}

std::string GlobalBytes(const char* name) {
  PyObject* bytes = Global(name);
  return {PyBytes_AsString(bytes), static_cast<size_t>(PyBytes_Size(bytes))};
}

// The producer side of the capsule protocol: while the capsule is still named "dltensor" nobody
// consumed the tensor, so the capsule's destruction must call the deleter.
void DestroyUnconsumedCapsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  managed->deleter(managed);
}

TEST_CASE("ImportDlpack reads numpy arrays of every dtype", "[dlpack][numpy]") {
  struct Case {
    const char* numpy_name;
    DType dtype;
  };
  const Case cases[] = {
      {"float32", DType::kF32}, {"float64", DType::kF64},   {"int8", DType::kS8},
      {"int16", DType::kS16},   {"int32", DType::kS32},     {"int64", DType::kS64},
      {"uint8", DType::kU8},    {"uint16", DType::kU16},    {"uint32", DType::kU32},
      {"uint64", DType::kU64},  {"complex64", DType::kC64}, {"complex128", DType::kC128},
  };
  Run("import gc, weakref\nimport numpy as np");
  for (const Case& c : cases) {
    INFO(c.numpy_name);
    // A reversed, stepped view of a larger array, so strides are negative and not compact.
    Run(std::string("base = (np.arange(2 * 5 * 7) * 3 - 40).astype(np.") + c.numpy_name +
        ").reshape(2, 5, 7)\n"
        "if base.dtype.kind == 'c': base = base + 1j * base[::-1]\n"
        "a = base[:, ::-1, 1::3]\n"
        "capsule = a.__dlpack__()\n"
        "expected = a.tobytes()\n"
        "address = a.__array_interface__['data'][0]\n"
        "shape = a.shape\n"
        "element_strides = tuple(s // a.itemsize for s in a.strides)\n"
        "watch = weakref.ref(a.base)  # the array owning the memory\n"
        "del base");
    PyObject* capsule = Global("capsule");
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    REQUIRE(managed != nullptr);
    Result<DlpackTensor> imported = ImportDlpack(managed, /*read_only=*/true);
    REQUIRE(imported.ok());
    REQUIRE(PyCapsule_SetName(capsule, "used_dltensor") == 0);  // swarm owns it now
    std::optional<DlpackTensor> owner(std::move(imported).value());
    const TensorView view = owner->view();
    CHECK(view.dtype() == c.dtype);
    CHECK(reinterpret_cast<intptr_t>(view.data()) == GlobalInt("address"));
    CHECK(std::vector<int64_t>(view.shape().begin(), view.shape().end()) == GlobalInts("shape"));
    CHECK(std::vector<int64_t>(view.strides().begin(), view.strides().end()) ==
          GlobalInts("element_strides"));
    CHECK(view.strides()[1] < 0);
    CHECK(ElementBytes(view) == GlobalBytes("expected"));

    // Python drops every reference; the imported tensor keeps numpy's memory alive.
    Run("del a, capsule\ngc.collect()\nalive = watch() is not None");
    CHECK(GlobalTrue("alive"));
    CHECK(ElementBytes(view) == GlobalBytes("expected"));
    owner.reset();
    Run("gc.collect()\nalive = watch() is not None");
    CHECK_FALSE(GlobalTrue("alive"));
  }
}

TEST_CASE("ImportDlpack leaves a rejected numpy capsule to numpy", "[dlpack][numpy]") {
  Run("import gc, weakref\nimport numpy as np\n"
      "a = np.zeros((1,) * 9, np.float32)\n"
      "capsule = a.__dlpack__()\n"
      "watch = weakref.ref(a)\n"
      "del a");
  PyObject* capsule = Global("capsule");
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  REQUIRE(managed != nullptr);
  Result<DlpackTensor> imported = ImportDlpack(managed);
  REQUIRE_FALSE(imported.ok());
  CHECK(imported.status().message() == "ImportDlpack: ndim 9 is outside [0, 8]");
  CHECK(PyCapsule_IsValid(capsule, "dltensor"));
  Run("alive_with_capsule = watch() is not None\n"
      "del capsule\ngc.collect()\n"
      "alive = watch() is not None");
  CHECK(GlobalTrue("alive_with_capsule"));
  CHECK_FALSE(GlobalTrue("alive"));  // numpy's capsule destructor ran its own deleter
}

// Hands `view` to numpy as the global `name` through np.from_dlpack; the export holds `owner`.
void ExportToNumpy(const TensorView& view, const char* name, std::shared_ptr<const void> owner) {
  Result<DLManagedTensor*> exported = ExportDlpack(view, std::move(owner));
  REQUIRE(exported.ok());
  PyObject* capsule = PyCapsule_New(exported.value(), "dltensor", DestroyUnconsumedCapsule);
  REQUIRE(capsule != nullptr);
  REQUIRE(PyDict_SetItemString(Globals(), "capsule", capsule) == 0);
  Py_DECREF(capsule);
  Run("import numpy as np\n"
      "class Producer:\n"
      "    def __init__(self, capsule): self.capsule = capsule\n"
      "    def __dlpack__(self, stream=None): return self.capsule\n"
      "    def __dlpack_device__(self): return (1, 0)\n" +
      std::string(name) + " = np.from_dlpack(Producer(capsule))\n" + "del capsule");
}

TEST_CASE("np.from_dlpack imports swarm's exports", "[dlpack][numpy]") {
  MemoryAccountant memory;
  // Each section's owner is shared with the export only; numpy's array keeps it alive.
  std::weak_ptr<const void> watch;
  SECTION("a reversed, stepped slice of an f64 tensor") {
    Result<Tensor> created = Tensor::Create(memory, DType::kF64, {6, 7});
    REQUIRE(created.ok());
    auto tensor = std::make_shared<Tensor>(std::move(created).value());
    for (int64_t row = 0; row < 6; ++row) {
      for (int64_t column = 0; column < 7; ++column) {
        REQUIRE(tensor->view().Set<double>({row, column}, 100.0 * row + column).ok());
      }
    }
    Result<TensorView> slice = tensor->view().Sliced(
        {{.start = 0, .step = -2, .start_omitted = true}, {.start = 6, .stop = 0, .step = -3}});
    REQUIRE(slice.ok());
    watch = tensor;
    ExportToNumpy(slice.value(), "b", std::move(tensor));
    Run("expected = (100.0 * np.arange(6)[:, None] + np.arange(7))[::-2, 6:0:-3]\n"
        "same = b.dtype == np.float64 and np.array_equal(b, expected)\n"
        "strides = b.strides\n"
        "read_only = not b.flags.writeable\n"
        "address = b.__array_interface__['data'][0]");
    CHECK(GlobalTrue("same"));
    CHECK(GlobalInts("strides") == std::vector<int64_t>{-14 * 8, -3 * 8});
    CHECK(GlobalTrue("read_only"));
    CHECK(reinterpret_cast<intptr_t>(slice->data()) == GlobalInt("address"));
  }
  SECTION("a Vec4Buffer, strides [1, padded count]") {
    Result<Vec4Buffer> created = Vec4Buffer::Create(memory, 13);
    REQUIRE(created.ok());
    auto buffer = std::make_shared<Vec4Buffer>(std::move(created).value());
    for (size_t i = 0; i < 13; ++i) {
      const float f = static_cast<float>(i);
      buffer->Set(i, {f, 100 + f, 200 + f, 300 + f});
    }
    const auto padded = static_cast<int64_t>(buffer->capacity());
    watch = buffer;
    const TensorView view = TensorOf(*buffer);
    ExportToNumpy(view, "b", std::move(buffer));
    Run("expected = (np.arange(13)[:, None] + 100 * np.arange(4)).astype(np.float32)\n"
        "same = b.dtype == np.float32 and np.array_equal(b, expected)\n"
        "strides = b.strides");
    CHECK(GlobalTrue("same"));
    CHECK(GlobalInts("strides") == std::vector<int64_t>{4, 4 * padded});
  }
  SECTION("a transposed c64 tensor") {
    Result<Tensor> created = Tensor::Create(memory, DType::kC64, {3, 4});
    REQUIRE(created.ok());
    auto tensor = std::make_shared<Tensor>(std::move(created).value());
    for (int64_t row = 0; row < 3; ++row) {
      for (int64_t column = 0; column < 4; ++column) {
        const std::complex<float> value(static_cast<float>(row), static_cast<float>(-column));
        REQUIRE(tensor->view().Set({row, column}, value).ok());
      }
    }
    watch = tensor;
    const TensorView transposed = tensor->view().Transposed();
    ExportToNumpy(transposed, "b", std::move(tensor));
    Run("expected = (np.arange(3)[:, None] - 1j * np.arange(4)).astype(np.complex64).T\n"
        "same = b.dtype == np.complex64 and np.array_equal(b, expected)\n"
        "strides = b.strides");
    CHECK(GlobalTrue("same"));
    CHECK(GlobalInts("strides") == std::vector<int64_t>{8, 32});
  }
  // swarm dropped its handles; numpy's array holds the export until it goes away.
  CHECK_FALSE(watch.expired());
  Run("del b\nimport gc\ngc.collect()");
  CHECK(watch.expired());
  CHECK(memory.Total().live_allocations == 0);
}

TEST_CASE("A capsule numpy never consumed releases swarm's export", "[dlpack][numpy]") {
  MemoryAccountant memory;
  Result<Tensor> tensor = Tensor::Create(memory, DType::kU8, {16});
  REQUIRE(tensor.ok());
  int releases = 0;
  static const int kToken = 0;
  std::shared_ptr<const void> handle(&kToken, [&releases](const void*) { ++releases; });
  Result<DLManagedTensor*> exported = ExportDlpack(tensor->view(), std::move(handle));
  REQUIRE(exported.ok());
  PyObject* capsule = PyCapsule_New(exported.value(), "dltensor", DestroyUnconsumedCapsule);
  REQUIRE(capsule != nullptr);
  CHECK(releases == 0);
  Py_DECREF(capsule);
  CHECK(releases == 1);
}

}  // namespace
}  // namespace swarm
