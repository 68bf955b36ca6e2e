// `moreau convert FILE --to scene.json`: any scene moreau loads (a built-in name, a native .json
// scene, a .urdf or MJCF .xml file) written in the native JSON format (docs/scene-format.md).
// The output appears only when the whole conversion succeeded.
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "output.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

constexpr const char* kCmd = "convert";

struct ConvertOptions {
  std::string scene, to;
  std::vector<std::string> sets;
};

void run_convert(const ConvertOptions& o) {
  if (file_extension(o.to) != "json")
    fail(kCmd, "--to '" + o.to + "': expected a .json file name", kExitBadInput);
  const SceneParams params = parse_scene_params(o.sets, kCmd);
  const Scene scene = load_scene_or_exit(o.scene, params, kCmd);
  const std::string text = scene_to_json(scene);
  AtomicFile file;
  if (std::string why = file.open(o.to); !why.empty()) fail(kCmd, why, kExitBadInput);
  if (std::fwrite(text.data(), 1, text.size(), file.file()) != text.size())
    fail(kCmd, "cannot write '" + o.to + "'", kExitFailure);
  if (std::string why = file.commit(); !why.empty()) fail(kCmd, why, kExitFailure);
}

}  // namespace

void add_convert(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "convert", "write a scene (built-in, .json, .urdf or MJCF .xml) in moreau's JSON format");
  cmd->footer(
      "Exit status: 0 success; 2 bad input (nothing is written). See docs/model-import.md.");
  cmd->add_option("scene", o->scene, "built-in scene name or scene file (.json, .urdf, .xml)")
      ->required();
  cmd->add_option("--to", o->to, "output scene file (.json)")->required();
  add_set_option(cmd, o->sets);
  cmd->callback([o] { run_convert(*o); });
}

}  // namespace moreau::cli
