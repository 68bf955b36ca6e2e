#pragma once
// The picture of the benchmark's systems for `moreau bench`'s report: every system in its initial
// state, drawn by the viewer's gallery page (docs/viewer.md) and photographed by headless
// Chromium.
#include <string>
#include <vector>

namespace moreau::cli {

struct SystemsPicture {
  std::string file;  // name under OUT/plots/ ("" when none)
  std::string note;  // why there is none, or what went wrong
};

// Writes OUT_DIR/plots/systems.png for the systems that are scenes (built-in names or files).
// Without a browser or three.js it writes nothing and says so in `note`.
SystemsPicture write_systems_picture(const std::vector<std::string>& systems,
                                     const std::string& out_dir);

}  // namespace moreau::cli
