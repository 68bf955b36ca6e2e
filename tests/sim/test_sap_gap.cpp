// SAP's near-rigid limit (Castro et al. 2023, Sec. V-B): with R = beta^2 / (4 pi^2) w (eq. 29)
// and tau_d = (beta / pi) dt, SAP's impulses approach the hard solution of the same step as beta
// shrinks. On the Problems of a box on a plane, a box stack and a pendulum, the gap between
// SAP's velocity update and that of the hard NCP (nbgs-exact, tight tolerance) with the
// full-step bias -phi0 / dt (SAP's vhat at beta -> 0) is measured for dt in {1e-2, 1e-3, 1e-4}
// and beta in {0.1, 1, 10} (docs/solvers.md, section `sap`, has the table).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "moreau/scenes/builtin.hpp"
#include "moreau/sim/simulator.hpp"
#include "moreau/solvers/sap.hpp"

using namespace moreau;

namespace {

// |M^1/2 (u_a - u_b)| / |M^1/2 (u_b - u_free)|: the error of a's constraint impulse in the
// kinetic-energy norm, relative to the hard impulse. Unique even where the impulses are not
// (four contacts under a box are statically indeterminate; J^T lambda is not).
double momentum_gap(const Problem& p, const VecX& ua, const VecX& ub) {
  double num = 0.0, den = 0.0;
  for (int i = 0; i < p.num_bodies; ++i) {
    const Vec6 d = ua.segment<6>(6 * i) - ub.segment<6>(6 * i);
    const Vec6 r = ub.segment<6>(6 * i) - p.u_free.segment<6>(6 * i);
    num += d.dot(p.M[i] * d);
    den += r.dot(p.M[i] * r);
  }
  return std::sqrt(num / den);
}

// Gap of SAP (beta) to the hard solution of the Problem after `seconds` of a trajectory simulated
// by nbgs-exact at time step dt. Returns NaN when the reference does not converge.
struct Gaps {
  double beta[3];
};
Gaps gaps_at(const char* scene, double dt, double seconds) {
  Gaps g{};
  Result<Scene> sc = make_builtin_scene(scene);
  EXPECT_TRUE(sc) << sc.error().message();
  if (!sc) return g;
  SimSettings st = sc->settings;
  st.dt = dt;
  st.solver = "nbgs-exact";
  st.solver_settings.tol = 1e-10;
  st.solver_settings.max_iters = 2000;
  // The hard reference below biases every gap (f / dt, no dead band): the trajectory too, so that
  // the stack's resting gaps are those of a consistent hard solution.
  st.dynamics.bias_dead_band = 0.0;
  Simulator sim(sc->model, st);
  State s = sc->initial;
  while (s.t < seconds - 0.5 * dt) EXPECT_TRUE(sim.step(s)) << sim.error();
  const Problem& p = sim.problem();
  // The hard step with SAP's bias at beta -> 0: v_f = J u_free - vhat, vhat = -f / dt on the
  // normal, joint and limit rows (Sec. V-B with tau_d -> 0), no softening.
  Problem hard = p;
  hard.R.resize(0);
  hard.v_r.resize(0);
  p.apply_J(p.u_free, hard.v_f);
  for (const ConstraintBlock& b : p.blocks)
    for (int k = 0; k < b.size; ++k)
      if (b.cone != ConeKind::Coulomb || k == 2) hard.v_f[b.offset + k] += p.f[b.offset + k] / dt;
  SolverSettings rs;
  rs.tol = 1e-13;
  rs.max_iters = 100000;
  SolverWorkspace ws;
  Solution ref;
  EXPECT_TRUE(solve("nbgs-exact", hard, rs, {}, ws, ref)) << ref.message;
  VecX u_ref(6 * p.num_bodies), u_sap(6 * p.num_bodies);
  hard.velocity_from_impulse(ref.lambda, u_ref);
  const double betas[3] = {0.1, 1.0, 10.0};
  for (int k = 0; k < 3; ++k) {
    SolverSettings ss;
    ss.tol = 1e-12;
    ss.max_iters = 200;
    ss.sap.beta = betas[k];
    Solution sol;
    EXPECT_TRUE(solve("sap", p, ss, {}, ws, sol)) << sol.message;
    p.velocity_from_impulse(sol.lambda, u_sap);
    g.beta[k] = ref.converged() ? momentum_gap(p, u_sap, u_ref) : std::nan("");
  }
  return g;
}

}  // namespace

TEST(SapGap, NearRigidImpulsesApproachTheHardSolutionAsBetaShrinks) {
  std::printf("%-13s %-7s %-11s %-11s %-11s\n", "scene", "dt", "beta=0.1", "beta=1", "beta=10");
  for (const char* scene : {"box-on-plane", "box-stack", "pendulum"}) {
    double first_dt_gap = 0.0;
    for (double dt : {1e-2, 1e-3, 1e-4}) {
      const Gaps g = gaps_at(scene, dt, 0.2);
      std::printf("%-13s %-7g %-11.3g %-11.3g %-11.3g\n", scene, dt, g.beta[0], g.beta[1],
                  g.beta[2]);
      ASSERT_FALSE(std::isnan(g.beta[0])) << scene << " dt " << dt << ": no hard reference";
      // R / w = beta^2 / (4 pi^2): about a hundredfold per decade of beta while R << D. The
      // trend, with margin: from beta = 1 to 0.1 at least 20x closer, within 1e-2 of the hard
      // solution at beta = 0.1, and beta = 10 (R ~ 2.5 w) the farthest.
      EXPECT_LE(20.0 * g.beta[0], g.beta[1]) << scene << " dt " << dt;
      EXPECT_LT(g.beta[1], g.beta[2]) << scene << " dt " << dt;
      EXPECT_LE(g.beta[0], 1e-2) << scene << " dt " << dt;
      // At fixed beta the relative gap does not grow as dt shrinks: R scales with w, not with
      // dt, so the near-rigid regime is equally stiff relative to the step at every dt.
      if (dt == 1e-2) first_dt_gap = g.beta[1];
      EXPECT_LE(g.beta[1], 1.5 * first_dt_gap) << scene << " dt " << dt;
    }
  }
}
