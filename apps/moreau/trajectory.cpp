#include "trajectory.hpp"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "moreau/viewer/recording.hpp"

namespace moreau::cli {

namespace {
// Body names become CSV column prefixes: keep them free of separators and quotes.
std::string csv_safe(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '"' || c == '\n' || c == '\r') c = '_';
  return s;
}

constexpr const char* kColumns[13] = {"x",  "y",  "z",  "qw", "qx", "qy", "qz",
                                      "vx", "vy", "vz", "wx", "wy", "wz"};
}  // namespace

TrajectoryWriter::TrajectoryWriter(std::FILE* f, TrajectoryFormat format, const Scene& scene,
                                   const SimSettings& settings, int every, bool contacts)
    : f_(f), format_(format), contacts_(contacts && format == TrajectoryFormat::Json) {
  const Model& m = scene.model;
  if (format_ == TrajectoryFormat::Csv) {
    line_ = "step,t";
    for (const Body& b : m.bodies())
      for (const char* c : kColumns) line_ += "," + csv_safe(b.name) + "." + c;
    line_ += ",constraint_violation";
    flush_line();
    return;
  }
  nlohmann::ordered_json meta;
  meta["scene"] = scene.name;
  meta["source"] = scene.source;
  meta["dt"] = settings.dt;
  meta["solver"] = settings.solver;
  meta["integrator"] = integrator_name(settings.integrator);
  meta["every"] = every;
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const Body& b : m.bodies()) names.push_back(b.name);
  meta["bodies"] = names;
  meta["layout"] =
      "per sample: position[b] = [x, y, z], quaternion[b] = [w, x, y, z], twist[b] = [vx, vy, vz, "
      "wx, wy, wz]" +
      std::string(contacts_ ? ", contacts = [[x, y, z, fx, fy, fz], ...]: the point on body A and "
                              "the force on body B [N] of each contact of the step, world frame"
                            : "");
  meta["scene_definition"] = nlohmann::ordered_json::parse(scene_to_json(scene));
  std::string head = meta.dump();
  head.pop_back();  // drop the closing brace: the samples follow
  line_ = head + ",\"samples\":[";
  std::fputs(line_.c_str(), f_);
  line_.clear();
}

void TrajectoryWriter::number(double x) {
  if (!std::isfinite(x)) {
    // JSON has no NaN/Inf: write null there; CSV gets nan / inf / -inf.
    line_ += format_ == TrajectoryFormat::Json ? "null"
                                               : (std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf"));
    return;
  }
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip representation
  line_.append(buf, res.ptr);
}

void TrajectoryWriter::integer(int64_t n) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, n);
  line_.append(buf, res.ptr);
}

void TrajectoryWriter::flush_line() {
  line_ += '\n';
  std::fwrite(line_.data(), 1, line_.size(), f_);
  line_.clear();
}

void TrajectoryWriter::sample(int64_t step, const State& s, double violation,
                              const Simulator* sim) {
  const int nb = s.num_bodies();
  if (format_ == TrajectoryFormat::Csv) {
    integer(step);
    line_ += ',';
    number(s.t);
    for (int b = 0; b < nb; ++b) {
      const double vals[13] = {s.r[b].x(), s.r[b].y(), s.r[b].z(), s.q[b].w(), s.q[b].x(),
                               s.q[b].y(), s.q[b].z(), s.u[b][0],  s.u[b][1],  s.u[b][2],
                               s.u[b][3],  s.u[b][4],  s.u[b][5]};
      for (double v : vals) {
        line_ += ',';
        number(v);
      }
    }
    line_ += ',';
    number(violation);
    flush_line();
    ++samples_;
    return;
  }
  auto list = [&](const char* key, auto&& component, int n) {
    line_ += ",\"";
    line_ += key;
    line_ += "\":[";
    for (int b = 0; b < nb; ++b) {
      line_ += b ? ",[" : "[";
      for (int k = 0; k < n; ++k) {
        if (k) line_ += ',';
        number(component(b, k));
      }
      line_ += ']';
    }
    line_ += ']';
  };
  line_ += samples_ ? ",\n{\"step\":" : "\n{\"step\":";
  integer(step);
  line_ += ",\"t\":";
  number(s.t);
  list(
      "position", [&](int b, int k) { return s.r[b][k]; }, 3);
  list(
      "quaternion", [&](int b, int k) { return k == 0 ? s.q[b].w() : s.q[b].vec()[k - 1]; }, 4);
  list(
      "twist", [&](int b, int k) { return s.u[b][k]; }, 6);
  line_ += ",\"constraint_violation\":";
  number(violation);
  if (contacts_) {
    line_ += ",\"contacts\":[";
    if (sim) {
      const std::vector<Contact>& c = sim->contacts();
      viewer::contact_forces(c, sim->problem(), sim->solution(), force_);
      for (size_t i = 0; i < c.size(); ++i) {
        line_ += i ? ",[" : "[";
        for (int k = 0; k < 6; ++k) {
          if (k) line_ += ',';
          number(k < 3 ? c[i].point[k] : force_[i][k - 3]);
        }
        line_ += ']';
      }
    }
    line_ += ']';
  }
  line_ += '}';
  std::fwrite(line_.data(), 1, line_.size(), f_);
  line_.clear();
  ++samples_;
}

void TrajectoryWriter::finish() {
  if (format_ == TrajectoryFormat::Json) std::fputs("\n]}\n", f_);
}

}  // namespace moreau::cli
