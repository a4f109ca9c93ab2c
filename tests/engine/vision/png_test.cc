// Tests for swarm/vision/png.h: bit-exact round trips of gray, RGB and RGBA; libpng's other
// formats (16-bit, palette, gray + alpha, interlaced) converted on load; and a clear error, never a
// crash, for empty, non-PNG, truncated, corrupt and oversized files. Test files go to
// png_test_files/ in the working directory (the build tree, where ctest runs the test).
#include "swarm/vision/png.h"

#include <png.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace swarm {
namespace {

std::string TestPath(const std::string& name) {
  std::filesystem::create_directories("png_test_files");
  return "png_test_files/" + name;
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

PlanarImage RandomImage(MemoryAccountant& memory, size_t channels, size_t width, size_t height,
                        uint32_t seed) {
  std::mt19937 rng(seed);
  PlanarImage image;
  for (size_t c = 0; c < channels; ++c) {
    Result<ImageU8> plane = ImageU8::Create(memory, width, height);
    REQUIRE(plane.ok());
    for (size_t y = 0; y < height; ++y) {
      for (size_t x = 0; x < width; ++x) plane->Set(x, y, static_cast<uint8_t>(rng()));
    }
    image.planes.push_back(std::move(plane).value());
  }
  return image;
}

// A random image saved with SavePng as TestPath(name), and the file's bytes.
struct SavedImage {
  PlanarImage image;
  std::string path;
  std::vector<uint8_t> bytes;
};
SavedImage SaveRandomImage(MemoryAccountant& memory, size_t channels, size_t width, size_t height,
                           uint32_t seed, const std::string& name) {
  SavedImage saved{RandomImage(memory, channels, width, height, seed), TestPath(name), {}};
  REQUIRE(SavePng(memory, saved.path, std::as_const(saved.image).views()).ok());
  saved.bytes = ReadBytes(saved.path);
  return saved;
}

bool SamePixels(const PlanarImage& a, const PlanarImage& b) {
  if (a.channels() != b.channels() || a.width() != b.width() || a.height() != b.height()) {
    return false;
  }
  for (size_t c = 0; c < a.channels(); ++c) {
    for (size_t y = 0; y < a.height(); ++y) {
      for (size_t x = 0; x < a.width(); ++x) {
        if (a.planes[c].Get(x, y) != b.planes[c].Get(x, y)) return false;
      }
    }
  }
  return true;
}

uint32_t Crc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

void PutU32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

void PutChunk(std::vector<uint8_t>& out, const char* type, const std::vector<uint8_t>& data) {
  PutU32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  PutU32(out, Crc32(out.data() + start, out.size() - start));
}

// Offset of the first chunk of `type` (its length field), or 0.
size_t FindChunk(const std::vector<uint8_t>& png, const char* type) {
  for (size_t at = 8; at + 8 <= png.size();) {
    const uint32_t length = (uint32_t{png[at]} << 24) | (uint32_t{png[at + 1]} << 16) |
                            (uint32_t{png[at + 2]} << 8) | png[at + 3];
    if (std::equal(type, type + 4, png.begin() + static_cast<std::ptrdiff_t>(at + 4))) return at;
    at += 12 + length;
  }
  return 0;
}

// Writes a PNG with libpng directly, for formats SavePng never produces.
void WriteRawPng(const std::string& path, int width, int height, int bit_depth, int color_type,
                 int interlace, const std::vector<uint8_t>& pixels,
                 const std::vector<png_color>& palette = {}) {
  FILE* file = std::fopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_init_io(png, file);
  png_set_IHDR(png, info, width, height, bit_depth, color_type, interlace,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (!palette.empty()) {
    png_set_PLTE(png, info, palette.data(), static_cast<int>(palette.size()));
  }
  png_write_info(png, info);
  png_set_swap(png);  // 16-bit samples are given little-endian
  const size_t row_bytes = pixels.size() / static_cast<size_t>(height);
  std::vector<png_bytep> rows;
  for (int y = 0; y < height; ++y) {
    rows.push_back(const_cast<png_bytep>(pixels.data()) + static_cast<size_t>(y) * row_bytes);
  }
  png_write_image(png, rows.data());
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  std::fclose(file);
}

// A loaded image must fail with a message naming the file and containing `problem`.
void CheckLoadFails(const std::string& path, const std::string& problem,
                    size_t max_pixels = kPngMaxPixels) {
  MemoryAccountant memory;
  Result<PlanarImage> loaded = LoadPng(memory, path, max_pixels);
  INFO("file " << path);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(loaded.status().message(), Catch::Contains("PNG file '" + path + "'"));
  CHECK_THAT(loaded.status().message(), Catch::Contains(problem));
  CHECK(memory.Total().bytes_in_use == 0);
}

TEST_CASE("PNG round trip of gray, RGB and RGBA is bit-exact", "[png]") {
  MemoryAccountant memory;
  for (size_t channels : {1, 3, 4}) {
    for (auto [width, height] : {std::pair<size_t, size_t>{1, 1}, {17, 5}, {640, 480}}) {
      INFO(channels << " channels, " << width << " x " << height);
      const PlanarImage image = RandomImage(memory, channels, width, height, 7);
      const std::string path = TestPath("round_trip_" + std::to_string(channels) + ".png");
      REQUIRE(SavePng(memory, path, image.views()).ok());
      Result<PlanarImage> loaded = LoadPng(memory, path);
      REQUIRE(loaded.ok());
      CHECK(SamePixels(image, loaded.value()));
      CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use == 0);
    }
  }
}

TEST_CASE("PNG load converts 16-bit, palette, gray + alpha and interlaced files", "[png]") {
  MemoryAccountant memory;
  const std::string path = TestPath("converted.png");
  // 16-bit gray: png_set_scale_16 rounds v * 255 / 65535.
  WriteRawPng(path, 3, 1, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
              {0x00, 0x00, 0x80, 0x80, 0xFF, 0xFF});
  Result<PlanarImage> gray16 = LoadPng(memory, path);
  REQUIRE(gray16.ok());
  REQUIRE(gray16->channels() == 1);
  CHECK(gray16->planes[0].Get(0, 0) == 0);
  CHECK(gray16->planes[0].Get(1, 0) == 0x80);
  CHECK(gray16->planes[0].Get(2, 0) == 0xFF);

  WriteRawPng(path, 2, 1, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, {1, 0},
              {{10, 20, 30}, {40, 50, 60}});
  Result<PlanarImage> palette = LoadPng(memory, path);
  REQUIRE(palette.ok());
  REQUIRE(palette->channels() == 3);
  CHECK(palette->planes[0].Get(0, 0) == 40);
  CHECK(palette->planes[2].Get(1, 0) == 30);

  WriteRawPng(path, 1, 1, 8, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_INTERLACE_NONE, {77, 200});
  Result<PlanarImage> gray_alpha = LoadPng(memory, path);
  REQUIRE(gray_alpha.ok());
  REQUIRE(gray_alpha->channels() == 4);
  CHECK(gray_alpha->planes[1].Get(0, 0) == 77);
  CHECK(gray_alpha->planes[3].Get(0, 0) == 200);

  std::vector<uint8_t> pixels(3 * 13 * 11);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 7);
  WriteRawPng(path, 13, 11, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7, pixels);
  Result<PlanarImage> interlaced = LoadPng(memory, path);
  REQUIRE(interlaced.ok());
  CHECK(interlaced->planes[1].Get(12, 10) == pixels[3 * (10 * 13 + 12) + 1]);
}

TEST_CASE("PNG load rejects missing, empty and non-PNG files", "[png]") {
  CheckLoadFails(TestPath("does_not_exist.png"), "cannot open");
  const std::string empty = TestPath("empty.png");
  WriteBytes(empty, {});
  CheckLoadFails(empty, "file is empty");
  const std::string text = TestPath("text.png");
  WriteBytes(text, {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r', 'l', 'd'});
  CheckLoadFails(text, "not a PNG file");
}

TEST_CASE("PNG load rejects truncated files at every stage", "[png]") {
  MemoryAccountant memory;
  const std::vector<uint8_t> bytes = SaveRandomImage(memory, 3, 64, 48, 3, "good.png").bytes;
  REQUIRE(bytes.size() > 100);
  const std::string path = TestPath("truncated.png");
  for (size_t length : {size_t{4}, size_t{8}, size_t{20}, size_t{33}, size_t{45}, bytes.size() / 2,
                        bytes.size() - 12, bytes.size() - 1}) {
    INFO("truncated to " << length << " of " << bytes.size() << " bytes");
    WriteBytes(path, std::vector<uint8_t>(bytes.begin(),
                                          bytes.begin() + static_cast<std::ptrdiff_t>(length)));
    CheckLoadFails(path, "truncated");
  }
}

TEST_CASE("PNG load rejects corrupt chunks", "[png]") {
  MemoryAccountant memory;
  const std::vector<uint8_t> bytes = SaveRandomImage(memory, 4, 64, 48, 5, "good_rgba.png").bytes;
  const size_t idat = FindChunk(bytes, "IDAT");
  REQUIRE(idat != 0);
  const std::string path = TestPath("corrupt.png");

  std::vector<uint8_t> bad_crc = bytes;
  bad_crc[idat + 8 + 20] ^= 0x55;  // data changed, CRC not updated
  WriteBytes(path, bad_crc);
  CheckLoadFails(path, "CRC");

  std::vector<uint8_t> bad_stream = bytes;  // zlib header destroyed, CRC recomputed
  const uint32_t length = (uint32_t{bytes[idat]} << 24) | (uint32_t{bytes[idat + 1]} << 16) |
                          (uint32_t{bytes[idat + 2]} << 8) | bytes[idat + 3];
  bad_stream[idat + 8] = 0xFF;
  bad_stream[idat + 9] = 0xFF;
  const uint32_t crc = Crc32(bad_stream.data() + idat + 4, length + 4);
  for (int i = 0; i < 4; ++i) {
    bad_stream[idat + 8 + length + static_cast<size_t>(i)] =
        static_cast<uint8_t>(crc >> (24 - 8 * i));
  }
  WriteBytes(path, bad_stream);
  CheckLoadFails(path, "corrupt image data");

  std::vector<uint8_t> bad_header = bytes;
  bad_header[8 + 8 + 8] = 3;  // bit depth 3 is not valid, CRC not updated
  WriteBytes(path, bad_header);
  CheckLoadFails(path, "bad header");
}

TEST_CASE("PNG load rejects oversized images before allocating", "[png]") {
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  PutU32(ihdr, 100000);
  PutU32(ihdr, 100000);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB, no interlace
  PutChunk(png, "IHDR", ihdr);
  PutChunk(png, "IDAT", {0x78, 0x9C, 0x03, 0x00});
  PutChunk(png, "IEND", {});
  const std::string path = TestPath("huge.png");
  WriteBytes(path, png);
  CheckLoadFails(path, "100000 x 100000 pixels is too large");

  MemoryAccountant memory;
  const PlanarImage image = RandomImage(memory, 1, 64, 48, 9);
  const std::string small = TestPath("small.png");
  REQUIRE(SavePng(memory, small, image.views()).ok());
  CheckLoadFails(small, "too large (limit 1000 pixels)", 1000);

  MemoryAccountant tight(4096);
  Result<PlanarImage> over = LoadPng(tight, small);
  REQUIRE_FALSE(over.ok());
  CHECK(over.status().code() == ErrorCode::kOverBudget);
  CHECK_THAT(over.status().message(), Catch::Contains(small));
  CHECK(tight.Total().bytes_in_use == 0);
}

TEST_CASE("PNG save rejects bad planes and unwritable paths", "[png]") {
  MemoryAccountant memory;
  const PlanarImage rgb = RandomImage(memory, 3, 8, 8, 1);
  const std::vector<ConstImageU8View> views = rgb.views();
  const std::string path = TestPath("bad_save.png");
  Status two = SavePng(memory, path, std::span(views.data(), 2));
  REQUIRE_FALSE(two.ok());
  CHECK_THAT(two.message(), Catch::Contains("cannot save 2 planes"));

  const PlanarImage other = RandomImage(memory, 1, 8, 7, 1);
  std::vector<ConstImageU8View> mixed = views;
  mixed[2] = other.planes[0].view();
  Status mismatch = SavePng(memory, path, mixed);
  REQUIRE_FALSE(mismatch.ok());
  CHECK_THAT(mismatch.message(), Catch::Contains("plane 2 is 8 x 7, plane 0 is 8 x 8"));

  Status unwritable = SavePng(memory, TestPath("no_such_dir/x.png"), views);
  REQUIRE_FALSE(unwritable.ok());
  CHECK_THAT(unwritable.message(), Catch::Contains("cannot create"));
  CHECK(memory.Stats(MemoryCategory::kScratch).bytes_in_use == 0);
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

// `png` with `chunk` (already framed) inserted before its first IDAT.
std::vector<uint8_t> WithChunkBeforeIdat(std::vector<uint8_t> png,
                                         const std::vector<uint8_t>& chunk) {
  const size_t idat = FindChunk(png, "IDAT");
  REQUIRE(idat != 0);
  png.insert(png.begin() + static_cast<std::ptrdiff_t>(idat), chunk.begin(), chunk.end());
  return png;
}

TEST_CASE("PNG load skips ancillary chunks unread, however large they claim to be", "[png]") {
  MemoryAccountant memory;
  const SavedImage saved = SaveRandomImage(memory, 3, 40, 30, 4, "plain.png");
  const PlanarImage& image = saved.image;
  const std::vector<uint8_t>& original = saved.bytes;

  // Text, compressed text, ICC profile and suggested-palette chunks of real (small) size: the
  // image loads the same.
  for (const char* type : {"tEXt", "zTXt", "iTXt", "iCCP", "sPLT", "zzZz"}) {
    std::vector<uint8_t> chunk;
    PutChunk(chunk, type, {'k', 'e', 'y', 0, 0, 'v', 'a', 'l', 'u', 'e'});
    const std::string path = TestPath(std::string("with_") + type + ".png");
    WriteBytes(path, WithChunkBeforeIdat(original, chunk));
    Result<PlanarImage> loaded = LoadPng(memory, path);
    INFO(type << ": " << loaded.status().message());
    REQUIRE(loaded.ok());
    CHECK(SamePixels(*loaded, image));
  }
  // A chunk whose length claims 2 GB: the file is truncated, and no 2 GB request is made (the
  // budget of 1 MiB would refuse it with a budget error, not a truncation).
  std::vector<uint8_t> claim(original.begin(), original.begin() + 33);  // signature + IHDR
  PutU32(claim, 0x7FFF0000u);
  claim.insert(claim.end(), {'t', 'E', 'X', 't', 'k', 'e', 'y', 0});
  const std::string claims = TestPath("claims_2gb.png");
  WriteBytes(claims, claim);
  MemoryAccountant small(1 << 20);
  Result<PlanarImage> loaded = LoadPng(small, claims);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == ErrorCode::kInvalidArgument);
  CHECK_THAT(loaded.status().message(), Catch::Contains("file is truncated"));
  CHECK(small.Stats(MemoryCategory::kScratch).peak_bytes < (256 << 10));
  CHECK(small.Total().bytes_in_use == 0);
}

TEST_CASE("libpng's own memory is accounted, and a budget too small for it is named", "[png]") {
  MemoryAccountant memory;
  const PlanarImage image = RandomImage(memory, 4, 300, 20, 5);
  const std::string path = TestPath("accounted.png");
  REQUIRE(SavePng(memory, path, image.views()).ok());
  // zlib's inflate window (32 KiB) is more than the decode buffer of 300 x 20 x 4 bytes.
  MemoryAccountant loading;
  REQUIRE(LoadPng(loading, path).ok());
  CHECK(loading.Stats(MemoryCategory::kScratch).peak_bytes > 300 * 20 * 4 + (32 << 10));
  CHECK(loading.Stats(MemoryCategory::kScratch).bytes_in_use == 0);

  // Every budget below the peak a load needs fails cleanly (over budget, nothing left in use),
  // some of them inside libpng, named as such; the peak itself suffices.
  const size_t peak = loading.Total().peak_bytes;
  bool named_libpng = false;
  for (size_t budget = 0; budget < peak; budget += 512) {
    MemoryAccountant tight(budget);
    Result<PlanarImage> refused = LoadPng(tight, path);
    INFO("budget " << budget << " of peak " << peak);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == ErrorCode::kOverBudget);
    CHECK_THAT(refused.status().message(), Catch::Contains("PNG file '" + path + "'") &&
                                               Catch::Contains("memory budget exceeded"));
    named_libpng |= refused.status().message().find("libpng's working memory") != std::string::npos;
    CHECK(tight.Total().bytes_in_use == 0);
  }
  CHECK(named_libpng);
  MemoryAccountant exact(peak);
  CHECK(LoadPng(exact, path).ok());
}

TEST_CASE("PngSaveBytes bounds what SavePng allocates", "[png]") {
  for (const size_t width : {size_t{1}, size_t{8}, size_t{640}, size_t{4000}}) {
    for (const size_t channels : {size_t{1}, size_t{3}, size_t{4}}) {
      MemoryAccountant images;
      const PlanarImage image = RandomImage(images, channels, width, 64, 6);
      MemoryAccountant saving;
      REQUIRE(SavePng(saving, TestPath("bound.png"), image.views()).ok());
      const size_t peak = saving.Stats(MemoryCategory::kScratch).peak_bytes;
      INFO(width << " x " << channels << ": peak " << peak << ", bound "
                 << PngSaveBytes(width, channels));
      CHECK(peak <= PngSaveBytes(width, channels));
      // Not a loose bound: within 1.5x of what is used once zlib's window is full size (libpng
      // shrinks it for images of at most 16 KiB, which then use less).
      if ((width * channels + 1) * 64 > 16384) {
        CHECK(2 * PngSaveBytes(width, channels) <= 3 * peak);
      }
      // The same budget as a hard limit suffices.
      MemoryAccountant exact(PngSaveBytes(width, channels));
      CHECK(SavePng(exact, TestPath("bound.png"), image.views()).ok());
    }
  }
}

TEST_CASE("a failed PNG save leaves an existing file as it was", "[png]") {
  MemoryAccountant memory;
  const PlanarImage image = RandomImage(memory, 3, 64, 64, 7);
  const std::string path = TestPath("kept.png");
  const std::vector<uint8_t> previous = {'o', 'l', 'd'};
  WriteBytes(path, previous);
  // Over budget mid-way (libpng's deflate state does not fit).
  MemoryAccountant tight(8 << 10);
  Status over = SavePng(tight, path, image.views());
  REQUIRE_FALSE(over.ok());
  CHECK(over.code() == ErrorCode::kOverBudget);
  CHECK(ReadBytes(path) == previous);
  // A directory in the way.
  std::filesystem::create_directories(TestPath("a_directory.png"));
  Status directory = SavePng(memory, TestPath("a_directory.png"), image.views());
  CHECK_THAT(directory.message(), Catch::Contains("is a directory"));
  // Only this test's files: other test cases of this program may be saving beside them (ctest
  // runs them in parallel).
  size_t leftovers = 0;
  for (const auto& entry : std::filesystem::directory_iterator("png_test_files")) {
    const std::string name = entry.path().filename().string();
    leftovers += name.starts_with("kept.png.tmp-") || name.starts_with("a_directory.png.tmp-");
  }
  CHECK(leftovers == 0);
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

TEST_CASE("DecodePng reads bytes in memory as LoadPng reads the file", "[png]") {
  MemoryAccountant memory;
  const SavedImage saved = SaveRandomImage(memory, 4, 33, 17, 8, "in_memory.png");
  const PlanarImage& image = saved.image;
  const std::vector<uint8_t>& bytes = saved.bytes;
  Result<PlanarImage> decoded = DecodePng(memory, std::as_bytes(std::span(bytes)), "frame");
  REQUIRE(decoded.ok());
  CHECK(SamePixels(*decoded, image));
  Result<PlanarImage> cut =
      DecodePng(memory, std::as_bytes(std::span(bytes).first(bytes.size() / 2)), "frame");
  REQUIRE_FALSE(cut.ok());
  CHECK_THAT(cut.status().message(),
             Catch::Contains("PNG file 'frame': ") && Catch::Contains("truncated"));
  CHECK_THAT(DecodePng(memory, {}, "nothing").status().message(),
             Catch::Contains("PNG file 'nothing': file is empty"));
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

TEST_CASE("every PNG regression input loads or fails with a message", "[png]") {
  size_t inputs = 0, loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(SWARM_PNG_REGRESSIONS_DIR)) {
    if (entry.path().extension() != ".png") continue;
    const std::string path = entry.path().string();
    INFO(path);
    MemoryAccountant memory(64 << 20);
    {
      Result<PlanarImage> image = LoadPng(memory, path);
      ++inputs;
      const bool valid = entry.path().filename().string().starts_with("valid-");
      CHECK(image.ok() == valid);
      if (image.ok()) {
        ++loaded;
      } else {
        CHECK_THAT(image.status().message(), Catch::Contains("PNG file '" + path + "'"));
      }
    }
    // Memory follows what the file delivers: no regression input needs more than 1 MiB.
    CHECK(memory.Total().peak_bytes < (1 << 20));
    CHECK(memory.Total().bytes_in_use == 0);
  }
  CHECK(inputs >= 5);
  CHECK(loaded >= 1);
}

}  // namespace
}  // namespace swarm

namespace swarm {
namespace {

TEST_CASE("PNG load refuses a file whose first chunk is not IHDR", "[png]") {
  MemoryAccountant memory;
  const std::vector<uint8_t> good = SaveRandomImage(memory, 3, 5, 4, 9, "ihdr_first.png").bytes;
  std::vector<uint8_t> chunk;
  PutChunk(chunk, "bKGD", {0, 0, 0, 3, 0, 3});
  std::vector<uint8_t> moved(good.begin(), good.begin() + 8);
  moved.insert(moved.end(), chunk.begin(), chunk.end());
  moved.insert(moved.end(), good.begin() + 8, good.end());
  const std::string path = TestPath("bkgd_first.png");
  WriteBytes(path, moved);
  CheckLoadFails(path, "the first chunk is 'bKGD', not IHDR");
}

}  // namespace
}  // namespace swarm
