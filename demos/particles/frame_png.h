// An ARGB8888 frame (the particle renderer's, or the window read back) as an 8-bit RGB PNG,
// written the way ParticleRenderer::SaveFramePng writes its frame, so the two files compare.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "swarm/core/memory.h"
#include "swarm/core/status.h"

namespace swarm {

// width x height pixels 0xAARRGGBB, rows of `row_stride` pixels; alpha is dropped. The three
// planes are accounted under kImages while the file is written.
Status SaveArgbPng(MemoryAccountant& memory, const std::string& path, const uint32_t* pixels,
                   size_t width, size_t height, size_t row_stride);

}  // namespace swarm
