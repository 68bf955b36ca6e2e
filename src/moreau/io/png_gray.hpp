#pragma once
// PNG images read as 8-bit grayscale (libpng's simplified API; colour images are converted to gray
// by libpng), for MJCF height fields (docs/model-import.md). Optional: without libpng (libpng-dev)
// moreau builds and reading a PNG is an error that says so.
#include <cstdint>
#include <string>
#include <vector>

#include "moreau/model/error.hpp"

namespace moreau {

struct GrayImage {
  int width = 0, height = 0;
  std::vector<uint8_t> pixels;  // height rows of width values, the image's top row first
};

// Error: the file is missing or not a PNG, or moreau was built without libpng.
Result<GrayImage> read_png_gray(const std::string& path);

// True when moreau was built with libpng.
bool have_png();

}  // namespace moreau
