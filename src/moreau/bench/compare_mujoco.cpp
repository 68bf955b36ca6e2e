// `moreau compare`: the runs (docs/performance.md). MuJoCo is linked directly (Debian's
// libmujoco-dev, MOREAU_HAVE_MUJOCO); without it run_compare says so.
#include "moreau/bench/compare_mujoco.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "moreau/dynamics/builder.hpp"
#include "moreau/io/urdf_mjcf.hpp"
#include "moreau/model/state.hpp"
#include "moreau/sim/simulator.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace moreau::bench {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int step_count(const CompareOptions& o) {
  return static_cast<int>(std::max(0.0, std::ceil(o.duration / o.dt - 1e-9)));
}

EngineRun run_moreau(const CompareOptions& o, ImportedModel im) {
  EngineRun r;
  r.engine = "moreau";
  r.warnings = std::move(im.warnings);
  Scene& sc = im.scene;
  sc.settings.dt = o.dt;
  if (!o.solver.empty()) sc.settings.solver = o.solver;
  sc.settings.fast_path = o.fast_path;
  r.detail = "solver " + sc.settings.solver + ", " + integrator_name(sc.settings.integrator) +
             (o.fast_path ? ", fast path" : "");
  r.bodies = sc.model.num_bodies();
  r.dofs = 6 * r.bodies;
  r.steps_requested = step_count(o);
  Simulator sim(sc.model, sc.settings);
  State s = sc.initial;
  r.initial_energy = total_energy(sc.model, s);
  for (int i = 0; i < r.steps_requested; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = sim.step(s);
    const double elapsed = seconds_since(t0);
    if (!ok) {
      r.error = "step " + std::to_string(i + 1) + ": " + sim.error();
      return r;
    }
    double pen = 0.0;
    for (const Contact& k : sim.contacts()) pen = std::max(pen, -k.gap);
    r.t.push_back(s.t);
    r.step_time_s.push_back(elapsed);
    r.energy.push_back(total_energy(sc.model, s));
    r.violation.push_back(constraint_violation(sc.model, s));  // joints and loops [m | rad]
    r.penetration.push_back(pen);
    r.contacts.push_back(static_cast<int>(sim.contacts().size()));
    const StepTimes& st = sim.step_times();
    r.stages.push_back({st.collision, st.build, st.solve, st.integrate, st.project});
    r.nonconverged += !sim.solution().converged();
  }
  r.completed = true;
  return r;
}

#ifdef MOREAU_HAVE_MUJOCO
// Energy of d's current state: kinematics, centre of mass and mass matrix first (none of which
// touches the solver's warm start), then mj_energyPos / mj_energyVel.
double mujoco_energy(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  mj_comPos(m, d);
  mj_crb(m, d);
  mj_energyPos(m, d);
  mj_energyVel(m, d);
  return d->energy[0] + d->energy[1];
}

// The file itself, else mujoco22_copy's copy (into copy); null with err on failure.
mjModel* load_mujoco(const std::string& file, MujocoCopy* copy, std::string* err) {
  char buf[1024] = "";
  if (mjModel* m = mj_loadXML(file.c_str(), nullptr, buf, sizeof(buf))) return m;
  *err = buf;
  Result<MujocoCopy> c = mujoco22_copy(file);
  if (!c) return nullptr;
  // mj_loadXML reads files: the copy goes through a temporary one, removed at once.
  namespace fs = std::filesystem;
  const fs::path tmp =
      fs::temp_directory_path() / ("moreau_compare_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(tmp) << c->xml;
  char buf2[1024] = "";
  mjModel* m = mj_loadXML(tmp.string().c_str(), nullptr, buf2, sizeof(buf2));
  std::error_code ec;
  fs::remove(tmp, ec);
  if (!m) {
    *err += std::string(" (and on a copy without what MuJoCo 3 added: ") + buf2 + ")";
    return nullptr;
  }
  *copy = std::move(*c);
  return m;
}

mjtNum mujoco_clock() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The same steps again with MuJoCo's timers on, each step's timer durations mapped onto moreau's
// stages: collision mjTIMER_POS_COLLISION; build the rest of mj_forward but the solver (kinematics,
// inertia, constraint rows and their projections, velocities, actuation, forces); solve
// mjTIMER_CONSTRAINT; integrate the rest of mj_step (mj_Euler and the checks); project nothing
// (generalized coordinates need no projection).
void time_mujoco_stages(const mjModel* m, EngineRun& r) {
  mjData* d = mj_makeData(m);
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  mj_forward(m, d);
  mjcb_time = mujoco_clock;
  auto total = [d](int t) { return static_cast<double>(d->timer[t].duration); };
  for (size_t i = 0; i < r.t.size(); ++i) {
    for (int t = 0; t < mjNTIMER; ++t) d->timer[t] = mjTimerStat{0.0, 0};
    mj_step(m, d);
    const double step = total(mjTIMER_STEP), forward = total(mjTIMER_FORWARD);
    const double collision = total(mjTIMER_POS_COLLISION), solve = total(mjTIMER_CONSTRAINT);
    r.stages.push_back({collision, forward - collision - solve, solve, step - forward, 0.0});
    r.timed_step_s.push_back(step);
  }
  mjcb_time = nullptr;
  mj_deleteData(d);
}

Result<EngineRun> run_mujoco(const CompareOptions& o, MujocoCopy* copy) {
  std::string err;
  mjModel* m = load_mujoco(o.model, copy, &err);
  if (!m) return Error{o.model, 0, "MuJoCo mj_loadXML", "a model MuJoCo loads", err};
  m->opt.timestep = o.dt;
  m->opt.enableflags |= mjENBL_ENERGY;
  mjData* d = mj_makeData(m);
  // The same initial state as moreau's importer: the first keyframe when there is one.
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);
  mj_forward(m, d);
  EngineRun r;
  r.engine = "mujoco";
  static const char* kSolver[] = {"PGS", "CG", "Newton"};
  static const char* kIntegrator[] = {"Euler", "RK4", "implicit"};
  r.detail =
      std::string("MuJoCo ") + mj_versionString() + ", solver " +
      (m->opt.solver >= 0 && m->opt.solver < 3 ? kSolver[m->opt.solver] : "?") + ", integrator " +
      (m->opt.integrator >= 0 && m->opt.integrator < 3 ? kIntegrator[m->opt.integrator] : "?");
  r.bodies = m->nbody - 1;
  r.dofs = m->nv;
  r.steps_requested = step_count(o);
  r.initial_energy = mujoco_energy(m, d);
  for (int i = 0; i < r.steps_requested; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    mj_step(m, d);
    const double elapsed = seconds_since(t0);
    // Contacts and constraint rows of the step (detected at its start, as moreau's).
    double pen = 0.0, viol = 0.0;
    for (int c = 0; c < d->ncon; ++c) pen = std::max(pen, -d->contact[c].dist);
    for (int e = 0; e < d->nefc; ++e)
      if (d->efc_type[e] == mjCNSTR_EQUALITY) viol = std::max(viol, std::abs(d->efc_pos[e]));
    r.t.push_back(d->time);
    r.step_time_s.push_back(elapsed);
    r.violation.push_back(viol);
    r.penetration.push_back(pen);
    r.contacts.push_back(d->ncon);
    r.energy.push_back(mujoco_energy(m, d));
    if (!std::isfinite(r.energy.back())) {
      r.error = "step " + std::to_string(i + 1) + ": non-finite energy";
      break;
    }
  }
  r.completed = r.error.empty();
  mj_deleteData(d);
  time_mujoco_stages(m, r);
  mj_deleteModel(m);
  return r;
}
#endif

}  // namespace

bool compare_available() {
#ifdef MOREAU_HAVE_MUJOCO
  return true;
#else
  return false;
#endif
}

Result<CompareResult> run_compare(const CompareOptions& o) {
  if (!(o.dt > 0.0) || !std::isfinite(o.dt))
    return Error{"", 0, "--dt", "a finite time step > 0", error_number(o.dt)};
  if (!(o.duration >= 0.0) || !std::isfinite(o.duration))
    return Error{"", 0, "--duration", "a finite duration >= 0", error_number(o.duration)};
#ifdef MOREAU_HAVE_MUJOCO
  Result<ImportedModel> im = import_mjcf_file(o.model);
  if (!im) return im.error();
  if (!o.solver.empty() && !find_solver(o.solver))
    return Error{"", 0, "--solver", "a registered solver (" + solver_names() + ")", o.solver};
  MujocoCopy copy;
  Result<EngineRun> mj = run_mujoco(o, &copy);
  if (!mj) return mj.error();
  CompareResult c;
  c.options = o;
  c.mujoco_copy = std::move(copy.xml);
  c.mujoco_copy_changes = std::move(copy.changed);
  c.mujoco = std::move(*mj);
  c.moreau = run_moreau(o, std::move(*im));
  return c;
#else
  return Error{"", 0, "moreau compare", "a build with MuJoCo (Debian libmujoco-dev)",
               "a build without it"};
#endif
}

}  // namespace moreau::bench
