// .npy headers (swarm/tensor/npy.h): the prefix (magic, version, header length) and the header, a
// Python dict literal, as numpy/lib/format.py of numpy 1.24 reads and writes them.
//
// numpy reads the dict with ast.literal_eval. swarm does not evaluate Python: a small
// recursive-descent parser accepts the subset any numpy version writes for the supported dtypes
// (string keys in either quote style, True/False, tuples of non-negative integers with an
// optional trailing comma, any whitespace, a trailing comma before '}') and rejects everything
// else with the position and what it expected there. Python 2 numpy wrote extents such as 3L;
// like numpy, the 'L' is accepted in version 1.0 and 2.0 headers.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

#include "swarm/core/checked_math.h"
#include "swarm/core/text.h"
#include "swarm/tensor/npy.h"

namespace swarm {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
// Data starts at a multiple of this many bytes (numpy's ARRAY_ALIGN).
constexpr size_t kDataAlign = 64;
// numpy leaves room after the dict so the growing axis can reach 21 digits in place
// (GROWTH_AXIS_MAX_DIGITS).
constexpr size_t kGrowthAxisDigits = 21;

struct DescrName {
  DType dtype;
  std::string_view type_code;  // numpy's kind letter and item size, without the byte order
};
constexpr DescrName kDescrs[] = {
    {DType::kF32, "f4"}, {DType::kF64, "f8"},  {DType::kS8, "i1"},  {DType::kS16, "i2"},
    {DType::kS32, "i4"}, {DType::kS64, "i8"},  {DType::kU8, "u1"},  {DType::kU16, "u2"},
    {DType::kU32, "u4"}, {DType::kU64, "u8"},  {DType::kC64, "c8"}, {DType::kC128, "c16"},
    {DType::kF16, "f2"}, {DType::kBool, "b1"},
};
constexpr std::string_view kSupportedDescrs =
    "'<f4', '<f8', '|i1', '<i2', '<i4', '<i8', '|u1', '<u2', '<u4', '<u8', '<c8', '<c16', '<f2' "
    "or '|b1'";

}  // namespace

bool HasNpyDescr(DType dtype) {
  for (const DescrName& entry : kDescrs) {
    if (entry.dtype == dtype) return true;
  }
  return false;
}

namespace {

// numpy's dtype.str: '|' for one-byte types, '<' otherwise.
std::string NpyDescr(DType dtype) {
  for (const DescrName& entry : kDescrs) {
    if (entry.dtype == dtype) {
      std::string descr(1, DTypeSize(dtype) == 1 ? '|' : '<');
      descr += entry.type_code;
      return descr;
    }
  }
  SWARM_ASSERT(false);
  return "";
}

// Up to `limit` bytes of untrusted header text, double-quoted and escaped (swarm/core/text.h).
std::string QuotedHeaderText(std::string_view text, size_t limit = 16) {
  return swarm::Quoted(text, '"', limit);
}

std::string_view AsText(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The fixed-size start of a file: magic, version, header length.
struct Prefix {
  uint8_t major_version = 0;
  size_t bytes = 0;         // 10 in version 1.0, 12 in 2.0 and 3.0
  size_t header_bytes = 0;  // the header length field
};

// Reads the prefix from the first bytes of a file (fewer than 12 is fine: the error says so).
Result<Prefix> ParsePrefix(std::span<const std::byte> file) {
  const std::string_view text = AsText(file);
  if (text.empty()) {
    return InvalidArgument("the file is empty (a .npy file starts with the magic string " +
                           QuotedHeaderText(kMagic) + ")");
  }
  const std::string_view start = text.substr(0, kMagic.size());
  if (start != kMagic.substr(0, start.size())) {
    return InvalidArgument("not a .npy file: expected the magic string " +
                           QuotedHeaderText(kMagic) + " at the start, found " +
                           QuotedHeaderText(text, kMagic.size()));
  }
  if (text.size() < kMagic.size() + 2) {
    return InvalidArgument("the file is truncated: it ends after " + std::to_string(text.size()) +
                           " bytes, before the format version");
  }
  Prefix prefix;
  prefix.major_version = static_cast<uint8_t>(text[6]);
  const auto minor_version = static_cast<uint8_t>(text[7]);
  if (prefix.major_version < 1 || prefix.major_version > 3 || minor_version != 0) {
    return InvalidArgument("unsupported .npy format version " +
                           std::to_string(prefix.major_version) + "." +
                           std::to_string(minor_version) + " (expected 1.0, 2.0 or 3.0)");
  }
  const size_t length_bytes = prefix.major_version == 1 ? 2 : 4;
  prefix.bytes = kMagic.size() + 2 + length_bytes;
  if (text.size() < prefix.bytes) {
    return InvalidArgument("the file is truncated: it ends after " + std::to_string(text.size()) +
                           " bytes, inside the " + std::to_string(length_bytes) +
                           "-byte header length of a version " +
                           std::to_string(prefix.major_version) + ".0 file");
  }
  for (size_t i = 0; i < length_bytes; ++i) {
    prefix.header_bytes |= static_cast<size_t>(static_cast<uint8_t>(text[8 + i])) << (8 * i);
  }
  if (prefix.header_bytes > kNpyMaxHeaderBytes) {
    return InvalidArgument("the header length field says " + std::to_string(prefix.header_bytes) +
                           " bytes, more than the limit of " + std::to_string(kNpyMaxHeaderBytes));
  }
  return prefix;
}

// Recursive descent over the header text (the bytes between the prefix and the data, '\n'
// included). Every error says where (offset within the header) and what was found.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, bool allow_long_suffix)
      : text_(text), allow_long_suffix_(allow_long_suffix) {}

  Status Parse(NpyHeader* header) {
    SkipSpace();
    if (Status s = Expect('{', "'{' opening the header dict"); !s.ok()) return s;
    bool have_descr = false;
    bool have_order = false;
    bool have_shape = false;
    while (true) {
      SkipSpace();
      if (Peek() == '}') break;
      const size_t key_at = position_;
      std::string key;
      if (Status s = ParseString("a key string ('descr', 'fortran_order' or 'shape')", &key);
          !s.ok()) {
        return s;
      }
      bool* seen = key == "descr"           ? &have_descr
                   : key == "fortran_order" ? &have_order
                   : key == "shape"         ? &have_shape
                                            : nullptr;
      if (seen == nullptr) {
        return Error(key_at, "unknown key " + QuotedHeaderText(key, 40) +
                                 " (expected 'descr', 'fortran_order' and 'shape')");
      }
      if (*seen) return Error(key_at, "key '" + key + "' appears twice");
      *seen = true;
      SkipSpace();
      if (Status s = Expect(':', "':' after key '" + key + "'"); !s.ok()) return s;
      SkipSpace();
      Status value;
      if (key == "descr") {
        value = ParseDescr(&header->dtype);
      } else if (key == "fortran_order") {
        value = ParseBool(&header->fortran_order);
      } else {
        value = ParseShape(&header->shape);
      }
      if (!value.ok()) return value;
      SkipSpace();
      if (Peek() == ',') {
        ++position_;
        continue;
      }
      if (Peek() != '}')
        return Error(position_, "expected ',' or '}' after the value of '" + key + "'");
    }
    ++position_;  // the '}'
    SkipSpace();
    if (position_ != text_.size()) {
      return Error(position_, "expected only spaces and the final newline after the dict");
    }
    if (!have_descr || !have_order || !have_shape) {
      std::string missing;
      for (auto [have, name] :
           {std::pair{have_descr, "'descr'"}, std::pair{have_order, "'fortran_order'"},
            std::pair{have_shape, "'shape'"}}) {
        if (have) continue;
        if (!missing.empty()) missing += ", ";
        missing += name;
      }
      return InvalidArgument("npy header: the dict lacks " + missing +
                             " (a .npy header has the keys 'descr', 'fortran_order' and 'shape')");
    }
    return {};
  }

 private:
  char Peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  bool AtEnd() const { return position_ >= text_.size(); }

  // Python's whitespace between tokens of a bracketed expression.
  void SkipSpace() {
    while (!AtEnd() && std::strchr(" \t\n\r\f\v", text_[position_]) != nullptr &&
           text_[position_] != '\0') {
      ++position_;
    }
  }

  Status Error(size_t at, const std::string& problem) const {
    const std::string found = at < text_.size() ? QuotedHeaderText(text_.substr(at))
                                                : std::string("the end of the header");
    return InvalidArgument("npy header: " + problem + " at header offset " + std::to_string(at) +
                           ", found " + found);
  }

  Status Expect(char c, const std::string& what) {
    if (Peek() != c || AtEnd()) return Error(position_, "expected " + what);
    ++position_;
    return {};
  }

  // A Python string literal without escapes or prefixes, in single or double quotes.
  Status ParseString(const std::string& what, std::string* out) {
    const size_t start = position_;
    const char quote = Peek();
    if (AtEnd() || (quote != '\'' && quote != '"')) return Error(start, "expected " + what);
    const size_t end = text_.find(quote, start + 1);
    if (end == std::string_view::npos) return Error(start, "unterminated string");
    const std::string_view body = text_.substr(start + 1, end - start - 1);
    for (char c : body) {
      if (c == '\\' || c == '\n' || c == '\r') {
        return Error(start, "expected a plain string without escapes or line breaks");
      }
    }
    *out = std::string(body);
    position_ = end + 1;
    return {};
  }

  Status ParseDescr(DType* dtype) {
    const size_t at = position_;
    if (Peek() == '[') {
      return Error(at, "structured dtypes (a list as 'descr') are not supported: expected " +
                           std::string(kSupportedDescrs));
    }
    std::string descr;
    if (Status s = ParseString("a dtype string as 'descr'", &descr); !s.ok()) return s;
    const std::string unsupported = "unsupported 'descr' " + QuotedHeaderText(descr, 40) +
                                    " (expected " + std::string(kSupportedDescrs) + ")";
    if (descr.size() < 2 || std::strchr("<>|=", descr[0]) == nullptr) {
      return Error(at, unsupported);
    }
    const std::string_view code = std::string_view(descr).substr(1);
    for (const DescrName& entry : kDescrs) {
      if (entry.type_code != code) continue;
      if (DTypeSize(entry.dtype) > 1 && descr[0] == '>') {
        return Error(at, "big-endian data " + QuotedHeaderText(descr) +
                             " is not supported (expected '<" + std::string(code) +
                             "'; numpy converts with a.astype('<" + std::string(code) + "'))");
      }
      if (DTypeSize(entry.dtype) > 1 && descr[0] != '<') {
        return Error(at, "'descr' " + QuotedHeaderText(descr) +
                             " does not say little-endian (expected '<" + std::string(code) + "')");
      }
      *dtype = entry.dtype;
      return {};
    }
    return Error(at, unsupported);
  }

  Status ParseBool(bool* out) {
    const size_t at = position_;
    size_t end = position_;
    while (end < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) {
      ++end;
    }
    const std::string_view word = text_.substr(at, end - at);
    if (word != "True" && word != "False") {
      return Error(at, "expected True or False as 'fortran_order'");
    }
    *out = word == "True";
    position_ = end;
    return {};
  }

  // A non-negative decimal integer as Python writes it (no sign, no leading zeros, no '_').
  Status ParseExtent(size_t axis, int64_t* out) {
    const size_t at = position_;
    if (Peek() == '-') {
      return Error(at, "axis " + std::to_string(axis) + " of 'shape' has a negative extent");
    }
    if (AtEnd() || !std::isdigit(static_cast<unsigned char>(Peek()))) {
      return Error(at, "expected a non-negative integer extent for axis " + std::to_string(axis));
    }
    if (Peek() == '0' && position_ + 1 < text_.size() &&
        std::isdigit(static_cast<unsigned char>(text_[position_ + 1]))) {
      return Error(at, "extent of axis " + std::to_string(axis) + " has a leading zero");
    }
    int64_t value = 0;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(Peek()))) {
      if (!MultiplyFits(value, int64_t{10}, &value) ||
          !AddFits(value, int64_t{Peek() - '0'}, &value)) {
        return Error(at, "extent of axis " + std::to_string(axis) +
                             " does not fit in a signed 64-bit integer");
      }
      ++position_;
    }
    if (allow_long_suffix_ && Peek() == 'L') ++position_;
    *out = value;
    return {};
  }

  // A tuple: (), (3,), (3, 4) or (3, 4,).
  Status ParseShape(std::vector<int64_t>* shape) {
    const size_t at = position_;
    if (Status s = Expect('(', "a tuple such as (3, 4) or (3,) as 'shape'"); !s.ok()) return s;
    shape->clear();
    bool trailing_comma = false;
    while (true) {
      SkipSpace();
      if (Peek() == ')') break;
      if (shape->size() == kMaxTensorRank) {
        return Error(position_, "'shape' has more than " + std::to_string(kMaxTensorRank) +
                                    " axes (the most a swarm tensor has)");
      }
      int64_t extent = 0;
      if (Status s = ParseExtent(shape->size(), &extent); !s.ok()) return s;
      shape->push_back(extent);
      SkipSpace();
      trailing_comma = Peek() == ',';
      if (trailing_comma) {
        ++position_;
        continue;
      }
      if (Peek() != ')') return Error(position_, "expected ',' or ')' in 'shape'");
    }
    if (shape->size() == 1 && !trailing_comma) {
      return Error(at,
                   "'shape' is a parenthesised integer, not a tuple (a 1-d shape is "
                   "written (n,))");
    }
    ++position_;  // the ')'
    return {};
  }

  std::string_view text_;
  bool allow_long_suffix_;
  size_t position_ = 0;
};

}  // namespace

Result<size_t> NpyDataOffset(std::span<const std::byte> first_bytes) {
  Result<Prefix> prefix = ParsePrefix(first_bytes);
  if (!prefix.ok()) return prefix.status();
  return prefix->bytes + prefix->header_bytes;
}

Result<NpyHeader> ParseNpyHeader(std::span<const std::byte> file) {
  Result<Prefix> prefix = ParsePrefix(file);
  if (!prefix.ok()) return prefix.status();
  const size_t header_end = prefix->bytes + prefix->header_bytes;
  if (file.size() < header_end) {
    return InvalidArgument("the file is truncated: the header length field says " +
                           std::to_string(prefix->header_bytes) + " bytes but only " +
                           std::to_string(file.size() - prefix->bytes) + " follow the " +
                           std::to_string(prefix->bytes) + "-byte prefix");
  }
  const std::string_view text = AsText(file.subspan(prefix->bytes, prefix->header_bytes));
  if (text.empty() || text.back() != '\n') {
    return InvalidArgument("npy header: expected the " + std::to_string(text.size()) +
                           "-byte header to end with a newline, found " +
                           (text.empty() ? std::string("an empty header")
                                         : QuotedHeaderText(text.substr(text.size() - 1))));
  }
  NpyHeader header;
  header.major_version = prefix->major_version;
  header.data_offset = header_end;
  HeaderParser parser(text, /*allow_long_suffix=*/prefix->major_version <= 2);
  if (Status s = parser.Parse(&header); !s.ok()) return s;
  // Like numpy, the size limit counts zero extents as one: the strides of (0, 2**62, 2**62)
  // would overflow although it holds no element.
  int64_t bytes = static_cast<int64_t>(DTypeSize(header.dtype));
  for (int64_t extent : header.shape) {
    if (!MultiplyFits(bytes, std::max<int64_t>(extent, 1), &bytes)) {
      return InvalidArgument("npy header: shape " + ShapeString(header.shape) + " of " +
                             DTypeName(header.dtype) + " needs more bytes than fit in 64 bits");
    }
  }
  const bool empty = std::find(header.shape.begin(), header.shape.end(), 0) != header.shape.end();
  header.data_bytes = empty ? 0 : static_cast<size_t>(bytes);
  return header;
}

std::string NpyHeaderBytes(DType dtype, std::span<const int64_t> shape) {
  std::string dict = "{'descr': '" + NpyDescr(dtype) + "', 'fortran_order': False, 'shape': (";
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (axis > 0) dict += ", ";
    dict += std::to_string(shape[axis]);
  }
  dict += shape.size() == 1 ? ",), }" : "), }";
  if (!shape.empty()) {
    dict.append(kGrowthAxisDigits - std::min(kGrowthAxisDigits, std::to_string(shape[0]).size()),
                ' ');
  }
  // numpy's _wrap_header: the dict, then 1..64 spaces and '\n' so the data is 64-byte aligned.
  // Version 1.0 stores the header length in 16 bits; 2.0 is for headers that need more.
  uint8_t major_version = 1;
  size_t length_bytes = 2;
  const auto padded_header_bytes = [&] {
    const size_t unpadded = dict.size() + 1;
    return unpadded + kDataAlign - (kMagic.size() + 2 + length_bytes + unpadded) % kDataAlign;
  };
  if (padded_header_bytes() > 0xFFFF) {
    major_version = 2;
    length_bytes = 4;
  }
  const size_t header_bytes = padded_header_bytes();
  std::string out(kMagic);
  out += static_cast<char>(major_version);
  out += '\0';
  for (size_t i = 0; i < length_bytes; ++i) out += static_cast<char>(header_bytes >> (8 * i));
  out += dict;
  out.append(header_bytes - dict.size() - 1, ' ');
  out += '\n';
  return out;
}

}  // namespace swarm
