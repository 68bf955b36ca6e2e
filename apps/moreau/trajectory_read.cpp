#include "trajectory_read.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "output.hpp"

namespace moreau::cli {

namespace {

using json = nlohmann::json;

// The 13 numbers per body of a CSV row or JSON sample: x y z qw qx qy qz, then the twist.
constexpr int kPerBody = 13;

std::string fmt_g(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::stringstream ss(line);
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

Result<TrajectoryData> read_csv(const std::string& path, std::istream& in) {
  TrajectoryData t;
  std::string line;
  if (!std::getline(in, line)) return Error{path, 1, "CSV header", "a header row", "an empty file"};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::vector<std::string> head = split_csv(line);
  const int cols = static_cast<int>(head.size());
  if (cols < 3 || head[0] != "step" || head[1] != "t" || head.back() != "constraint_violation" ||
      (cols - 3) % kPerBody != 0)
    return Error{path, 1, "CSV header",
                 "step,t, then 13 columns per body (NAME.x ... NAME.wz), then "
                 "constraint_violation (the format of `moreau simulate --out FILE.csv`)",
                 std::to_string(cols) + " columns starting '" + head[0] + "'"};
  const int nb = (cols - 3) / kPerBody;
  for (int b = 0; b < nb; ++b) {
    const std::string& c = head[2 + kPerBody * b];
    if (c.size() < 2 || c.compare(c.size() - 2, 2, ".x") != 0)
      return Error{path, 1, "CSV header column " + std::to_string(3 + kPerBody * b), "NAME.x",
                   "'" + c + "'"};
    t.bodies.push_back(c.substr(0, c.size() - 2));
  }
  t.rec = viewer::Recording(nb, false);
  std::vector<double> pose(7 * size_t(nb));
  int lineno = 1;
  double last_t = -std::numeric_limits<double>::infinity();
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const std::vector<std::string> cells = split_csv(line);
    if (int(cells.size()) != cols)
      return Error{path, lineno, "CSV row", std::to_string(cols) + " columns as in the header",
                   std::to_string(cells.size())};
    auto value = [&](int col, double* x) {
      const char* s = cells[col].c_str();
      char* end = nullptr;
      *x = std::strtod(s, &end);
      return end != s && *end == '\0';
    };
    double x = 0.0;
    for (int c = 0; c < cols; ++c)  // also the columns the viewer does not draw
      if (!value(c, &x))
        return Error{path, lineno, "column " + head[c], "a number", "'" + cells[c] + "'"};
    double time = 0.0;
    value(1, &time);
    if (!std::isfinite(time) || time < last_t)
      return Error{path, lineno, "column t",
                   std::isfinite(time) ? "a time >= the previous row's " + fmt_g(last_t)
                                       : std::string("a finite time"),
                   cells[1]};
    last_t = time;
    for (int b = 0; b < nb; ++b)
      for (int k = 0; k < 7; ++k) value(2 + kPerBody * b + k, &pose[7 * b + k]);
    t.rec.add_frame(time, pose.data());
  }
  return t;
}

Result<TrajectoryData> read_json(const std::string& path, std::istream& in) {
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    return Error{path, 0, "trajectory JSON", "valid JSON", e.what()};
  }
  TrajectoryData t;
  if (!j.is_object() || !j.contains("samples") || !j["samples"].is_array() ||
      !j.contains("bodies") || !j["bodies"].is_array())
    return Error{path, 0, "trajectory JSON",
                 "an object with \"bodies\" and \"samples\" (the format of `moreau simulate --out "
                 "FILE.json`)",
                 "something else"};
  for (const json& b : j["bodies"]) {
    if (!b.is_string()) return Error{path, 0, "bodies", "body names (strings)", b.dump()};
    t.bodies.push_back(b.get<std::string>());
  }
  auto text = [&](const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
  };
  t.scene_name = text("scene");
  t.solver = text("solver");
  t.integrator = text("integrator");
  if (j.contains("dt") && j["dt"].is_number()) t.dt = j["dt"].get<double>();
  if (j.contains("scene_definition")) {
    Result<Scene> s = parse_scene_json(j["scene_definition"].dump(), path + " (scene_definition)");
    if (!s) return s.error();
    t.scene = std::move(*s);
  }
  const int nb = static_cast<int>(t.bodies.size());
  const json& samples = j["samples"];
  bool with_contacts =
      !samples.empty() && samples[0].is_object() && samples[0].contains("contacts");
  t.rec = viewer::Recording(nb, with_contacts);
  std::vector<double> pose(7 * size_t(nb));
  double last_t = -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < samples.size(); ++i) {
    const json& s = samples[i];
    const std::string at = "samples[" + std::to_string(i) + "]";
    auto number = [&](const json& x, double* v) {
      if (x.is_number()) {
        *v = x.get<double>();
        return true;
      }
      if (x.is_null()) {  // a non-finite number
        *v = std::nan("");
        return true;
      }
      return false;
    };
    if (!s.is_object() || !s.contains("t") || !s.contains("position") || !s.contains("quaternion"))
      return Error{path, 0, at, "an object with t, position and quaternion", "something else"};
    double time = 0.0;
    if (!number(s["t"], &time)) return Error{path, 0, at + ".t", "a number", s["t"].dump()};
    if (!std::isfinite(time) || time < last_t)  // playback finds a time's frame by bisection
      return Error{path, 0, at + ".t",
                   std::isfinite(time) ? "a time >= the previous sample's " + fmt_g(last_t)
                                       : std::string("a finite time"),
                   s["t"].dump()};
    last_t = time;
    const json& P = s["position"];
    const json& Q = s["quaternion"];
    if (!P.is_array() || int(P.size()) != nb || !Q.is_array() || int(Q.size()) != nb)
      return Error{
          path, 0, at, "position and quaternion for each of the " + std::to_string(nb) + " bodies",
          std::to_string(P.size()) + " positions, " + std::to_string(Q.size()) + " quaternions"};
    for (int b = 0; b < nb; ++b) {
      if (!P[b].is_array() || P[b].size() != 3 || !Q[b].is_array() || Q[b].size() != 4)
        return Error{path, 0, at + " body " + std::to_string(b), "[x, y, z] and [w, x, y, z]",
                     P[b].dump() + ", " + Q[b].dump()};
      for (int k = 0; k < 3; ++k)
        if (!number(P[b][k], &pose[7 * b + k]))
          return Error{path, 0, at + ".position", "numbers", P[b].dump()};
      for (int k = 0; k < 4; ++k)
        if (!number(Q[b][k], &pose[7 * b + 3 + k]))
          return Error{path, 0, at + ".quaternion", "numbers", Q[b].dump()};
    }
    t.rec.add_frame(time, pose.data());
    if (with_contacts && s.contains("contacts") && s["contacts"].is_array())
      for (const json& c : s["contacts"]) {
        double v[6];
        if (!c.is_array() || c.size() != 6)
          return Error{path, 0, at + ".contacts", "[x, y, z, fx, fy, fz] per contact", c.dump()};
        for (int k = 0; k < 6; ++k)
          if (!number(c[k], &v[k])) return Error{path, 0, at + ".contacts", "numbers", c.dump()};
        t.rec.add_contact(Vec3(v[0], v[1], v[2]), Vec3(v[3], v[4], v[5]));
      }
  }
  return t;
}

}  // namespace

Result<TrajectoryData> read_trajectory(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path, 0, "trajectory file", "a readable file", "cannot open it"};
  const std::string ext = file_extension(path);
  if (ext == "csv") return read_csv(path, in);
  if (ext == "json") return read_json(path, in);
  return Error{path, 0, "trajectory file", "a .csv or .json file of `moreau simulate --out`",
               "extension '" + ext + "'"};
}

std::optional<Error> check_trajectory_matches(const TrajectoryData& t, const Model& model,
                                              const std::string& path,
                                              const std::string& scene_label) {
  if (int(t.bodies.size()) != model.num_bodies())
    return Error{path, 0, "trajectory",
                 "the " + std::to_string(model.num_bodies()) + " bodies of " + scene_label,
                 std::to_string(t.bodies.size()) + " bodies"};
  // CSV headers replace separators in body names by '_' (trajectory.cpp): compare alike.
  auto plain = [](std::string n) {
    for (char& c : n)
      if (c == ',' || c == '"' || c == '\n' || c == '\r') c = '_';
    return n;
  };
  for (int b = 0; b < model.num_bodies(); ++b)
    if (plain(t.bodies[b]) != plain(model.bodies()[b].name))
      return Error{path, 0, "trajectory body " + std::to_string(b),
                   "'" + model.bodies()[b].name + "' as in " + scene_label,
                   "'" + t.bodies[b] + "'"};
  if (t.rec.frames() == 0) return Error{path, 0, "trajectory", "at least one sample", "none"};
  return std::nullopt;
}

}  // namespace moreau::cli
