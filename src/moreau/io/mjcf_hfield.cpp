// MJCF <asset><hfield>: a height field from a PNG image (rows flipped so that the image's top row
// is at +y, as MuJoCo does), from inline `elevation` data (row-major, first row at -y), or all
// zeros; normalized to [0, 1] either way (make_height_field, model/geometry.hpp).
#include <fstream>

#include "moreau/io/mjcf_internal.hpp"
#include "moreau/io/png_gray.hpp"

namespace moreau::mjcf {

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
      c.fail(e, element + " file", "a readable PNG file", "'" + path + "' is missing");
    if (path.size() < 4 || (path.compare(path.size() - 4, 4, ".png") != 0 &&
                            path.compare(path.size() - 4, 4, ".PNG") != 0))
      c.fail(e, element + " file", "a .png image (MuJoCo's binary height-field format is not read)",
             "'" + path + "'");
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
