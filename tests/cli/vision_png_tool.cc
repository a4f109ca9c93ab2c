// Helper of the swarm-vision command-line tests.
//
//   vision_png_tool make OUT.png WIDTH HEIGHT CHANNELS   writes a generated PNG (swarm's writer)
//   vision_png_tool check IN.png OUT.png                  checks OUT.png against OpenCV's
//       convertTo(CV_32F) -> cv::cvtColor(RGB2GRAY) -> GaussianBlur(5x5, 1.0) -> Sobel dx, dy ->
//       magnitude -> convertTo(CV_8U) of IN.png, the pipeline
//       `swarm-vision IN.png --gray --gaussian 5:1.0 --sobel-mag -o OUT.png` runs
//
// check passes when OUT.png has IN.png's size, differs from the gray input, and no pixel is off
// by more than 1 (swarm's f32 results differ from OpenCV's by a few ulp, which can move a value
// across a .5 rounding boundary of the final u8 conversion). Exit 0 on success, 1 on a mismatch,
// 2 on bad arguments or files.
#include <cstdio>
#include <cstdlib>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

#include "swarm/core/memory.h"
#include "swarm/vision/image.h"
#include "swarm/vision/png.h"

namespace {

int Usage() {
  std::fputs("usage: vision_png_tool make OUT.png W H CHANNELS | check IN.png OUT.png\n", stderr);
  return 2;
}

int Make(const std::string& path, size_t width, size_t height, size_t channels) {
  swarm::MemoryAccountant memory;
  std::vector<swarm::ImageU8> planes;
  std::vector<swarm::ConstImageU8View> views;
  for (size_t c = 0; c < channels; ++c) {
    planes.push_back(swarm::ImageU8::Create(memory, width, height).value());
    for (size_t y = 0; y < height; ++y) {
      for (size_t x = 0; x < width; ++x) {
        // Shapes with edges (a disc and stripes) plus a gradient, different per channel.
        const long dx = static_cast<long>(x) - static_cast<long>(width / 2);
        const long dy = static_cast<long>(y) - static_cast<long>(height / 3);
        const bool disc = dx * dx + dy * dy < static_cast<long>(width * height / 16);
        const bool stripe = ((x + 2 * y + 7 * c) / 9) % 2 == 0;
        const size_t value = (disc ? 200 : 40) + (stripe ? 30 : 0) + (x + y * c) % 25;
        planes.back().Set(x, y, static_cast<uint8_t>(value));
      }
    }
  }
  for (const swarm::ImageU8& plane : planes) views.push_back(plane.view());
  swarm::Status status = swarm::SavePng(memory, path, views);
  if (!status.ok()) {
    std::fprintf(stderr, "vision_png_tool: %s\n", status.message().c_str());
    return 2;
  }
  return 0;
}

cv::Mat ToMat(const swarm::ImageU8& image) {
  cv::Mat mat(static_cast<int>(image.height()), static_cast<int>(image.width()), CV_8U);
  for (size_t y = 0; y < image.height(); ++y) {
    for (size_t x = 0; x < image.width(); ++x) {
      mat.at<uint8_t>(static_cast<int>(y), static_cast<int>(x)) = image.Get(x, y);
    }
  }
  return mat;
}

int Check(const std::string& in_path, const std::string& out_path) {
  swarm::MemoryAccountant memory;
  swarm::Result<swarm::PlanarImage> in = swarm::LoadPng(memory, in_path);
  swarm::Result<swarm::PlanarImage> out = swarm::LoadPng(memory, out_path);
  if (!in.ok() || !out.ok()) {
    std::fprintf(stderr, "vision_png_tool: %s\n",
                 (!in.ok() ? in.status() : out.status()).message().c_str());
    return 2;
  }
  if (out->channels() != 1 || out->width() != in->width() || out->height() != in->height()) {
    std::fprintf(stderr,
                 "vision_png_tool: %s is %zu x %zu with %zu channel(s); expected %zu x %zu "
                 "gray\n",
                 out_path.c_str(), out->width(), out->height(), out->channels(), in->width(),
                 in->height());
    return 1;
  }
  cv::setNumThreads(1);
  // swarm-vision converts to f32 first and takes the gray level in f32 (COLOR_RGB2GRAY on
  // CV_32F); the u8 gray is only the "differs from the input" reference.
  cv::Mat gray, f32;
  if (in->channels() >= 3) {
    std::vector<cv::Mat> planes = {ToMat(in->planes[0]), ToMat(in->planes[1]),
                                   ToMat(in->planes[2])};
    cv::Mat rgb, rgb_f32;
    cv::merge(planes, rgb);
    cv::cvtColor(rgb, gray, cv::COLOR_RGB2GRAY);
    rgb.convertTo(rgb_f32, CV_32F);
    cv::cvtColor(rgb_f32, f32, cv::COLOR_RGB2GRAY);
  } else {
    gray = ToMat(in->planes[0]);
    gray.convertTo(f32, CV_32F);
  }
  cv::Mat blurred, dx, dy, magnitude, expected;
  cv::GaussianBlur(f32, blurred, cv::Size(5, 5), 1.0, 1.0, cv::BORDER_REFLECT_101);
  cv::Sobel(blurred, dx, CV_32F, 1, 0, 3);
  cv::Sobel(blurred, dy, CV_32F, 0, 1, 3);
  cv::magnitude(dx, dy, magnitude);
  magnitude.convertTo(expected, CV_8U);
  int worst = 0;
  size_t off_by_one = 0, differs_from_input = 0;
  for (size_t y = 0; y < out->height(); ++y) {
    for (size_t x = 0; x < out->width(); ++x) {
      const int got = out->planes[0].Get(x, y);
      const int want = expected.at<uint8_t>(static_cast<int>(y), static_cast<int>(x));
      worst = std::max(worst, std::abs(got - want));
      off_by_one += got != want;
      differs_from_input += got != gray.at<uint8_t>(static_cast<int>(y), static_cast<int>(x));
    }
  }
  std::printf(
      "vision_png_tool: %zu x %zu, max |swarm - OpenCV| = %d, %zu pixel(s) off by one, "
      "%zu pixel(s) differ from the gray input\n",
      out->width(), out->height(), worst, off_by_one, differs_from_input);
  return worst <= 1 && differs_from_input > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 6 && std::string(argv[1]) == "make") {
    const long width = std::atol(argv[3]), height = std::atol(argv[4]);
    const long channels = std::atol(argv[5]);
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3 && channels != 4)) {
      return Usage();
    }
    return Make(argv[2], static_cast<size_t>(width), static_cast<size_t>(height),
                static_cast<size_t>(channels));
  }
  if (argc == 4 && std::string(argv[1]) == "check") return Check(argv[2], argv[3]);
  return Usage();
}
