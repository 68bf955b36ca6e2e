// MJCF <asset><hfield>: a height field from a PNG image (rows flipped so that the image's top row
// is at +y, as MuJoCo does), from MuJoCo's binary format or inline `elevation` data (row-major,
// first row at -y), or all zeros; normalized to [0, 1] either way (make_height_field,
// model/geometry.hpp).
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "moreau/io/mjcf_internal.hpp"
#include "moreau/io/png_gray.hpp"

namespace moreau::mjcf {

namespace {

// MuJoCo's rule: a file whose name ends in .png (any case) is an image, any other is binary.
bool is_png_name(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return ext == ".png";
}

uint32_t le32(const unsigned char* b) {
  return uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}

// MuJoCo's binary height field: int32 nrow, int32 ncol, float32 data[nrow * ncol], little
// endian, rows in the order of the inline `elevation` (row 0 at -y: no flip, unlike a PNG), and
// exactly 8 + 4 nrow ncol bytes. Returns what is wrong, or nothing.
std::optional<std::string> read_binary_hfield(const std::string& path, int* nrow, int* ncol,
                                              std::vector<double>* elevation) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<unsigned char> b((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
  if (b.size() < 8) return std::to_string(b.size()) + " bytes, no header";
  const auto rows = static_cast<int32_t>(le32(b.data())),
             cols = static_cast<int32_t>(le32(b.data() + 4));
  if (rows < 1 || cols < 1)
    return "nrow " + std::to_string(rows) + ", ncol " + std::to_string(cols) + " (not >= 1)";
  const uint64_t want = 8 + 4 * static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols);
  if (b.size() != want)
    return std::to_string(b.size()) + " bytes where nrow " + std::to_string(rows) + ", ncol " +
           std::to_string(cols) + " need " + std::to_string(want);
  *nrow = rows;
  *ncol = cols;
  elevation->resize(static_cast<size_t>(rows) * cols);
  for (size_t k = 0; k < elevation->size(); ++k) {
    const uint32_t bits = le32(b.data() + 8 + 4 * k);
    float x;
    std::memcpy(&x, &bits, 4);
    (*elevation)[k] = x;
  }
  return std::nullopt;
}

}  // namespace

void parse_hfield(Context& c, const Element* e) {
  Attrs a(c, e, class_of(e, ""), "<hfield>");
  const std::string file = a.str("file", "");
  std::string name = a.str("name", "");
  if (name.empty() && !file.empty()) {  // MuJoCo: the file name without directory and extension
    name = file.substr(file.find_last_of('/') + 1);
    name = name.substr(0, name.find_last_of('.'));
  }
  const std::string element = "hfield '" + name + "'";
  if (name.empty()) c.fail(e, "<hfield>", "a name (or a file)", "neither");
  const std::vector<double> size = a.nums("size", 4, 4, {0.0, 0.0, 0.0, 0.0});
  if (!a.has("size"))
    c.fail(e, element + " size", "4 numbers 'radius_x radius_y elevation base'", "none");
  int nrow = a.integer("nrow", 0), ncol = a.integer("ncol", 0);
  std::vector<double> elevation = a.nums("elevation", 0, 1 << 30, {});
  std::string source = element;
  if (!file.empty()) {
    if (a.has("nrow") || a.has("ncol") || a.has("elevation"))
      c.fail(e, element, "either a file or nrow/ncol (with elevation)", "both");
    // Relative to meshdir (itself relative to the main file's directory), as MuJoCo's meshes.
    const std::string path =
        join_path(c.meshdir.empty() ? c.dir : join_path(c.dir, c.meshdir), file);
    if (!std::ifstream(path))
      c.fail(e, element + " file", "a readable PNG or binary height-field file",
             "'" + path + "' is missing");
    if (is_png_name(path)) {
      Result<GrayImage> img = read_png_gray(path);
      if (!img)
        c.fail(e, element + " file", img.error().expected, img.error().got + " ('" + path + "')");
      nrow = img->height;
      ncol = img->width;
      elevation.resize(img->pixels.size());
      for (int r = 0; r < nrow; ++r)
        for (int k = 0; k < ncol; ++k)
          elevation[static_cast<size_t>(nrow - 1 - r) * ncol + k] =
              img->pixels[static_cast<size_t>(r) * ncol + k];
    } else if (auto bad = read_binary_hfield(path, &nrow, &ncol, &elevation)) {
      c.fail(e, element + " file",
             "MuJoCo's binary height field (int32 nrow, int32 ncol, " +
                 std::string("float32 data[nrow * ncol])"),
             *bad + " ('" + path + "')");
    }
    source = path;
  } else if (!a.has("nrow") || !a.has("ncol")) {
    c.fail(e, element, "a file, or nrow and ncol (with optional elevation data)", "neither");
  }
  Result<std::shared_ptr<const HeightFieldData>> h = make_height_field(
      nrow, ncol, {size[0], size[1], size[2], size[3]}, std::move(elevation), element);
  if (!h) c.fail(e, h.error().element, h.error().expected, h.error().got);
  auto hf = std::make_shared<HeightFieldData>(**h);
  hf->source = source;
  if (c.hfields.count(name)) c.fail(e, element, "a unique height-field name", "a second one");
  c.hfields[name] = std::move(hf);
  a.ignore_attrs({"content_type"});
}

}  // namespace moreau::mjcf
