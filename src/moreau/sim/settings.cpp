#include "moreau/sim/settings.hpp"

namespace moreau {

const char* integrator_name(Integrator i) {
  switch (i) {
    case Integrator::SemiImplicitEuler:
      return "semi-implicit-euler";
    case Integrator::MoreauMidpoint:
      return "moreau-midpoint";
    case Integrator::Mdp:
      return "mdp";
    case Integrator::Nmdp:
      return "nmdp";
    case Integrator::NmdpZo:
      return "nmdp-zo";
  }
  return "?";
}

bool parse_integrator(const std::string& s, Integrator* out) {
  if (s == "semi-implicit-euler" || s == "euler")
    *out = Integrator::SemiImplicitEuler;
  else if (s == "moreau-midpoint" || s == "midpoint")
    *out = Integrator::MoreauMidpoint;
  else if (s == "mdp")
    *out = Integrator::Mdp;
  else if (s == "nmdp")
    *out = Integrator::Nmdp;
  else if (s == "nmdp-zo")
    *out = Integrator::NmdpZo;
  else
    return false;
  return true;
}

}  // namespace moreau
