// Options of the URDF/MJCF importers from scene parameters, and format detection.
#include "moreau/io/urdf_mjcf.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace moreau {

Result<ImportOptions> import_options_from_params(const SceneParams& params,
                                                 const std::string& file) {
  ImportOptions o;
  bool kd_set = false;
  for (const auto& [key, value] : params) {
    if (key == "floating") {
      if (value != "0" && value != "1" && value != "true" && value != "false")
        return Error{file, 0, "--set floating", "0 or 1", "'" + value + "'"};
      o.floating_base = value == "1" || value == "true";
    } else if (key == "package_path") {
      size_t start = 0;
      while (start <= value.size()) {
        const size_t colon = value.find(':', start);
        const std::string dir =
            value.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        if (!dir.empty()) o.package_paths.push_back(dir);
        if (colon == std::string::npos) break;
        start = colon + 1;
      }
    } else if (key == "keyframe") {
      o.keyframe = value;
    } else if (key == "servo_kp" || key == "servo_kd") {
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !(v >= 0.0) || !std::isfinite(v))
        return Error{file, 0, "--set " + key, "a finite number >= 0", "'" + value + "'"};
      (key == "servo_kp" ? o.servo_kp : o.servo_kd) = v;
      kd_set |= key == "servo_kd";
    } else if (key == "armature") {
      if (value != "inertia" && value != "rows")
        return Error{file, 0, "--set armature", "inertia or rows", "'" + value + "'"};
      o.armature_rows = value == "rows";
    } else {
      return Error{file, 0, "--set " + key,
                   "one of floating, package_path, keyframe, servo_kp, servo_kd, armature "
                   "(URDF/MJCF files)",
                   "'" + key + "'"};
    }
  }
  if (!kd_set) o.servo_kd = o.servo_kp / 20.0;
  return o;
}

Result<Scene> load_model_file(const std::string& path, const SceneParams& params) {
  Result<ImportOptions> opt = import_options_from_params(params, path);
  if (!opt) return opt.error();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "model file", "a readable file", "cannot open it"};
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  Result<ImportedModel> m = is_mjcf_text(text)
                                ? import_mjcf_string(text, path, directory_of(path), *opt)
                                : import_urdf_string(text, path, *opt);
  if (!m) return m.error();
  for (const std::string& w : m->warnings) std::cerr << "moreau: warning: " << w << '\n';
  return std::move(m->scene);
}

bool is_mjcf_text(const std::string& xml) {
  // The first element that is not a declaration or a comment.
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    if (xml.compare(i, 4, "<!--") == 0) {
      i = xml.find("-->", i);
      if (i == std::string::npos) return false;
      continue;
    }
    if (i + 1 < xml.size() && (xml[i + 1] == '?' || xml[i + 1] == '!')) {
      ++i;
      continue;
    }
    return xml.compare(i, 7, "<mujoco") == 0;
  }
  return false;
}

}  // namespace moreau
