#pragma once
// MuJoCo-style constraint softening (report eq. 103-113). Parameters per constraint group.
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
};

}  // namespace moreau

namespace moreau {
struct Problem;
// Adds R = diag(c_j D_jj) and v_r (eq. 106) to p and folds v_r into p.v_f.
void apply_softening(Problem& p, const SofteningSettings& s);
}  // namespace moreau
