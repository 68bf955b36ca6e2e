// SAP parameters (Castro et al. 2023, Sec. IV-E, V) and the regularization R and bias vhat of
// every constraint from physical parameters (Sec. V, eq. 29-30).
#include <cmath>
#include <limits>
#include <numbers>

#include "moreau/solvers/sap.hpp"

namespace moreau {

SapParameters sap_parameters(const SolverSettings& s) {
  SapParameters prm;
  prm.stiffness = s.sap.stiffness;
  prm.tau_d = s.sap.tau_d.value_or(std::numeric_limits<double>::quiet_NaN());
  prm.beta = s.sap.beta;
  prm.sigma = s.sap.sigma;
  prm.abs_tol = s.sap.abs_tol;
  prm.rel_tol = s.tol;
  prm.max_iters = s.max_iters;
  prm.alpha_max = s.sap.alpha_max;
  prm.ls_max_iters = s.sap.ls_max_iters;
  prm.ls_tol = s.sap.ls_tol;
  prm.cost_stop = s.sap.cost_stop;
  prm.warm_velocity = s.sap.warm_velocity;
  prm.linear_solver = s.sap.linear_solver;
  prm.dense_max = s.sap.dense_max;
  return prm;
}

std::string sap_parameters_error(const SapParameters& prm) {
  auto bad = [](const char* name, const char* expect, double v) {
    return std::string("sap: ") + name + " must be " + expect + ", got " + std::to_string(v);
  };
  if (!(prm.stiffness > 0.0)) return bad("stiffness", "> 0 [N/m] (inf: near-rigid)", prm.stiffness);
  if (!std::isnan(prm.tau_d) && !(prm.tau_d >= 0.0 && std::isfinite(prm.tau_d)))
    return bad("tau_d", "a finite time >= 0 [s]", prm.tau_d);
  if (!(prm.beta > 0.0 && std::isfinite(prm.beta))) return bad("beta", "finite and > 0", prm.beta);
  if (!(prm.sigma > 0.0 && std::isfinite(prm.sigma)))
    return bad("sigma", "finite and > 0", prm.sigma);
  if (!(prm.abs_tol >= 0.0)) return bad("abs_tol", ">= 0", prm.abs_tol);
  if (!(prm.rel_tol >= 0.0)) return bad("rel_tol (--tol)", ">= 0", prm.rel_tol);
  if (!(prm.alpha_max >= 1.0 && std::isfinite(prm.alpha_max)))
    return bad("alpha_max", "finite and >= 1", prm.alpha_max);
  if (prm.ls_max_iters < 1) return bad("ls_max_iters", ">= 1", prm.ls_max_iters);
  if (!(prm.ls_tol > 0.0)) return bad("ls_tol", "> 0", prm.ls_tol);
  if (prm.linear_solver < -1 || prm.linear_solver > 1)
    return bad("linear_solver", "-1 (auto), 0 (dense) or 1 (sparse)", prm.linear_solver);
  if (prm.dense_max < 0) return bad("dense_max", ">= 0", prm.dense_max);
  return {};
}

void sap_model(const Problem& p, const SapParameters& prm, SapModel& m) {
  const int nl = p.nl;
  m.R.resize(nl);
  m.Rinv.resize(nl);
  m.vhat.resize(nl);
  const double dt = p.dt, pi = std::numbers::pi;
  const double rigid = prm.beta * prm.beta / (4.0 * pi * pi);  // eq. 29: beta^2 / (4 pi^2)
  const double tau_rigid = prm.beta / pi * dt;  // T_n = beta dt, critical damping (Sec. V-B)
  const double tau_default = std::isnan(prm.tau_d) ? tau_rigid : prm.tau_d;
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const auto Dii = p.D.diagonal(i);
    const int o = b.offset;
    if (b.cone == ConeKind::Coulomb) {
      // w_i = |W_ii|_F / 3 (eq. 29's rms norm of the 3x3 Delassus block, Frobenius as Drake).
      const double w = Dii.norm() / 3.0;
      const bool on = w > 0.0 && std::isfinite(w);
      // Per-contact k and tau_d from the pair's materials (Sec. V: the user supplies k, tau_d,
      // mu per contact); the solver's "stiffness" / "tau_d" where the materials set none.
      const double k = std::isinf(b.stiffness) ? prm.stiffness : b.stiffness;
      const double tau_c = std::isnan(b.tau_d) ? tau_default : b.tau_d;
      // Compliant regularization 1 / (dt k (dt + tau_d)) (Sec. V); 0 for k = inf. Switching
      // rule eq. 29: the larger of it and the near-rigid beta^2 / (4 pi^2) w, so that a contact
      // whose period 2 pi sqrt(m / k) the step cannot resolve is stabilized instead.
      const double soft = 1.0 / (dt * k * (dt + tau_c));
      const double Rt = prm.sigma * w, Rn = std::max(rigid * w, soft);  // eq. 30, eq. 29
      m.R.segment<3>(o) = on ? Vec3(Rt, Rt, Rn) : Vec3::Zero();
      m.Rinv.segment<3>(o) = on ? Vec3(1.0 / Rt, 1.0 / Rt, 1.0 / Rn) : Vec3::Zero();
      m.vhat.segment<3>(o) =
          Vec3(0.0, 0.0, -p.f[o + 2] / (dt + tau_c));  // vhat_n = -phi0/(dt+tau_d)
      continue;
    }
    // Joint and limit rows: near-rigid holonomic constraints with their own diagonal entry
    // w = D_rr (units of the row), R = beta^2 / (4 pi^2) w and vhat = -f / (dt + (beta/pi) dt).
    for (int k = 0; k < b.size; ++k) {
      const double w = Dii(k, k);
      const bool on = w > 0.0 && std::isfinite(w);
      m.R[o + k] = on ? rigid * w : 0.0;
      m.Rinv[o + k] = on ? 1.0 / (rigid * w) : 0.0;
      m.vhat[o + k] = -p.f[o + k] / (dt + tau_rigid);
    }
  }
  const int nb = p.num_bodies;
  m.scale.resize(6 * nb);
  for (int i = 0; i < nb; ++i)
    for (int k = 0; k < 6; ++k) m.scale[6 * i + k] = 1.0 / std::sqrt(p.M[i](k, k));  // eq. 25
}

}  // namespace moreau
