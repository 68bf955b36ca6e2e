#include "moreau/sim/settings.hpp"

namespace moreau {

const char* integrator_name(Integrator i) {
  return i == Integrator::SemiImplicitEuler ? "semi-implicit-euler" : "moreau-midpoint";
}

bool parse_integrator(const std::string& s, Integrator* out) {
  if (s == "semi-implicit-euler" || s == "euler")
    *out = Integrator::SemiImplicitEuler;
  else if (s == "moreau-midpoint" || s == "midpoint")
    *out = Integrator::MoreauMidpoint;
  else
    return false;
  return true;
}

}  // namespace moreau
