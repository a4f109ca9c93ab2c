#include "swarm/tensor/tensor_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

namespace swarm {
namespace {

// Shortest text that reads back to the same value, with ".0" on integral values so that floats
// never look like integers, and Nx's spellings of the special values.
template <typename Float>
void AppendFloat(std::string& out, Float value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-Inf" : "Inf";
    return;
  }
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof(text), value);
  const std::string_view written(text, static_cast<size_t>(end - text));
  out += written;
  if (written.find_first_of(".e") == std::string_view::npos) out += ".0";
}

template <typename T>
void AppendValue(std::string& out, const std::byte* element) {
  T value;
  std::memcpy(&value, element, sizeof(T));
  if constexpr (std::is_same_v<T, Bool>) {
    out += value.byte != 0 ? "true" : "false";
  } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    // The shortest text of the f32 value, which reads back to the same f16 or bf16.
    AppendFloat(out, ToFloat(value));
  } else if constexpr (std::is_floating_point_v<T>) {
    AppendFloat(out, value);
  } else if constexpr (std::is_integral_v<T>) {
    out += std::to_string(value);
  } else {  // complex, as Nx writes it: 1.0+2.0i
    AppendFloat(out, value.real());
    if (!(value.imag() < 0) && !std::isnan(value.imag())) out += '+';
    AppendFloat(out, value.imag());
    out += 'i';
  }
}

class Printer {
 public:
  Printer(const TensorView& view, const TensorFormatOptions& options, std::string& out)
      : view_(view), out_(out) {
    elide_ = static_cast<uint64_t>(view.size()) > options.limit;
    // No axis has more than 2^62 entries, so larger values change nothing and cannot overflow.
    edge_ = static_cast<int64_t>(std::min<size_t>(options.edge_items, size_t{1} << 62));
    append_ = VisitDType(view.dtype(), [](auto value) { return &AppendValue<decltype(value)>; });
  }

  void Print(size_t axis, std::string& indent) {
    if (axis == view_.rank()) {
      append_(out_, view_.ElementAddress(index_.data()));
      return;
    }
    const bool innermost = axis + 1 == view_.rank();
    const int64_t extent = view_.shape(axis);
    out_ += '[';
    if (!innermost) out_ += '\n';
    indent += "  ";
    const bool skip_middle = elide_ && extent > 2 * edge_;
    for (int64_t i = 0; i < extent; ++i) {
      if (skip_middle && i == edge_) {
        Separator(innermost, indent, i);
        out_ += "...";
        i = extent - edge_ - 1;
        continue;
      }
      Separator(innermost, indent, i);
      index_[axis] = i;
      Print(axis + 1, indent);
    }
    indent.resize(indent.size() - 2);
    if (!innermost) {
      out_ += '\n';
      out_ += indent;
    }
    out_ += ']';
  }

 private:
  void Separator(bool innermost, const std::string& indent, int64_t position) {
    if (position > 0) out_ += innermost ? ", " : ",\n";
    if (!innermost) out_ += indent;
  }

  const TensorView& view_;
  std::string& out_;
  bool elide_ = false;
  int64_t edge_ = 3;
  void (*append_)(std::string&, const std::byte*) = nullptr;
  std::array<int64_t, kMaxTensorRank> index_{};
};

}  // namespace

std::string FormatTensor(const TensorView& view, const TensorFormatOptions& options) {
  std::string out = view.TypeString();
  out += '\n';
  if (view.empty()) {
    out += "[]";
    return out;
  }
  std::string indent;
  Printer(view, options, out).Print(0, indent);
  return out;
}

}  // namespace swarm
