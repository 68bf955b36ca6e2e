// `moreau view TRAJ --out FILE.html`: the trajectory viewer (docs/viewer.md), one self-contained
// HTML file that replays a trajectory of `moreau simulate` with three.js.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "moreau/viewer/viewer_html.hpp"
#include "output.hpp"
#include "scene_options.hpp"
#include "trajectory_read.hpp"

namespace moreau::cli {

namespace {

constexpr const char* kCmd = "view";

struct ViewOptions {
  std::string trajectory, out, scene;
  std::vector<std::string> sets;
  int max_frames = 5000;
  bool quiet = false;
};

void run_view(const ViewOptions& o) {
  if (file_extension(o.out) != "html")
    fail(kCmd, "--out '" + o.out + "': expected a .html file name", kExitBadInput);
  if (!viewer::available())
    fail(kCmd, "this moreau was built without three.js (install libjs-three and build again)",
         kExitBadInput);
  if (o.max_frames < 2) fail(kCmd, "--max-frames: expected an integer >= 2", kExitBadInput);
  Result<TrajectoryData> t = read_trajectory(o.trajectory);
  if (!t) fail(kCmd, t.error().message(), kExitBadInput);
  // The scene: --scene, else the one the JSON trajectory carries.
  std::optional<Scene> named;
  if (!o.scene.empty())
    named = load_scene_or_exit(o.scene, parse_scene_params(o.sets, kCmd), kCmd);
  else if (!o.sets.empty())
    fail(kCmd, "--set needs --scene", kExitBadInput);
  const Scene* scene = named ? &*named : (t->scene ? &*t->scene : nullptr);
  if (!scene)
    fail(kCmd,
         o.trajectory +
             ": the trajectory does not carry its scene (a CSV file): name it with "
             "--scene NAME_OR_FILE",
         kExitBadInput);
  const std::string label = "scene '" + scene->name + "'";
  if (auto e = check_trajectory_matches(*t, scene->model, o.trajectory, label))
    fail(kCmd, e->message(), kExitBadInput);
  viewer::RunInfo info;
  info.scene = t->scene_name.empty() ? scene->name : t->scene_name;
  info.solver = t->solver.empty() ? scene->settings.solver : t->solver;
  info.integrator =
      t->integrator.empty() ? integrator_name(scene->settings.integrator) : t->integrator;
  info.dt = t->dt > 0.0 ? t->dt : scene->settings.dt;
  const std::string html = viewer::viewer_html(scene->model, info, t->rec, {o.max_frames});
  AtomicFile file;
  if (std::string why = file.open(o.out); !why.empty()) fail(kCmd, why, kExitBadInput);
  std::fwrite(html.data(), 1, html.size(), file.file());
  if (std::string why = file.commit(); !why.empty()) fail(kCmd, why, kExitFailure);
  if (!o.quiet)
    std::printf("%s: %d frames of %d bodies -> %s (%.1f MB)\n", info.scene.c_str(),
                static_cast<int>(viewer::kept_frames(t->rec.frames(), o.max_frames).size()),
                scene->model.num_bodies(), o.out.c_str(), static_cast<double>(html.size()) / 1e6);
}

}  // namespace

void add_view(CLI::App& app) {
  auto o = std::make_shared<ViewOptions>();
  CLI::App* cmd = app.add_subcommand(
      "view", "write a self-contained HTML viewer that replays a trajectory (three.js)");
  cmd->footer(
      "Exit status: 0 success; 2 bad input (unreadable trajectory, or one that does not match "
      "the scene). See docs/viewer.md.");
  cmd->add_option("trajectory", o->trajectory,
                  "trajectory of `moreau simulate --out` (.json carries its scene; .csv needs "
                  "--scene)")
      ->required();
  cmd->add_option("--out,-o", o->out, "the HTML file to write")->required();
  cmd->add_option("--scene", o->scene,
                  "the trajectory's scene (built-in name or file); default: the one in the JSON");
  add_set_option(cmd, o->sets);
  cmd->add_option("--max-frames", o->max_frames,
                  "at most this many frames in the file (every k-th; default 5000)");
  cmd->add_flag("--quiet,-q", o->quiet, "print nothing on success");
  cmd->callback([o] { run_view(*o); });
}

}  // namespace moreau::cli
