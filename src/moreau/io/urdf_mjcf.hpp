#pragma once
// Robot models from URDF (through urdfdom) and MJCF (MuJoCo XML, a subset, on tinyxml2): both are
// parsed into a LinkTree (urdf_mjcf_tree.hpp) and built into a moreau Scene with maximal
// coordinates. See docs/model-import.md for what is supported and how each element maps.
#include <map>
#include <string>
#include <vector>

#include "moreau/io/scene.hpp"
#include "moreau/io/urdf_mjcf_tree.hpp"

namespace moreau {

struct ImportOptions {
  bool floating_base = false;              // URDF: root link free (true) or fixed to the world
  std::vector<std::string> package_paths;  // roots searched for package://NAME/... paths
  std::string keyframe;                    // MJCF: keyframe name for the initial state ("" first)
  // MJCF: > 0 holds every actuated DoF at its initial angle by a PD servo of these gains
  // [N m/rad, N m s/rad] (docs/model-import.md, "Standing").
  double servo_kp = 0.0, servo_kd = 0.0;
  // MJCF armature: true (the default) keeps it the joint's, a compliant row per DoF that holds it
  // and the DoF's damping exactly (Joint::armature); false folds a hinge's into its body's inertia,
  // the approximation of earlier versions (docs/model-import.md, "Armature").
  bool armature_rows = true;
};

// Options from scene parameters: floating=0|1, package_path=DIR[:DIR...], keyframe=NAME,
// servo_kp=KP, servo_kd=KD (KD defaults to KP / 20), armature=inertia|rows.
// Unknown keys are an Error naming them.
Result<ImportOptions> import_options_from_params(const SceneParams& params,
                                                 const std::string& file);

struct ImportedModel {
  Scene scene;
  LinkTree tree;                      // the parsed tree (for forward kinematics and tests)
  TreeBuild build;                    // link -> body map of the built model
  std::vector<std::string> warnings;  // elements and attributes outside the supported subset
};

Result<ImportedModel> import_urdf_file(const std::string& path, const ImportOptions& opt = {});
Result<ImportedModel> import_urdf_string(const std::string& xml, const std::string& source,
                                         const ImportOptions& opt = {});
Result<ImportedModel> import_mjcf_file(const std::string& path, const ImportOptions& opt = {});
// `dir` resolves relative mesh files (the directory of the file the text came from).
Result<ImportedModel> import_mjcf_string(const std::string& xml, const std::string& source,
                                         const std::string& dir, const ImportOptions& opt = {});

// A .urdf or MJCF .xml file as a Scene (format by content: root <mujoco> or <robot>); warnings
// are printed on stderr ("moreau: warning: FILE:LINE: ..."). Parameters:
// import_options_from_params.
Result<Scene> load_model_file(const std::string& path, const SceneParams& params);

// True when the file looks like MJCF (root element <mujoco>) rather than URDF (<robot>).
bool is_mjcf_text(const std::string& xml);

}  // namespace moreau
