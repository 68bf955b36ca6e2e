#pragma once
// The soak tier's run and checks (docs/reliability.md, "Soak"), shared by the soak tier
// (tests/soak/test_soak.cpp: 1e5 to 1e6 steps per system) and the fast tier's tests of the checks
// themselves (tests/sim/test_soak_checks.cpp: each check fails on a run broken on purpose).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "moreau/collision/contact.hpp"
#include "moreau/dynamics/builder.hpp"
#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau::soak {

struct Bounds {
  double violation;    // bound on the joint and limit violation [m | rad]
  double penetration;  // bound on the deepest contact penetration [m]
};

// What a run measured, each over every step.
struct Record {
  int64_t steps = 0;         // steps taken (fewer than asked when one failed)
  std::string error;         // the failed step's message; empty when every step succeeded
  bool finite = true;        // the state at the end
  bool passive = true;       // no actuated joint: the energy may only fall
  double e0 = 0.0;           // initial total energy [J]
  double max_violation = 0;  // joint and limit violation
  double max_penetration = 0;
  double max_drift = 0;    // max |E - E0|: what friction and impacts take, for the table
  double max_rise = 0;     // max E - E0: what the step gains, for the check
  double max_kinetic = 0;  // the largest kinetic energy reached: the energy check's scale
  double rss_growth = 0;   // resident set at the end minus after the warm-up [MiB]
  int64_t capped = 0;      // steps whose solve did not converge
  double wall_s = 0;
};

inline double rss_mib() {
  std::ifstream f("/proc/self/statm");
  long size = 0, resident = 0;
  f >> size >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}

inline bool passive(const Model& m) {
  for (const Joint& j : m.joints())
    if (j.actuated()) return false;
  return true;
}

// A fault applied to the state after step k: how the tests of the checks break a run on purpose.
using Fault = std::function<void(State& s, int64_t k)>;

// Runs the scene `steps` steps with its own solver and settings; the resident set is taken as
// reference after `warm_up` steps.
inline Record run(const Scene& sc, int64_t steps, int64_t warm_up, const Fault& fault = {}) {
  const Model& m = sc.model;
  Simulator sim(m, sc.settings);
  State s = sc.initial;
  Record r;
  r.passive = passive(m);
  r.e0 = total_energy(m, s);
  r.max_violation = constraint_violation(m, s);
  double rss_warm = rss_mib();
  const auto t0 = std::chrono::steady_clock::now();
  for (int64_t k = 1; k <= steps; ++k) {
    if (!sim.step(s)) {
      r.error =
          "step " + std::to_string(k) + " (t = " + std::to_string(s.t) + " s): " + sim.error();
      break;
    }
    if (fault) fault(s, k);
    r.steps = k;
    r.capped += !sim.solution().converged();
    for (const Contact& ct : sim.contacts())
      r.max_penetration = std::max(r.max_penetration, -ct.gap);
    r.max_violation = std::max(r.max_violation, constraint_violation(m, s));
    const double e = total_energy(m, s);
    r.max_drift = std::max(r.max_drift, std::abs(e - r.e0));
    r.max_rise = std::max(r.max_rise, e - r.e0);
    r.max_kinetic = std::max(r.max_kinetic, kinetic_energy(m, s));
    if (k == std::min(warm_up, steps)) rss_warm = rss_mib();
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.rss_growth = rss_mib() - rss_warm;
  r.finite = s.all_finite() && std::isfinite(r.max_drift);
  return r;
}

// The checks a soak row must pass, one message per failure (empty: passed).
inline std::vector<std::string> failures(const Record& r, const Bounds& b) {
  std::vector<std::string> out;
  if (!r.error.empty()) out.push_back("failed at " + r.error);
  if (!r.finite) out.push_back("non-finite state or energy");
  if (!(r.max_violation <= b.violation))
    out.push_back("violation " + std::to_string(r.max_violation) + " over " +
                  std::to_string(b.violation));
  if (!(r.max_penetration <= b.penetration))
    out.push_back("penetration " + std::to_string(r.max_penetration) + " m over " +
                  std::to_string(b.penetration));
  // A passive system only loses energy to contact and friction; the symplectic step lets it
  // oscillate by a little: 1 % of its scale, the larger of |E0| and the largest kinetic energy
  // reached (E0 depends on where the potential's zero lies: a chain released level with the
  // origin starts at E0 = 0 and swings with tens of joules), at least 1 mJ.
  if (r.passive && !(r.max_rise <= 1e-2 * std::max({std::abs(r.e0), r.max_kinetic, 0.1})))
    out.push_back("energy gained " + std::to_string(r.max_rise) + " J");
  // Every step converged: a step stopped at the iteration cap is a failure, not a pass.
  if (r.capped > 0) out.push_back("unconverged: " + std::to_string(r.capped) + " steps");
  // No allocation per step after the first (docs/design.md): the resident set stays flat.
  if (!(r.rss_growth <= 1.0))
    out.push_back("resident set grew " + std::to_string(r.rss_growth) + " MiB after the warm-up");
  return out;
}

}  // namespace moreau::soak
