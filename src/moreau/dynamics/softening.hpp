#pragma once
// MuJoCo-style constraint softening (report eq. 103-113). Parameters per constraint group.
#include <string>

namespace moreau {

struct ImpedanceParams {
  double d0 = 0.9;          // impedance at zero residual, (0, 1)
  double dwidth = 0.95;     // impedance at |r| >= width, (0, 1), d0 <= dwidth
  double width = 0.001;     // [m or rad]
  double midpoint = 0.5;    // sigmoid midpoint in (0, 1)
  double power = 2.0;       // sigmoid power >= 1
  double timeconst = 0.02;  // T [s]
  double dampratio = 1.0;   // zeta
};

struct SofteningSettings {
  bool enabled = false;
  ImpedanceParams joint, limit, contact;
  // true (default): MuJoCo's acceleration-level reference a_ref = -b v - k r integrated with
  //   the step, v_r = dt (b v^- + k r) - v^-, so that v+_j = (1 - d_j) v_f,j + d_j (v^-_j + dt
  //   a_ref,j): the row relaxes with the time constant T whatever dt.
  // false: v_r = dt (b v^- + k r), eq. 106 as written, so that (eq. 113)
  //   v+_j = (1 - d_j) v_f,j - d_j dt (b_j v^-_j + k_j r_j); its relaxation rate d dt k depends
  //   on dt (about 0.4 s instead of T = 0.02 s with the defaults at dt = 1 ms).
  bool mujoco_reference = true;
};

// Impedance d(r) of eq. 103-104 for a residual r (in (0, 1)).
double impedance(const ImpedanceParams& ip, double r);

// Empty when every group satisfies 0 < d0 <= dwidth < 1, width > 0, 0 < midpoint < 1,
// power >= 1, timeconst > 0, dampratio > 0 (all finite); otherwise what is wrong, e.g.
// "softening.contact.d0: expected 0 < d0 <= dwidth < 1, got 1.2".
std::string softening_error(const SofteningSettings& s);

}  // namespace moreau

namespace moreau {
struct Problem;
// Adds R = diag(c_j D_jj) and v_r (eq. 106) to p and folds v_r into p.v_f. Per row j:
// r_j = p.f (joint residual, limit distance, contact gap on the normal row, 0 on friction rows),
// v_j = p.v_minus = J u^-; a contact's three rows share the impedance of its gap.
void apply_softening(Problem& p, const SofteningSettings& s);
}  // namespace moreau
