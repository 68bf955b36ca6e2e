// `moreau inspect SCENE`: the structure of a scene's model (counts, rank of the joint Jacobian,
// redundant rows, mechanism DoFs, bodies and joints), as a table or as JSON.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "model_summary_print.hpp"
#include "scene_options.hpp"

namespace moreau::cli {

namespace {

struct InspectOptions {
  std::string scene;
  std::vector<std::string> sets;
  bool json = false;
};

void run_inspect(const InspectOptions& o) {
  const SceneParams params = parse_scene_params(o.sets, "inspect");
  const Scene scene = load_scene_or_exit(o.scene, params, "inspect");
  const SimSettings& st = scene.settings;
  if (o.json) {
    std::cout << inspect_json(scene).dump(2) << std::endl;
    return;
  }
  std::cout << "scene " << scene.name << " (" << scene.source << "): dt " << st.dt << " s, solver "
            << st.solver << ", " << integrator_name(st.integrator) << ", duration "
            << scene.duration << " s\n"
            << format_model_summary(summarize_model(scene.model, scene.initial));
}

}  // namespace

void add_inspect(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "inspect", "print a scene's model structure: bodies, joints, constraint rows, rank, DoFs");
  cmd->footer(
      "rank_J is the numerical rank of the joint Jacobian at the initial state; dofs = 6 bodies - "
      "rank_J.\n"
      "Exit status: 0 success; 2 bad input. See docs/cli.md.");
  cmd->add_option("scene", o->scene,
                  "built-in scene name (e.g. fourbar-fixed) or scene file (.json)")
      ->required();
  add_set_option(cmd, o->sets);
  cmd->add_flag("--json", o->json, "print one JSON object on stdout instead of the tables");
  cmd->callback([o] { run_inspect(*o); });
}

}  // namespace moreau::cli
