#pragma once
// Many independent worlds of one Model, stepped over threads (docs/python.md, "Batches of
// worlds"): reinforcement learning and controller tuning step thousands of copies of one robot.
// States and controls live in contiguous world-major arrays that callers read and write in place
// (numpy views in Python). Each world has its own Simulator (warm starts, workspaces), so a world
// steps bit-identically to a lone Simulator fed the same states and controls, whatever the number
// of threads and whichever thread takes it.
#include <memory>
#include <string>
#include <vector>

#include "moreau/sim/simulator.hpp"

namespace moreau {

class Batch {
 public:
  // `num_worlds` copies of `initial`, the controls at the model's set points (actuated_dofs,
  // model/model.hpp). The NMDP integrators, which take no controls, are refused: ok() is false.
  Batch(const Model& model, const SimSettings& settings, const State& initial, int num_worlds,
        int threads = 1);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  int num_worlds() const { return num_worlds_; }
  int num_bodies() const { return nb_; }
  int num_controls() const { return static_cast<int>(actuated_.size()); }
  const std::vector<ActuatedDof>& controls() const { return actuated_; }
  int threads() const { return threads_; }
  void set_threads(int t) { threads_ = t < 1 ? 1 : t; }

  // World-major arrays: t (N), r (N, nb, 3) CoM positions, q (N, nb, 4) orientations (w, x, y,
  // z), u (N, nb, 6) twists [v; w], ctrl (N, nu).
  double* t() { return t_.data(); }
  double* r() { return r_.data(); }
  double* q() { return q_.data(); }
  double* u() { return u_.data(); }
  double* ctrl() { return ctrl_.data(); }
  // Per world: steps whose solve did not converge, since the world was made or reset.
  long long* unconverged() { return unconverged_.data(); }

  // Advances every world n steps (threads take whole worlds). A world whose step fails (a
  // non-finite control, the simulator's error) keeps the state of its last good step and is not
  // stepped again until reset; world_error() says why. Returns the number of failed worlds.
  int step(int n = 1);
  const std::string& world_error(int w) const { return world_errors_[w]; }
  // World w back to the initial state, the model's controls and a fresh Simulator (no warm start).
  void reset(int w);
  // World w's state as a State (a copy of the arrays).
  State state(int w) const;
  void set_state(int w, const State& s);

 private:
  void step_world(int w, int n);
  void unpack(int w, State& s) const;
  void pack(int w, const State& s);

  const Model* model_;
  SimSettings settings_;
  State initial_;
  int num_worlds_ = 0, nb_ = 0, threads_ = 1;
  std::vector<ActuatedDof> actuated_;
  std::vector<double> set_points_;  // the model's controls
  std::vector<double> t_, r_, q_, u_, ctrl_;
  std::vector<long long> unconverged_;
  std::vector<std::unique_ptr<Simulator>> sims_;
  std::vector<State> states_;  // per world: the State a step works on (kept: no allocation)
  std::vector<std::string> world_errors_;
  std::string error_;
};

}  // namespace moreau
