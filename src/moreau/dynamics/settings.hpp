#pragma once
// Settings of dynamics::build_problem (builder.hpp): Baumgarte stabilization, drift compensation,
// joint forces, margins and softening. Apart from the builder so that scene files and settings
// readers can hold them without the builder (docs/design.md).
#include "moreau/dynamics/softening.hpp"

namespace moreau {

struct DynamicsSettings {
  // Baumgarte ERPs beta in [0, 1] (eq. 89-91); the bias is (beta / dt) * residual.
  double beta_joint = 0.5;  // with drift compensation: 7.5e-9 m closure on fourbar-fixed over 10 s
                            // (1e-15 m with the position projection below)
  double beta_limit = 0.2;
  double beta_contact = 0.2;
  // Second-order drift compensation of joint rows (beyond the report): the bias also cancels the
  // curvature term c = f(s [+] dt u-) - f(s) - dt J u- predicted along the pre-step velocity, so
  // that f(s+) = (1 - beta) f(s) + O(dt^2 |u+ - u-| |u|) instead of + O(dt^2 |u|^2). Along u-, and
  // not u_free, so that redundant rows stay consistent (docs/dynamics.md).
  bool drift_compensation = true;
  // Joint damping (passive d, servo kd) integrated exactly per DoF, as if unconstrained (beyond
  // eq. 72, which is explicit): stable for any damping; springs stay explicit (docs/dynamics.md).
  bool implicit_joint_forces = true;
  double penetration_margin = 0.0;  // delta of eq. 91a [m]: tolerated penetration
  // Contact gaps and limit gaps with |r| <= this get no positional bias [m or rad]; 0: none.
  double bias_dead_band = 1e-7;
  double limit_margin = 1e-3;  // a limit row is created when g + dt min(0, gdot) <= margin
  // A violated limit is corrected by at most this per step, in its row's bias and in the position
  // projection [m or rad]: a joint that starts outside its range (or is pushed out) comes back
  // over time, at most max_limit_correction / dt, not in one step with the kinetic energy that
  // takes (docs/dynamics.md, "Limits"). Infinity: no bound.
  double max_limit_correction = 1e-3;
  // The same bound on a joint row's position error (a loop that starts open, or is pulled open by
  // an impact): its Baumgarte term and the position projection close at most this per step [m or
  // rad]. Errors below it, the joints' usual drift, are unaffected. Infinity: no bound.
  double max_joint_correction = 1e-3;
  double restitution_threshold =
      1e-3;  // Newton restitution only for approach faster than this [m/s]
  // Position projection after each step (docs/dynamics.md, "Position projection"): Gauss-Newton
  // on the joint and violated-limit position errors in the mass metric, until max |phi| <= tol.
  bool position_projection = true;
  int projection_max_iters = 4;   // corrections tried (chord steps and undone ones included)
  double projection_tol = 1e-12;  // [m or rad]

  int dense_limit = 256;        // also build D dense when nl <= this
  SofteningSettings softening;  // MuJoCo-style impedance (eq. 103-113), off by default
};

}  // namespace moreau
