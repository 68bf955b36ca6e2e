#include "moreau/dynamics/softening.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/dynamics/problem.hpp"

namespace moreau {

namespace {
// Shaping function f_s(x) on [0, 1]: linear for p = 1, else the reflected sigmoid (eq. 103).
double shape(double x, double mid, double power) {
  if (power <= 1.0) return x;
  const double m = std::clamp(mid, 1e-9, 1.0 - 1e-9);
  if (x <= m) return std::pow(x, power) / std::pow(m, power - 1.0);
  return 1.0 - std::pow(1.0 - x, power) / std::pow(1.0 - m, power - 1.0);
}

const ImpedanceParams& group(const SofteningSettings& s, RowKind k) {
  return k == RowKind::Joint ? s.joint : k == RowKind::Limit ? s.limit : s.contact;
}
}  // namespace

double impedance(const ImpedanceParams& ip, double r) {
  const double x = ip.width > 0.0 ? std::abs(r) / ip.width : 2.0;  // eq. 104a
  if (x > 1.0) return ip.dwidth;
  return ip.d0 + shape(x, ip.midpoint, ip.power) * (ip.dwidth - ip.d0);  // eq. 104b
}

namespace {
std::string group_error(const ImpedanceParams& ip, const char* name) {
  const std::string at = std::string("softening.") + name + ".";
  auto bad = [&](const char* key, const char* expect, double v) {
    return at + key + ": expected " + expect + ", got " + std::to_string(v);
  };
  if (!(ip.d0 > 0.0 && ip.d0 <= ip.dwidth && ip.d0 < 1.0))
    return bad("d0", "0 < d0 <= dwidth < 1", ip.d0);
  if (!(ip.dwidth > 0.0 && ip.dwidth < 1.0)) return bad("dwidth", "0 < dwidth < 1", ip.dwidth);
  if (!(ip.width > 0.0 && std::isfinite(ip.width))) return bad("width", "width > 0", ip.width);
  if (!(ip.midpoint > 0.0 && ip.midpoint < 1.0))
    return bad("midpoint", "0 < midpoint < 1", ip.midpoint);
  if (!(ip.power >= 1.0 && std::isfinite(ip.power))) return bad("power", "power >= 1", ip.power);
  if (!(ip.timeconst > 0.0 && std::isfinite(ip.timeconst)))
    return bad("timeconst", "timeconst > 0", ip.timeconst);
  if (!(ip.dampratio > 0.0 && std::isfinite(ip.dampratio)))
    return bad("dampratio", "dampratio > 0", ip.dampratio);
  return {};
}
}  // namespace

std::string softening_error(const SofteningSettings& s) {
  std::string e = group_error(s.joint, "joint");
  if (e.empty()) e = group_error(s.limit, "limit");
  if (e.empty()) e = group_error(s.contact, "contact");
  return e;
}

void apply_softening(Problem& p, const SofteningSettings& s) {
  if (!s.enabled) {
    p.R.resize(0);
    p.v_r.resize(0);
    return;
  }
  p.R.resize(p.nl);
  p.v_r.resize(p.nl);
  for (int i = 0; i < p.num_blocks(); ++i) {
    const ConstraintBlock& b = p.blocks[i];
    const ImpedanceParams& ip = group(s, b.kind);
    const auto Dii = p.D.diagonal(i);
    const double T = ip.timeconst, zeta = ip.dampratio, dw = ip.dwidth;
    const double bj = 2.0 / (T * dw);  // eq. 105 damping
    for (int k = 0; k < b.size; ++k) {
      const int row = b.offset + k;
      if (k >= b.size - b.rotor_rows) {  // an armature row: compliant already, no position term
        p.R[row] = 0.0;
        p.v_r[row] = 0.0;
        continue;
      }
      // A contact's rows take the impedance of its gap (the normal row's residual).
      const double rd = b.cone == ConeKind::Coulomb ? p.f[b.offset + 2] : p.f[row];
      const double d = std::clamp(impedance(ip, rd), 1e-9, 1.0 - 1e-12);  // guard bad input
      const double kj = d / (T * T * zeta * zeta * dw * dw);              // eq. 105 stiffness
      p.R[row] = (1.0 - d) / d * Dii(k, k);  // eq. 106: R_jj = c_j D_jj
      const double v = p.v_minus[row], r = p.f[row];
      p.v_r[row] = p.dt * (bj * v + kj * r);  // eq. 106
      if (s.mujoco_reference) p.v_r[row] -= v;
      p.v_f[row] += p.v_r[row];  // folded into v_f (eq. 94)
    }
  }
}

}  // namespace moreau
