// PNG reading through libpng's simplified API (png_image_*), see png_gray.hpp.
#include "moreau/io/png_gray.hpp"

#ifdef MOREAU_HAVE_PNG
#include <png.h>
#endif

#include <filesystem>
#include <system_error>

namespace moreau {

bool have_png() {
#ifdef MOREAU_HAVE_PNG
  return true;
#else
  return false;
#endif
}

Result<GrayImage> read_png_gray(const std::string& path) {
#ifdef MOREAU_HAVE_PNG
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&img, path.c_str()))
    return Error{path, 0, "PNG file", "a readable PNG image", img.message};
  // Deflate expands at most 1032-fold and a 1-bit image packs 8 pixels a byte: a header that
  // claims more pixels than the file can hold is corrupt, and is refused before allocating.
  std::error_code ec;
  const uintmax_t file_bytes = std::filesystem::file_size(path, ec);
  const uintmax_t pixels = uintmax_t{img.width} * img.height;
  if (ec || pixels > 8 * 1032 * uintmax_t{file_bytes}) {
    png_image_free(&img);
    return Error{path, 0, "PNG header", "at most 8 x 1032 pixels per byte of the file",
                 std::to_string(img.width) + " x " + std::to_string(img.height) + " pixels in " +
                     std::to_string(file_bytes) + " bytes"};
  }
  img.format = PNG_FORMAT_GRAY;
  GrayImage out;
  out.width = static_cast<int>(img.width);
  out.height = static_cast<int>(img.height);
  out.pixels.resize(PNG_IMAGE_SIZE(img));
  if (!png_image_finish_read(&img, nullptr, out.pixels.data(), 0, nullptr)) {
    const std::string msg = img.message;
    png_image_free(&img);
    return Error{path, 0, "PNG file", "a readable PNG image", msg};
  }
  if (out.width < 1 || out.height < 1)
    return Error{path, 0, "PNG file", "a non-empty image", "an empty image"};
  return out;
#else
  return Error{path, 0, "PNG file", "moreau built with libpng (libpng-dev) to read PNG images",
               "a build without it"};
#endif
}

}  // namespace moreau
