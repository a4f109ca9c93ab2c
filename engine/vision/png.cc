// PNG load and save through libpng (swarm/vision/png.h).
//
// libpng reports errors by longjmp to the last setjmp. The functions that call setjmp
// (ReadHeader, ReadPixels, WritePixels) and the callbacks libpng calls hold only plain C data
// (pointers, integers, char arrays): a longjmp over them skips no destructor. Every C++ object
// (images, scratch buffers, the RAII guards of the FILE and the png structs) lives in the callers,
// whose frames longjmp never crosses.
#include "swarm/vision/png.h"

#include <png.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "swarm/core/buffer.h"
#include "swarm/core/input_file.h"
#include "swarm/core/output_file.h"
#include "swarm/kernels/vision/vision_convert.h"

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
// The most libpng may allocate for one chunk's data. With the ancillary chunks skipped (see
// ReadHeader) only PLTE (768 bytes) and tRNS (256) are still read into memory.
constexpr png_alloc_size_t kChunkMallocMax = png_alloc_size_t{1} << 20;
// libpng's allocations carry their size in front, kAlignBytes so the block stays aligned.
constexpr size_t kLibpngHeaderBytes = kAlignBytes;

// Shared by libpng's callbacks through png_get_error_ptr, png_get_io_ptr and png_get_mem_ptr.
struct PngContext {
  FILE* input = nullptr;         // when loading
  OutputFile* output = nullptr;  // when saving
  MemoryAccountant* accountant = nullptr;
  size_t bytes_done = 0;  // read or written, including the signature
  ErrorCode code = ErrorCode::kInvalidArgument;
  char error[512] = {};
};

void SetError(PngContext* context, ErrorCode code, const std::string& message) {
  if (context->error[0] != '\0') return;  // the first error is the cause
  context->code = code;
  std::snprintf(context->error, sizeof(context->error), "%s", message.c_str());
}

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
  auto* context = static_cast<PngContext*>(png_get_error_ptr(png));
  if (context->error[0] == '\0')
    std::snprintf(context->error, sizeof(context->error), "%s", message);
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

// libpng's and zlib's working memory, accounted as kScratch: a refused request returns NULL,
// which libpng turns into png_error after this function has returned (the Result's destructor
// has run by then; no longjmp crosses a C++ object here).
png_voidp AllocateForLibpng(png_structp png, png_alloc_size_t bytes) {
  auto* context = static_cast<PngContext*>(png_get_mem_ptr(png));
  void* block = nullptr;
  {
    Result<void*> memory =
        context->accountant->Allocate(MemoryCategory::kScratch, bytes + kLibpngHeaderBytes);
    if (memory.ok()) {
      block = memory.value();
    } else {
      SetError(context, memory.status().code(),
               "libpng's working memory: " + memory.status().message());
    }
  }
  if (block == nullptr) return nullptr;
  std::memcpy(block, &bytes, sizeof(bytes));
  return static_cast<std::byte*>(block) + kLibpngHeaderBytes;
}

void FreeForLibpng(png_structp png, png_voidp memory) {
  if (memory == nullptr) return;
  auto* context = static_cast<PngContext*>(png_get_mem_ptr(png));
  std::byte* block = static_cast<std::byte*>(memory) - kLibpngHeaderBytes;
  png_alloc_size_t bytes = 0;
  std::memcpy(&bytes, block, sizeof(bytes));
  context->accountant->Free(MemoryCategory::kScratch, block, bytes + kLibpngHeaderBytes);
}

void ReadFromFile(png_structp png, png_bytep data, size_t length) {
  auto* context = static_cast<PngContext*>(png_get_io_ptr(png));
  const bool first_chunk_header = context->bytes_done == kSignatureBytes;
  const size_t got = std::fread(data, 1, length, context->input);
  context->bytes_done += got;
  // The PNG specification puts IHDR first; libpng would skip the chunks it ignores (see
  // ReadHeader) before it, so the check is made here, on libpng's first read of a chunk header.
  if (first_chunk_header && got == length && length >= 8 && std::memcmp(data + 4, "IHDR", 4) != 0) {
    std::snprintf(context->error, sizeof(context->error),
                  "the first chunk is '%c%c%c%c', not IHDR (the PNG specification puts IHDR first)",
                  std::isprint(data[4]) ? data[4] : '?', std::isprint(data[5]) ? data[5] : '?',
                  std::isprint(data[6]) ? data[6] : '?', std::isprint(data[7]) ? data[7] : '?');
    png_error(png, context->error);
  }
  if (got == length) return;
  if (std::ferror(context->input)) {
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
  bool failed = false;
  {  // the Status is destroyed before png_error longjmps out of this frame
    const Status written = context->output->Write(data, length);
    if (!written.ok()) {
      SetError(context, written.code(), written.message());
      failed = true;
    }
  }
  if (failed) png_error(png, context->error);
  context->bytes_done += length;
}

void FlushFile(png_structp) {}  // OutputFile::Commit flushes

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

// Accounted memory freed on scope exit (the decode buffer).
struct AccountedBlock {
  MemoryAccountant* accountant = nullptr;
  void* memory = nullptr;
  size_t bytes = 0;
  ~AccountedBlock() {
    if (memory != nullptr) accountant->Free(MemoryCategory::kScratch, memory, bytes);
  }
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
  // Every chunk but IHDR, PLTE, tRNS, IDAT and IEND is skipped unread (its CRC still checked):
  // swarm uses none of them, and text (tEXt, zTXt, iTXt), sPLT and iCCP chunks are how a small
  // file makes a decoder allocate or inflate gigabytes. What is left is bounded per chunk.
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
  png_set_chunk_malloc_max(png, kChunkMallocMax);
  png_set_chunk_cache_max(png, 16);
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
// to IEND (CRCs included). Interlaced images are decoded pass by pass; libpng writes only the
// rows (and in them only the pixels) each pass holds, so rows a truncated file never delivers are
// never touched.
bool ReadPixels(png_structp png, png_bytep pixels, size_t row_bytes, png_uint_32 height,
                int passes) {
  if (setjmp(png_jmpbuf(png))) return false;
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, pixels + y * row_bytes, nullptr);
  }
  png_read_end(png, nullptr);
  return true;
}

bool WritePixels(png_structp png, png_infop info, size_t width, size_t height, size_t channels,
                 const PngRowSource& rows, png_bytep row) {
  if (setjmp(png_jmpbuf(png))) return false;
  const int color_type = channels == 1   ? PNG_COLOR_TYPE_GRAY
                         : channels == 3 ? PNG_COLOR_TYPE_RGB
                                         : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (size_t y = 0; y < height; ++y) {
    rows(y, std::span<uint8_t>(row, width * channels));  // returns before libpng can longjmp
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

// A libpng failure: the callback's error (with its code) or libpng's own message.
Status LibpngError(const std::string& path, const std::string& what, const PngContext& context) {
  return FileError(path, what + context.error, context.code);
}

}  // namespace

size_t PngSaveBytes(size_t width, size_t channels) {
  // zlib's deflate state at libpng's defaults (window bits 15, memory level 8) is about 270 KiB
  // (zlib.h: (1 << (windowBits + 2)) + (1 << (memLevel + 9)) plus its state); libpng keeps up to
  // four rows (the row, the previous one and two filter trials) and swarm one interleaved row.
  // Each block carries the accountant's 64-byte rounding and libpng's header; 64 KiB of slack
  // covers the structs. Checked against the measured peak in png_test.cc.
  const size_t row = width * channels + 1;
  const size_t per_block = kAlignBytes + kLibpngHeaderBytes;
  return (size_t{320} << 10) + 5 * (row + per_block) + (size_t{64} << 10);
}

namespace {

// Decodes the PNG `file` reads; `path` names it in messages.
Result<PlanarImage> DecodePngStream(MemoryAccountant& accountant, FILE* file,
                                    const std::string& path, size_t max_pixels) {
  png_byte signature[kSignatureBytes];
  const size_t got = std::fread(signature, 1, kSignatureBytes, file);
  if (got == 0) {
    if (std::ferror(file))
      return FileError(path, std::string("cannot read: ") + std::strerror(errno));
    return FileError(path, "file is empty");
  }
  if (png_sig_cmp(signature, 0, got) != 0) {
    return FileError(path, "not a PNG file (no PNG signature at the start)");
  }
  if (got < kSignatureBytes) {
    return FileError(path, "file is truncated (" + std::to_string(got) + " bytes)");
  }

  PngContext context;
  context.input = file;
  context.accountant = &accountant;
  context.bytes_done = kSignatureBytes;
  ReadStructs structs;
  structs.png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &context, OnError, OnWarning,
                                         &context, AllocateForLibpng, FreeForLibpng);
  if (structs.png != nullptr) structs.info = png_create_info_struct(structs.png);
  if (structs.info == nullptr) {
    return LibpngError(path, "libpng could not allocate its state: ", context);
  }
  png_set_read_fn(structs.png, &context, ReadFromFile);

  Header header;
  if (!ReadHeader(structs.png, structs.info, &header)) {
    return LibpngError(path, "bad header: ", context);
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

  // The decode buffer's pages are committed as rows arrive; the planes are created (and
  // zero-filled) only once the whole image has decoded, so a header that lies about the size
  // costs address space, not memory.
  AccountedBlock pixels{&accountant, nullptr, header.row_bytes * height};
  Result<void*> decode_buffer =
      accountant.AllocateUntouched(MemoryCategory::kScratch, pixels.bytes);
  if (!decode_buffer.ok()) {
    return AllocationError(path, "decode buffer of " + size, decode_buffer.status());
  }
  pixels.memory = decode_buffer.value();
  png_bytep const pixel_bytes = static_cast<png_bytep>(pixels.memory);
  if (!ReadPixels(structs.png, pixel_bytes, header.row_bytes, header.height, header.passes)) {
    return LibpngError(path, "corrupt image data: ", context);
  }

  PlanarImage image;
  for (int c = 0; c < header.channels; ++c) {
    Result<ImageU8> plane = ImageU8::Create(accountant, width, height);
    if (!plane.ok()) return AllocationError(path, "image of " + size, plane.status());
    image.planes.push_back(std::move(plane).value());
  }
  const ConstInterleavedU8View interleaved{pixel_bytes, width, height,
                                           static_cast<size_t>(header.channels), header.row_bytes};
  const std::vector<ImageU8View> planes = image.views();
  Deinterleave(interleaved, planes);
  return image;
}

}  // namespace

Result<PlanarImage> LoadPng(MemoryAccountant& accountant, const std::string& path,
                            size_t max_pixels) {
  Result<InputFile> opened = OpenInputFile(path, "PNG file");
  if (!opened.ok()) return opened.status();
  return DecodePngStream(accountant, opened->file.get(), path, max_pixels);
}

Result<PlanarImage> DecodePng(MemoryAccountant& accountant, std::span<const std::byte> bytes,
                              const std::string& name, size_t max_pixels) {
  if (bytes.empty()) return FileError(name, "file is empty");
  // fmemopen reads the caller's bytes in place (it never writes in "rb" mode).
  UniqueFile stream(fmemopen(const_cast<std::byte*>(bytes.data()), bytes.size(), "rb"));
  if (stream == nullptr) {
    return FileError(name, std::string("cannot read from memory: ") + std::strerror(errno));
  }
  return DecodePngStream(accountant, stream.get(), name, max_pixels);
}

Status SavePngRows(MemoryAccountant& accountant, const std::string& path, size_t width,
                   size_t height, size_t channels, const PngRowSource& rows) {
  if (channels != 1 && channels != 3 && channels != 4) {
    return FileError(path, "cannot save " + std::to_string(channels) +
                               " channels (expected 1 gray, 3 RGB or 4 RGBA)");
  }
  if (width == 0 || height == 0 || width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX) {
    return FileError(path, "cannot save an image of " + std::to_string(width) + " x " +
                               std::to_string(height) + " pixels");
  }
  Result<ByteArray> row = ByteArray::Create(accountant, width * channels, MemoryCategory::kScratch);
  if (!row.ok()) return AllocationError(path, "row buffer", row.status());

  Result<OutputFile> file = OutputFile::Create(path);
  if (!file.ok()) return FileError(path, file.status().message());
  PngContext context;
  context.output = &file.value();
  context.accountant = &accountant;
  bool written = false;
  {
    WriteStructs structs;
    structs.png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &context, OnError, OnWarning,
                                            &context, AllocateForLibpng, FreeForLibpng);
    if (structs.png != nullptr) structs.info = png_create_info_struct(structs.png);
    if (structs.info != nullptr) {
      png_set_write_fn(structs.png, &context, WriteToFile, FlushFile);
      written =
          WritePixels(structs.png, structs.info, width, height, channels, rows, row->view().data);
    } else {
      SetError(&context, ErrorCode::kOutOfMemory, "libpng could not allocate its state");
    }
  }
  if (!written) return LibpngError(path, "", context);  // ~OutputFile removes the temporary file
  if (Status committed = file->Commit(); !committed.ok()) {
    return FileError(path, committed.message());
  }
  return {};
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
  return SavePngRows(
      accountant, path, width, height, channels, [&](size_t y, std::span<uint8_t> row) {
        ConstImageU8View row_planes[4];
        for (size_t c = 0; c < channels; ++c) row_planes[c] = planes[c].Rows(y, 1);
        const InterleavedU8View row_view{row.data(), width, 1, channels, width * channels};
        Interleave(std::span<const ConstImageU8View>(row_planes, channels), row_view);
      });
}

}  // namespace swarm
