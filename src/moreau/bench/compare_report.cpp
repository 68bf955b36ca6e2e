// `moreau compare`'s outputs: compare.csv (one row per step), compare.md (the side-by-side table),
// compare.svg (four panels over time) and the --json summary (docs/performance.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "moreau/bench/compare_mujoco.hpp"
#include "moreau/bench/svg_plot.hpp"

namespace moreau::bench {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  if (v.size() % 2) return v[h];
  const double hi = v[h];
  return 0.5 * (*std::max_element(v.begin(), v.begin() + h) + hi);
}

std::string fmt(const char* f, double x) {
  char b[64];
  std::snprintf(b, sizeof(b), f, x);
  return b;
}

std::string ratio(double a, double b) {
  return b > 0.0 && std::isfinite(a / b) ? fmt("%.3g", a / b) : "-";
}

std::string status(const EngineRun& r) {
  if (r.completed) return "completed";
  return "stopped: " + r.error;
}

}  // namespace

RunSummary summarize(const EngineRun& r) {
  RunSummary s;
  s.steps = static_cast<int>(r.step_time_s.size());
  s.initial_energy = r.initial_energy;
  s.final_energy = r.energy.empty() ? r.initial_energy : r.energy.back();
  if (!s.steps) return s;
  s.median_step_s = median(r.step_time_s);
  for (int i = 0; i < s.steps; ++i) {
    s.total_s += r.step_time_s[i];
    s.max_violation = std::max(s.max_violation, r.violation[i]);
    s.max_penetration = std::max(s.max_penetration, r.penetration[i]);
    s.mean_contacts += r.contacts[i];
    s.max_energy_drift = std::max(s.max_energy_drift, std::abs(r.energy[i] - r.initial_energy));
  }
  s.mean_step_s = s.total_s / s.steps;
  s.mean_contacts /= s.steps;
  for (const StageTimes& st : r.stages)
    for (int k = 0; k < kStages; ++k) s.mean_stage_s[k] += st[k];
  if (!r.stages.empty())
    for (double& x : s.mean_stage_s) x /= static_cast<double>(r.stages.size());
  for (double x : r.timed_step_s) s.mean_timed_step_s += x;
  if (!r.timed_step_s.empty()) s.mean_timed_step_s /= static_cast<double>(r.timed_step_s.size());
  return s;
}

std::string compare_markdown(const CompareResult& c) {
  const RunSummary a = summarize(c.mujoco), b = summarize(c.moreau);
  std::ostringstream o;
  o << "Model `" << c.options.model << "`, dt " << c.options.dt << " s, duration "
    << c.options.duration << " s.\n\n"
    << "- MuJoCo: " << c.mujoco.detail << "; " << c.mujoco.bodies << " bodies, " << c.mujoco.dofs
    << " DoFs; " << status(c.mujoco) << ".\n";
  if (!c.mujoco_copy.empty()) {
    o << "- MuJoCo ran a copy of the file (`moreau compare --out DIR` writes it to "
         "DIR/model_mujoco22.xml):";
    for (const std::string& w : c.mujoco_copy_changes) o << " " << w << ";";
    o << " includes expanded, asset directories absolute.\n";
  }
  o << "- moreau: " << c.moreau.detail << "; " << c.moreau.bodies << " bodies (" << c.moreau.dofs
    << " velocities, maximal coordinates); " << status(c.moreau) << "; " << c.moreau.nonconverged
    << " steps not converged.\n\n"
    << "| measure | MuJoCo | moreau | moreau / MuJoCo |\n|---|---|---|---|\n";
  auto row = [&](const char* name, double x, double y, const char* f, bool with_ratio) {
    o << "| " << name << " | " << fmt(f, x) << " | " << fmt(f, y) << " | "
      << (with_ratio ? ratio(y, x) : "-") << " |\n";
  };
  o << "| steps | " << a.steps << " | " << b.steps << " | - |\n";
  row("time per step, median [s]", a.median_step_s, b.median_step_s, "%.3e", true);
  row("time per step, mean [s]", a.mean_step_s, b.mean_step_s, "%.3e", true);
  row("total step time [s]", a.total_s, b.total_s, "%.3e", true);
  row("constraint violation, max [m or rad]", a.max_violation, b.max_violation, "%.3e", false);
  row("penetration, max [m]", a.max_penetration, b.max_penetration, "%.3e", false);
  row("contacts, mean", a.mean_contacts, b.mean_contacts, "%.3g", false);
  row("energy, initial [J]", a.initial_energy, b.initial_energy, "%.6g", false);
  row("energy, final [J]", a.final_energy, b.final_energy, "%.6g", false);
  row("energy drift, max [J]", a.max_energy_drift, b.max_energy_drift, "%.3e", false);
  o << "\nWhere the time goes, mean per step [us] (MuJoCo: its timers, on a second run of the same "
       "steps; its timed mean step "
    << fmt("%.1f", 1e6 * a.mean_timed_step_s)
    << " us; build is all of mj_forward but collision and the solver, integrate the rest of "
       "mj_step; moreau's project is the position projection):\n\n"
    << "| stage | MuJoCo | moreau | moreau / MuJoCo |\n|---|---|---|---|\n";
  for (int k = 0; k < kStages; ++k)
    o << "| " << kStageNames[k] << " | " << fmt("%.2f", 1e6 * a.mean_stage_s[k]) << " | "
      << fmt("%.2f", 1e6 * b.mean_stage_s[k]) << " | "
      << ratio(b.mean_stage_s[k], a.mean_stage_s[k]) << " |\n";
  o << "\nConstraint violation: MuJoCo's equality rows (|efc_pos| where efc_type is equality); "
       "moreau's joint and loop violation of its maximal coordinates. Energy: MuJoCo's "
       "mj_energyPos + mj_energyVel (gravity, springs, kinetic); moreau's kinetic + gravity.\n";
  return o.str();
}

std::string compare_json(const CompareResult& c) {
  nlohmann::ordered_json j;
  j["model"] = c.options.model;
  j["dt"] = c.options.dt;
  j["duration"] = c.options.duration;
  j["mujoco_copy_changes"] = c.mujoco_copy_changes;
  for (const EngineRun* r : {&c.mujoco, &c.moreau}) {
    const RunSummary s = summarize(*r);
    nlohmann::ordered_json e = {{"detail", r->detail},
                                {"bodies", r->bodies},
                                {"dofs", r->dofs},
                                {"completed", r->completed},
                                {"steps", s.steps},
                                {"median_step_s", s.median_step_s},
                                {"mean_step_s", s.mean_step_s},
                                {"total_step_s", s.total_s},
                                {"max_violation", s.max_violation},
                                {"max_penetration", s.max_penetration},
                                {"mean_contacts", s.mean_contacts},
                                {"initial_energy", s.initial_energy},
                                {"final_energy", s.final_energy},
                                {"max_energy_drift", s.max_energy_drift}};
    nlohmann::ordered_json stages;
    for (int k = 0; k < kStages; ++k) stages[kStageNames[k]] = s.mean_stage_s[k];
    e["mean_stage_s"] = stages;
    if (!r->timed_step_s.empty()) e["mean_timed_step_s"] = s.mean_timed_step_s;
    if (!r->error.empty()) e["error"] = r->error;
    if (r->engine == "moreau") e["nonconverged_steps"] = r->nonconverged;
    j[r->engine] = e;
  }
  const RunSummary a = summarize(c.mujoco), b = summarize(c.moreau);
  j["median_step_ratio"] = a.median_step_s > 0.0 ? nlohmann::json(b.median_step_s / a.median_step_s)
                                                 : nlohmann::json(nullptr);
  return j.dump(2);
}

std::string write_compare(const CompareResult& c, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) return dir + ": cannot create the directory";
  const fs::path d(dir);
  {
    std::ofstream f(d / "compare.csv");
    f << "engine,step,t,step_time_s,energy,violation,penetration,contacts";
    for (const char* n : kStageNames) f << ',' << n << "_s";
    f << '\n';
    f.precision(17);
    for (const EngineRun* r : {&c.mujoco, &c.moreau})
      for (size_t i = 0; i < r->t.size(); ++i) {
        f << r->engine << ',' << i + 1 << ',' << r->t[i] << ',' << r->step_time_s[i] << ','
          << r->energy[i] << ',' << r->violation[i] << ',' << r->penetration[i] << ','
          << r->contacts[i];
        for (int k = 0; k < kStages; ++k)
          f << ',' << (i < r->stages.size() ? r->stages[i][k] : 0.0);
        f << '\n';
      }
    if (!f) return (d / "compare.csv").string() + ": cannot write";
  }
  {
    std::ofstream f(d / "compare.md");
    f << "# MuJoCo and moreau side by side\n\n" << compare_markdown(c);
    f << "\n![time per step, energy, penetration, violation](compare.svg)\n";
    if (!f) return (d / "compare.md").string() + ": cannot write";
  }
  if (!c.mujoco_copy.empty()) {
    std::ofstream f(d / "model_mujoco22.xml");
    f << c.mujoco_copy;
    if (!f) return (d / "model_mujoco22.xml").string() + ": cannot write";
  }
  svg::Figure fig;
  fig.title = {"MuJoCo and moreau: " + fs::path(c.options.model).filename().string(),
               "dt " + fmt("%g", c.options.dt) + " s"};
  fig.columns = 2;
  struct Panel {
    const char* title;
    const char* ylabel;
    const std::vector<double> EngineRun::*y;
    svg::Scale scale;
  };
  const Panel panels[] = {
      {"time per step", "step time [s]", &EngineRun::step_time_s, svg::Scale::Log10},
      {"energy", "energy [J]", &EngineRun::energy, svg::Scale::Linear},
      {"penetration", "max penetration [m]", &EngineRun::penetration, svg::Scale::Linear},
      {"constraint violation", "violation [m or rad]", &EngineRun::violation, svg::Scale::Linear}};
  for (const Panel& p : panels) {
    svg::Plot plot;
    plot.title = p.title;
    plot.x.label = "t [s]";
    plot.y.label = p.ylabel;
    plot.y.scale = p.scale;
    plot.width = 560.0;
    plot.height = 360.0;
    int colour = 0;
    for (const EngineRun* r : {&c.mujoco, &c.moreau}) {
      svg::Series s;
      s.label = r->engine;
      s.x = r->t;
      s.y = r->*(p.y);
      s.colour = colour++;
      s.size = 1.2;
      plot.series.push_back(std::move(s));
    }
    fig.panels.push_back(std::move(plot));
  }
  {
    std::ofstream f(d / "compare.svg");
    f << svg::render(fig);
    if (!f) return (d / "compare.svg").string() + ": cannot write";
  }
  return "";
}

}  // namespace moreau::bench
