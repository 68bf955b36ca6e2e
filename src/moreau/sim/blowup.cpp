#include "moreau/sim/blowup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "moreau/dynamics/builder.hpp"

namespace moreau {

namespace {
std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}
}  // namespace

std::string blowup(const Model& m, const State& s, double violation, double e_initial,
                   double e_before, double e_after, const std::vector<Contact>& contacts,
                   const BlowupLimits& limits) {
  const double scale = std::max({std::abs(e_before), std::abs(e_initial), 1.0});
  if (e_after - e_before > (limits.energy_factor - 1.0) * scale)
    return "energy rose from " + fmt("%.6g", e_before) + " J to " + fmt("%.6g", e_after) +
           " J in one step (more than " + fmt("%g", limits.energy_factor) + "x)";
  if (violation > limits.joint_violation) {  // which joint: its rows evaluated again
    const VecX f = joint_residual(m, s);
    int row = 0;
    for (const Joint& j : m.joints()) {
      double worst = 0.0;
      for (int k = 0; k < j.rows(); ++k) worst = std::max(worst, std::abs(f[row + k]));
      row += j.rows();
      if (worst > limits.joint_violation)
        return "joint '" + j.name + "' violated by " + fmt("%.3g", worst) + " (more than " +
               fmt("%g", limits.joint_violation) + " m or rad)";
    }
  }
  for (const Contact& c : contacts)
    if (-c.gap > limits.penetration)
      return "bodies '" + m.body_name(c.body[0]) + "' and '" + m.body_name(c.body[1]) + "'" +
             " penetrate by " + fmt("%.3g", -c.gap) + " m (more than " +
             fmt("%g", limits.penetration) + " m)";
  return {};
}

}  // namespace moreau
