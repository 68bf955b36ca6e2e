#include "bench_pictures.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "moreau/scenes/builtin.hpp"
#include "moreau/viewer/browser.hpp"
#include "moreau/viewer/viewer_html.hpp"

namespace moreau::cli {

SystemsPicture write_systems_picture(const std::vector<std::string>& systems,
                                     const std::string& out_dir) {
  namespace fs = std::filesystem;
  SystemsPicture pic;
  if (!viewer::available()) {
    pic.note = "Pictures of the systems skipped: moreau was built without three.js (libjs-three).";
    return pic;
  }
  const std::string browser = viewer::find_browser();
  if (browser.empty()) {
    pic.note = "Pictures of the systems skipped: no chromium on PATH (or MOREAU_CHROMIUM=none).";
    return pic;
  }
  std::vector<Scene> scenes;
  for (const std::string& name : systems) {
    if (!is_builtin_scene(name) && !fs::is_regular_file(name)) continue;  // FCLib samples
    Result<Scene> s = load_scene(name);
    if (s) scenes.push_back(std::move(*s));
  }
  if (scenes.empty()) return pic;
  std::vector<viewer::GallerySystem> gallery;
  for (const Scene& s : scenes) gallery.push_back({s.name, &s.model, &s.initial});
  // Tiles of 400 x 300 pixels, four per row.
  constexpr int kTileWidth = 400, kTileHeight = 300;
  const int columns = std::min(4, static_cast<int>(gallery.size()));
  const int rows = (static_cast<int>(gallery.size()) + columns - 1) / columns;
  const fs::path plots = fs::path(out_dir) / "plots";
  std::error_code ec;
  fs::create_directories(plots, ec);
  const std::string html = (plots / ".systems.html").string();
  {
    std::ofstream f(html, std::ios::binary);
    f << viewer::gallery_html(gallery, columns, kTileWidth, kTileHeight);
    if (!f) {
      pic.note = "Pictures of the systems skipped: cannot write " + html;
      return pic;
    }
  }
  const std::string why = viewer::screenshot(browser, html, (plots / "systems.png").string(),
                                             kTileWidth * columns, kTileHeight * rows);
  fs::remove(html, ec);
  if (!why.empty()) {
    pic.note = "Pictures of the systems skipped: " + why;
    return pic;
  }
  pic.file = "systems.png";
  return pic;
}

}  // namespace moreau::cli
