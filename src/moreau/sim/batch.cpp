#include "moreau/sim/batch.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "moreau/solvers/stop.hpp"

namespace moreau {

Batch::Batch(const Model& model, const SimSettings& settings, const State& initial, int num_worlds,
             int threads)
    : model_(&model),
      settings_(settings),
      initial_(initial),
      num_worlds_(std::max(num_worlds, 0)),
      nb_(model.num_bodies()),
      threads_(std::max(threads, 1)),
      actuated_(actuated_dofs(model)) {
  if (is_nmdp(settings.integrator)) {
    error_ = std::string("integrator ") + integrator_name(settings.integrator) +
             " takes no controls; a batch needs euler or midpoint (or a sap theta-method)";
    num_worlds_ = 0;
  } else if (initial.num_bodies() != nb_) {
    error_ = "initial state has " + std::to_string(initial.num_bodies()) + " bodies, the model " +
             std::to_string(nb_);
    num_worlds_ = 0;
  }
  for (const ActuatedDof& a : actuated_)
    set_points_.push_back(actuator_set_point(model.joints()[a.joint].actuators[a.dof]));
  const size_t N = num_worlds_, nb = nb_, nu = actuated_.size();
  t_.resize(N);
  r_.resize(N * nb * 3);
  q_.resize(N * nb * 4);
  u_.resize(N * nb * 6);
  ctrl_.resize(N * nu);
  unconverged_.assign(N, 0);
  sims_.resize(N);
  states_.assign(N, initial);
  world_errors_.resize(N);
  for (int w = 0; w < num_worlds_; ++w) reset(w);
}

void Batch::reset(int w) {
  sims_[w] = std::make_unique<Simulator>(*model_, settings_);
  sims_[w]->set_controls(ctrl_.data() + static_cast<size_t>(w) * actuated_.size());
  std::copy(set_points_.begin(), set_points_.end(),
            ctrl_.begin() + static_cast<ptrdiff_t>(w * actuated_.size()));
  pack(w, initial_);
  unconverged_[w] = 0;
  world_errors_[w].clear();
}

void Batch::unpack(int w, State& s) const {
  const size_t o = static_cast<size_t>(w) * nb_;
  s.t = t_[w];
  for (int b = 0; b < nb_; ++b) {
    const double* r = &r_[(o + b) * 3];
    const double* q = &q_[(o + b) * 4];
    const double* u = &u_[(o + b) * 6];
    s.r[b] = Vec3(r[0], r[1], r[2]);
    s.q[b] = Quat(q[0], q[1], q[2], q[3]);
    for (int k = 0; k < 6; ++k) s.u[b][k] = u[k];
  }
}

void Batch::pack(int w, const State& s) {
  const size_t o = static_cast<size_t>(w) * nb_;
  t_[w] = s.t;
  for (int b = 0; b < nb_; ++b) {
    double* r = &r_[(o + b) * 3];
    double* q = &q_[(o + b) * 4];
    double* u = &u_[(o + b) * 6];
    for (int k = 0; k < 3; ++k) r[k] = s.r[b][k];
    q[0] = s.q[b].w(), q[1] = s.q[b].x(), q[2] = s.q[b].y(), q[3] = s.q[b].z();
    for (int k = 0; k < 6; ++k) u[k] = s.u[b][k];
  }
}

State Batch::state(int w) const {
  State s = initial_;
  unpack(w, s);
  return s;
}

void Batch::set_state(int w, const State& s) {
  pack(w, s);
}

void Batch::step_world(int w, int n) {
  if (!world_errors_[w].empty()) return;
  const size_t nu = actuated_.size();
  const double* c = ctrl_.data() + w * nu;
  for (size_t i = 0; i < nu; ++i)
    if (!std::isfinite(c[i])) {
      const ActuatedDof& a = actuated_[i];
      world_errors_[w] = "control " + std::to_string(i) + " (joint '" +
                         model_->joints()[a.joint].name + "' DoF " + std::to_string(a.dof) +
                         ") is not finite";
      return;
    }
  State& s = states_[w];
  unpack(w, s);
  Simulator& sim = *sims_[w];
  for (int k = 0; k < n; ++k) {
    if (stop_requested()) {  // a signal (solvers/stop.hpp): this world stops where it is
      world_errors_[w] = "interrupted by a signal at t = " + std::to_string(s.t);
      return;
    }
    if (!sim.step(s)) {
      world_errors_[w] = "step at t = " + std::to_string(s.t) + ": " + sim.error();
      return;  // the arrays keep the last good state
    }
    if (sim.solution().status != SolveStatus::Converged) ++unconverged_[w];
    pack(w, s);
  }
}

int Batch::step(int n) {
  const int T = std::min(threads_, num_worlds_);
  if (T <= 1) {
    for (int w = 0; w < num_worlds_; ++w) step_world(w, n);
  } else {
    // Threads claim whole worlds in turn; which thread steps a world does not change its result.
    std::atomic<int> next{0};
    auto work = [&] {
      for (int w = next++; w < num_worlds_; w = next++) step_world(w, n);
    };
    std::vector<std::thread> pool;
    pool.reserve(T - 1);
    for (int i = 1; i < T; ++i) pool.emplace_back(work);
    work();
    for (std::thread& th : pool) th.join();
  }
  int failed = 0;
  for (int w = 0; w < num_worlds_; ++w) failed += !world_errors_[w].empty();
  return failed;
}

}  // namespace moreau
