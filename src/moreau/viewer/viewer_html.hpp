#pragma once
// One self-contained HTML file that replays a Recording in the browser with three.js (inlined,
// no network access at view time), and the gallery page of several systems that `moreau bench`
// photographs for its report (docs/viewer.md).
#include <string>
#include <vector>

#include "moreau/model/model.hpp"
#include "moreau/model/state.hpp"
#include "moreau/viewer/recording.hpp"

namespace moreau::viewer {

// What the viewer's title line says about the run.
struct RunInfo {
  std::string scene;       // scene name
  std::string solver;      // contact solver
  std::string integrator;  // time stepping
  double dt = 0.0;         // time step [s]
};

struct HtmlOptions {
  // At most this many frames go into the file: every k-th frame (and the last one) when the
  // recording has more (docs/viewer.md "Large trajectories").
  int max_frames = 5000;
};

// True when three.js was found at build time (libjs-three); without it no HTML can be written.
bool available();

// The viewer page. The recording must have model.num_bodies() bodies.
std::string viewer_html(const Model& model, const RunInfo& info, const Recording& rec,
                        const HtmlOptions& options = {});

// One system of the gallery page: its model in one state.
struct GallerySystem {
  std::string name;
  const Model* model = nullptr;
  const State* state = nullptr;
};
// A grid of the systems in their given states, `columns` tiles of tile_width x tile_height pixels
// per row, each labelled with the system's name; the page draws itself at load time (for a
// headless browser's screenshot).
std::string gallery_html(const std::vector<GallerySystem>& systems, int columns, int tile_width,
                         int tile_height);

// Frames kept by viewer_html for a recording of n frames: every stride-th and the last.
std::vector<int> kept_frames(int n, int max_frames);

// Standard base64 (RFC 4648) of raw bytes.
std::string base64(const void* data, size_t bytes);

}  // namespace moreau::viewer
