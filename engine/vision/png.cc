// PNG load and save through libpng (engine/vision/png.h).
//
// libpng reports errors by longjmp to the last setjmp. The functions that call setjmp
// (ReadHeader, ReadPixels, WritePixels) and the callbacks libpng calls hold only plain C data
// (pointers, integers, char arrays): a longjmp over them skips no destructor. Every C++ object
// (images, scratch buffers, the RAII guards of the FILE and the png structs) lives in the callers,
// whose frames longjmp never crosses.
#include "swarm/vision/png.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "swarm/core/buffer.h"
#include "swarm/kernels/vision_convert.h"

namespace swarm {

std::vector<ImageU8View> PlanarImage::views() {
  std::vector<ImageU8View> out;
  for (ImageU8& plane : planes) out.push_back(plane.view());
  return out;
}

std::vector<ConstImageU8View> PlanarImage::views() const {
  std::vector<ConstImageU8View> out;
  for (const ImageU8& plane : planes) out.push_back(plane.view());
  return out;
}

namespace {

constexpr size_t kSignatureBytes = 8;

// Shared by libpng's callbacks through png_get_error_ptr / png_get_io_ptr.
struct PngContext {
  FILE* file = nullptr;
  size_t bytes_done = 0;  // read or written, including the signature
  char error[256] = {};
};

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
  auto* context = static_cast<PngContext*>(png_get_error_ptr(png));
  if (context->error[0] == '\0')
    std::snprintf(context->error, sizeof(context->error), "%s", message);
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

void ReadFromFile(png_structp png, png_bytep data, size_t length) {
  auto* context = static_cast<PngContext*>(png_get_io_ptr(png));
  const size_t got = std::fread(data, 1, length, context->file);
  context->bytes_done += got;
  if (got == length) return;
  if (std::ferror(context->file)) {
    std::snprintf(context->error, sizeof(context->error), "read error after %zu bytes: %s",
                  context->bytes_done, std::strerror(errno));
  } else {
    std::snprintf(context->error, sizeof(context->error),
                  "file is truncated (ends after %zu bytes)", context->bytes_done);
  }
  png_error(png, context->error);
}

void WriteToFile(png_structp png, png_bytep data, size_t length) {
  auto* context = static_cast<PngContext*>(png_get_io_ptr(png));
  if (std::fwrite(data, 1, length, context->file) != length) {
    std::snprintf(context->error, sizeof(context->error), "write failed after %zu bytes: %s",
                  context->bytes_done, std::strerror(errno));
    png_error(png, context->error);
  }
  context->bytes_done += length;
}

void FlushFile(png_structp png) {
  std::fflush(static_cast<PngContext*>(png_get_io_ptr(png))->file);
}

struct FileCloser {
  void operator()(FILE* file) const {
    if (file != nullptr) std::fclose(file);
  }
};

struct ReadStructs {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~ReadStructs() { png_destroy_read_struct(&png, &info, nullptr); }
};

struct WriteStructs {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~WriteStructs() { png_destroy_write_struct(&png, &info); }
};

// The decoded layout after the transforms.
struct Header {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int channels = 0;
  int bit_depth = 0;
  size_t row_bytes = 0;
  int passes = 1;
};

// Reads the chunks up to the first IDAT and sets the transforms that give 8-bit gray, RGB or
// RGBA. Returns false with context->error set on a libpng error.
bool ReadHeader(png_structp png, png_infop info, Header* header) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_sig_bytes(png, static_cast<int>(kSignatureBytes));
  png_read_info(png, info);
  const int color_type = png_get_color_type(png, info);
  const int bit_depth = png_get_bit_depth(png, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  const bool transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (transparency) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY_ALPHA ||
      (color_type == PNG_COLOR_TYPE_GRAY && transparency)) {
    png_set_gray_to_rgb(png);
  }
  header->passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->channels = png_get_channels(png, info);
  header->bit_depth = png_get_bit_depth(png, info);
  header->row_bytes = png_get_rowbytes(png, info);
  return true;
}

// Decodes every row into `pixels` (height rows of row_bytes) and checks the rest of the file up
// to IEND (CRCs included).
bool ReadPixels(png_structp png, png_bytep pixels, size_t row_bytes, png_uint_32 height,
                int passes) {
  if (setjmp(png_jmpbuf(png))) return false;
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, pixels + y * row_bytes, nullptr);
  }
  png_read_end(png, nullptr);
  return true;
}

bool WritePixels(png_structp png, png_infop info, const ConstImageU8View* planes, size_t channels,
                 png_bytep row) {
  if (setjmp(png_jmpbuf(png))) return false;
  const int color_type = channels == 1   ? PNG_COLOR_TYPE_GRAY
                         : channels == 3 ? PNG_COLOR_TYPE_RGB
                                         : PNG_COLOR_TYPE_RGB_ALPHA;
  const size_t width = planes[0].width;
  const size_t height = planes[0].height;
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const InterleavedU8View row_view{row, width, 1, channels, width * channels};
  for (size_t y = 0; y < height; ++y) {
    ConstImageU8View row_planes[4];
    for (size_t c = 0; c < channels; ++c) row_planes[c] = planes[c].Rows(y, 1);
    Interleave(std::span<const ConstImageU8View>(row_planes, channels), row_view);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  return true;
}

Status FileError(const std::string& path, const std::string& problem,
                 ErrorCode code = ErrorCode::kInvalidArgument) {
  return {code, "PNG file '" + path + "': " + problem};
}

// An allocation error (over budget, out of memory) keeps its code and gains the file name.
Status AllocationError(const std::string& path, const std::string& what, const Status& status) {
  return FileError(path, what + ": " + status.message(), status.code());
}

}  // namespace

Result<PlanarImage> LoadPng(MemoryAccountant& accountant, const std::string& path,
                            size_t max_pixels) {
  std::unique_ptr<FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) return FileError(path, std::string("cannot open: ") + std::strerror(errno));
  png_byte signature[kSignatureBytes];
  const size_t got = std::fread(signature, 1, kSignatureBytes, file.get());
  if (got == 0) return FileError(path, "file is empty");
  if (png_sig_cmp(signature, 0, got) != 0) {
    return FileError(path, "not a PNG file (no PNG signature at the start)");
  }
  if (got < kSignatureBytes) {
    return FileError(path, "file is truncated (" + std::to_string(got) + " bytes)");
  }

  PngContext context;
  context.file = file.get();
  context.bytes_done = kSignatureBytes;
  ReadStructs structs;
  structs.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, OnError, OnWarning);
  if (structs.png != nullptr) structs.info = png_create_info_struct(structs.png);
  if (structs.info == nullptr) return FileError(path, "libpng could not allocate its state");
  png_set_read_fn(structs.png, &context, ReadFromFile);

  Header header;
  if (!ReadHeader(structs.png, structs.info, &header)) {
    return FileError(path, std::string("bad header: ") + context.error);
  }
  const size_t width = header.width;
  const size_t height = header.height;
  const std::string size = std::to_string(width) + " x " + std::to_string(height);
  // PNG limits each dimension to 2^31 - 1, so the product fits in 64 bits.
  if (width * height > max_pixels) {
    return FileError(path, "image of " + size + " pixels is too large (limit " +
                               std::to_string(max_pixels) + " pixels)");
  }
  if (header.bit_depth != 8 ||
      (header.channels != 1 && header.channels != 3 && header.channels != 4) ||
      header.row_bytes != width * static_cast<size_t>(header.channels)) {
    return FileError(path, "unsupported pixel format after conversion (" +
                               std::to_string(header.channels) + " channels of " +
                               std::to_string(header.bit_depth) + " bits)");
  }

  PlanarImage image;
  for (int c = 0; c < header.channels; ++c) {
    Result<ImageU8> plane = ImageU8::Create(accountant, width, height);
    if (!plane.ok()) return AllocationError(path, "image of " + size, plane.status());
    image.planes.push_back(std::move(plane).value());
  }
  Result<ByteArray> pixels =
      ByteArray::Create(accountant, header.row_bytes * height, MemoryCategory::kScratch);
  if (!pixels.ok()) return AllocationError(path, "decode buffer", pixels.status());

  if (!ReadPixels(structs.png, pixels->view().data, header.row_bytes, header.height,
                  header.passes)) {
    return FileError(path, std::string("corrupt image data: ") + context.error);
  }
  const ConstInterleavedU8View interleaved{pixels->view().data, width, height,
                                           static_cast<size_t>(header.channels), header.row_bytes};
  const std::vector<ImageU8View> planes = image.views();
  Deinterleave(interleaved, planes);
  return image;
}

Status SavePng(MemoryAccountant& accountant, const std::string& path,
               std::span<const ConstImageU8View> planes) {
  const size_t channels = planes.size();
  if (channels != 1 && channels != 3 && channels != 4) {
    return FileError(path, "cannot save " + std::to_string(channels) +
                               " planes (expected 1 gray, 3 RGB or 4 RGBA)");
  }
  const size_t width = planes[0].width;
  const size_t height = planes[0].height;
  for (size_t c = 0; c < channels; ++c) {
    if (planes[c].data == nullptr || planes[c].width != width || planes[c].height != height) {
      return FileError(path, "plane " + std::to_string(c) + " is " +
                                 std::to_string(planes[c].width) + " x " +
                                 std::to_string(planes[c].height) + ", plane 0 is " +
                                 std::to_string(width) + " x " + std::to_string(height));
    }
  }
  if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX) {
    return FileError(path, "cannot save an image of " + std::to_string(width) + " x " +
                               std::to_string(height) + " pixels");
  }
  Result<ByteArray> row = ByteArray::Create(accountant, width * channels, MemoryCategory::kScratch);
  if (!row.ok()) return AllocationError(path, "row buffer", row.status());

  std::unique_ptr<FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (file == nullptr) {
    return FileError(path, std::string("cannot create: ") + std::strerror(errno));
  }
  PngContext context;
  context.file = file.get();
  bool written = false;
  {
    WriteStructs structs;
    structs.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, OnError, OnWarning);
    if (structs.png != nullptr) structs.info = png_create_info_struct(structs.png);
    if (structs.info != nullptr) {
      png_set_write_fn(structs.png, &context, WriteToFile, FlushFile);
      written = WritePixels(structs.png, structs.info, planes.data(), channels, row->view().data);
    } else {
      std::snprintf(context.error, sizeof(context.error), "libpng could not allocate its state");
    }
  }
  const bool closed = std::fclose(file.release()) == 0;
  if (written && !closed) {
    std::snprintf(context.error, sizeof(context.error), "close failed: %s", std::strerror(errno));
  }
  if (!written || !closed) {
    std::remove(path.c_str());  // no half-written file left behind
    return FileError(path, context.error);
  }
  return {};
}

}  // namespace swarm
